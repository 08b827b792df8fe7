#include "guestplug.h"

#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace pwtest {

namespace {

qint64 bytesOf(const QString &size)
{
    static const QRegularExpression re(QStringLiteral("^(\\d+)([KMG]?)$"));
    const auto m = re.match(size);
    if (!m.hasMatch())
        return 0;
    const qsizetype shift = QStringLiteral(" KMG").indexOf(
        m.captured(2).isEmpty() ? QStringLiteral(" ") : m.captured(2));
    return m.captured(1).toLongLong() << (10 * shift);
}

} // namespace

QList<GuestDrive> guestSpares(QString *error)
{
    QFile file(qEnvironmentVariable("PW_GUEST_SPARES"));
    if (file.fileName().isEmpty() || !file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("the guest has no spare drives (PW_GUEST_SPARES: '%1')")
                     .arg(file.fileName());
        return {};
    }
    QList<GuestDrive> out;
    for (const QByteArray &raw : file.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList f = line.split(QRegularExpression(QStringLiteral("\\s+")));
        if (f.size() != 7) {
            *error = QStringLiteral("spares.conf: bad line '%1'").arg(line);
            return {};
        }
        out << GuestDrive{f[0], f[1], bytesOf(f[2]), f[3].toInt(), f[4].toInt(), f[5], f[6], {}};
    }
    return out;
}

QString requestPlug(const QString &verb, const QString &spare, QString *error)
{
    static int serial = 0;
    const QDir dir(qEnvironmentVariable("PW_GUEST_QMP"));
    const QString name = QStringLiteral("%1-%2-%3").arg(verb, spare).arg(++serial);
    QFile file(dir.filePath(name + QStringLiteral(".new")));
    const QByteArray text = (verb + QLatin1Char(' ') + spare + QLatin1Char('\n')).toUtf8();
    // Written whole, then renamed: the host never reads half a request.
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text) != text.size() ||
        !file.flush() || !file.rename(dir.filePath(name + QStringLiteral(".request")))) {
        *error = QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString());
        return {};
    }
    return name;
}

QByteArray plugAnswer(const QString &name)
{
    QFile file(
        QDir(qEnvironmentVariable("PW_GUEST_QMP")).filePath(name + QStringLiteral(".answer")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray answer = file.readAll();
    file.remove();
    return answer;
}

bool plugSucceeded(const QByteArray &answer)
{
    const QList<QByteArray> lines = answer.trimmed().split('\n');
    const QJsonObject last = QJsonDocument::fromJson(lines.last()).object();
    return last.contains(QStringLiteral("return")) && !last.contains(QStringLiteral("error"));
}

QString nodeOfSerial(const QString &serial)
{
    const ToolResult r =
        runTool(QStringLiteral("lsblk"), {QStringLiteral("-d"), QStringLiteral("-J"),
                                          QStringLiteral("-o"), QStringLiteral("PATH,SERIAL")});
    const QJsonArray devices =
        QJsonDocument::fromJson(r.out).object().value(QStringLiteral("blockdevices")).toArray();
    for (const QJsonValue &d : devices)
        if (d[QStringLiteral("serial")].toString().trimmed() == serial)
            return d[QStringLiteral("path")].toString();
    return {};
}

} // namespace pwtest
