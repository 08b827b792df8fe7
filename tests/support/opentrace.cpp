#include "opentrace.h"

#include "clirun.h"

#include <QFile>

namespace pwtest {

namespace {

QStringList opensByName(const QString &log, const QString &disk)
{
    QStringList callers;
    const QStringList lines = log.split(QLatin1Char('\n'));
    const QString quoted = QLatin1Char('"') + disk + QLatin1Char('"');
    for (int i = 0; i < lines.size(); ++i) {
        if (!lines[i].contains(quoted) || !lines[i].contains(QLatin1String("open")) ||
            lines[i].contains(QLatin1String("= -1")))
            continue;
        QString caller = QStringLiteral("?");
        for (int j = i + 1; j < lines.size() && lines[j].startsWith(QLatin1String(" > ")); ++j)
            if (!lines[j].contains(QLatin1String("/libc.so"))) {
                caller = lines[j].mid(3);
                break;
            }
        callers << caller;
    }
    return callers;
}

} // namespace

QStringList OpenTrace::outsideLibparted() const
{
    QStringList ours;
    for (const QString &c : callers)
        if (!c.contains(QLatin1String("libparted.so")))
            ours << c;
    return ours;
}

OpenTrace traceOpensByName(const QStringList &args, const QString &disk, const QString &logPath,
                           const QByteArray &input)
{
    // LeakSanitizer cannot run under ptrace; the sanitizer stage's other options stay.
    QString asan = qEnvironmentVariable("ASAN_OPTIONS");
    asan += (asan.isEmpty() ? QString() : QStringLiteral(":")) + QStringLiteral("detect_leaks=0");
    OpenTrace trace;
    trace.run =
        runTool(QStringLiteral("strace"),
                QStringList{QStringLiteral("-f"), QStringLiteral("-qq"), QStringLiteral("-k"),
                            QStringLiteral("-E"), QStringLiteral("ASAN_OPTIONS=") + asan,
                            QStringLiteral("-e"), QStringLiteral("trace=open,openat"),
                            // only calls naming the disk: unwinding every open of every
                            // tool the job runs took a minute
                            QStringLiteral("-P"), disk, QStringLiteral("-o"), logPath, cliPath()} +
                    args,
                input);
    QFile file(logPath);
    if (file.open(QIODevice::ReadOnly))
        trace.callers = opensByName(QString::fromUtf8(file.readAll()), disk);
    return trace;
}

} // namespace pwtest
