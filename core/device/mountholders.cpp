#include "device/mountholders.h"

#include <QDir>
#include <QFile>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace partwise {

namespace {

bool onDevice(const QByteArray &path, dev_t device)
{
    struct stat st;
    return ::stat(path.constData(), &st) == 0 && st.st_dev == device;
}

// A line of /proc/PID/maps: "addr perms offset MAJ:MIN inode path"; the device is in hex.
bool mapsTouch(const QByteArray &maps, dev_t device)
{
    for (const QByteArray &line : maps.split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 5 || fields[4] == "0")
            continue;
        const QList<QByteArray> dev = fields[3].split(':');
        bool okMajor = false;
        bool okMinor = false;
        const uint maj = dev.value(0).toUInt(&okMajor, 16);
        const uint min = dev.value(1).toUInt(&okMinor, 16);
        if (okMajor && okMinor && makedev(maj, min) == device)
            return true;
    }
    return false;
}

bool holds(const QByteArray &proc, dev_t device)
{
    for (const char *link : {"/cwd", "/root", "/exe"})
        if (onDevice(proc + link, device))
            return true;
    const QByteArray fdFolder = proc + "/fd";
    const QDir fds(QFile::decodeName(fdFolder));
    for (const QString &fd : fds.entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot))
        if (onDevice(fdFolder + '/' + QFile::encodeName(fd), device))
            return true;
    QFile maps(QFile::decodeName(proc + "/maps"));
    return maps.open(QIODevice::ReadOnly) && mapsTouch(maps.readAll(), device);
}

} // namespace

QString HoldingProcess::describe() const
{
    return QStringLiteral("%1 (pid %2)").arg(name.isEmpty() ? QStringLiteral("?") : name).arg(pid);
}

QList<HoldingProcess> processesHolding(dev_t device)
{
    QList<HoldingProcess> out;
    const pid_t self = ::getpid();
    const QDir proc(QStringLiteral("/proc"));
    for (const QString &entry : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool isNumber = false;
        const pid_t pid = pid_t(entry.toInt(&isNumber));
        if (!isNumber || pid == self)
            continue;
        const QByteArray folder = "/proc/" + entry.toLatin1();
        if (!holds(folder, device))
            continue;
        QFile comm(QFile::decodeName(folder + "/comm"));
        const QString name = comm.open(QIODevice::ReadOnly)
                                 ? QString::fromLocal8Bit(comm.readAll()).trimmed()
                                 : QString();
        struct stat st;
        if (::stat(folder.constData(), &st) != 0)
            continue; // gone
        out << HoldingProcess{pid, st.st_uid, name};
    }
    return out;
}

QString describeHolders(const QList<HoldingProcess> &holders, int limit)
{
    QStringList names;
    for (qsizetype i = 0; i < holders.size() && i < limit; ++i)
        names << holders[i].describe();
    if (holders.size() > limit)
        names << QStringLiteral("and %1 more").arg(holders.size() - limit);
    return names.join(QStringLiteral(", "));
}

} // namespace partwise
