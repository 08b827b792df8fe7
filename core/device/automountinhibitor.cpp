#include "device/automountinhibitor.h"

#include "base/atomicfile.h"
#include "base/toolrunner.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <cerrno>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

const QString kPrefix = QStringLiteral("90-partwise-inhibit-");

// The kernel names of the disk and its partitions: sdb, sdb1…; loop0, loop0p1…; nvme0n1p1…
QString kernelPattern(const QString &name)
{
    const bool endsInDigit = !name.isEmpty() && name.back().isDigit();
    return endsInDigit ? QStringLiteral("%1|%1p[0-9]*").arg(name)
                       : QStringLiteral("%1|%1[0-9]*").arg(name);
}

// Tells a running udevd to apply (or drop) the rule to the disk's devices now; without udevd
// (a container, a minimal rescue system) there is nothing that could automount either.
void retrigger(const QString &name)
{
    if (findTool(QStringLiteral("udevadm")).isEmpty())
        return;
    runTool(QStringLiteral("udevadm"), {QStringLiteral("control"), QStringLiteral("--reload")},
            QString(), 10000);
    runTool(QStringLiteral("udevadm"),
            {QStringLiteral("trigger"), QStringLiteral("--action=change"),
             QStringLiteral("--subsystem-match=block"),
             QStringLiteral("--sysname-match=%1*").arg(name)},
            QString(), 10000);
}

bool isBlockDevice(const QString &path)
{
    struct stat st;
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISBLK(st.st_mode);
}

} // namespace

QString AutomountInhibitor::rulesFolder()
{
    const QString custom = qEnvironmentVariable("PARTWISE_UDEV_RULES_DIR");
    return custom.isEmpty() ? QStringLiteral("/run/udev/rules.d") : custom;
}

AutomountInhibitor::AutomountInhibitor(const QString &target)
{
    removeStaleInhibitions();
    if (!isBlockDevice(target))
        return;
    const QString name = QFileInfo(QFileInfo(target).canonicalFilePath()).fileName();
    const QString folder = rulesFolder();
    if (!QDir().mkpath(folder)) {
        m_error = QStringLiteral("cannot create %1").arg(folder);
        return;
    }
    const QString path = QDir(folder).filePath(
        QStringLiteral("%1%2-%3.rules").arg(kPrefix).arg(::getpid()).arg(name));
    // Written whole or not at all: udev reads rule files as they appear.
    const AtomicWrite written = writeFileAtomically(
        path, QStringLiteral("# Written by Partwise (process %1) while it writes to /dev/%2, so "
                             "that no desktop\n# automounter mounts its partitions meanwhile. "
                             "Removed when the write ends; a\n# leftover is removed at "
                             "Partwise's next start.\n"
                             "SUBSYSTEM==\"block\", KERNEL==\"%3\", ENV{UDISKS_IGNORE}=\"1\", "
                             "ENV{UDISKS_AUTO}=\"0\"\n")
                  .arg(::getpid())
                  .arg(name, kernelPattern(name))
                  .toUtf8());
    if (!written.ok()) {
        m_error = written.reason;
        return;
    }
    m_rule = path;
    retrigger(name);
}

AutomountInhibitor::~AutomountInhibitor()
{
    if (m_rule.isEmpty())
        return;
    QFile::remove(m_rule);
    static const QRegularExpression disk(QStringLiteral("-\\d+-(.+)\\.rules$"));
    retrigger(disk.match(m_rule).captured(1));
}

int AutomountInhibitor::removeStaleInhibitions()
{
    static const QRegularExpression owner(QStringLiteral("^") + kPrefix +
                                          QStringLiteral("(\\d+)-(.+)\\.rules$"));
    int removed = 0;
    const QDir folder(rulesFolder());
    for (const QString &name :
         folder.entryList({kPrefix + QStringLiteral("*.rules")}, QDir::Files)) {
        const QRegularExpressionMatch m = owner.match(name);
        if (!m.hasMatch())
            continue;
        const pid_t pid = pid_t(m.captured(1).toLongLong());
        const bool gone = ::kill(pid, 0) != 0 && errno == ESRCH;
        if (gone && QFile::remove(folder.filePath(name))) {
            retrigger(m.captured(2));
            ++removed;
        }
    }
    return removed;
}

} // namespace partwise
