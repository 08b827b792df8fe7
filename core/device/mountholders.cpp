#include "device/mountholders.h"

#include "base/mounttable.h"

#include <QDir>
#include <QFile>
#include <QSet>

#include <fcntl.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace partwise {

namespace {

// A file of /proc (procfs answers without asking any filesystem); fdinfo fits in far less
// than the limit, maps of a large program may not.
QByteArray readProc(const QByteArray &path, qint64 limit = 1 << 16)
{
    QFile f(QFile::decodeName(path));
    return f.open(QIODevice::ReadOnly) ? f.read(limit) : QByteArray();
}

// The mount a magic link of /proc/PID (cwd, root, exe) points into: an O_PATH descriptor is
// opened through it, which resolves the link inside the kernel without asking the filesystem
// anything, and this process's own fdinfo of it names the mount.
int mountIdOfLink(const QByteArray &link)
{
    const int fd = ::open(link.constData(), O_PATH | O_CLOEXEC);
    if (fd < 0)
        return -1;
    const int id = mountIdInFdinfo(readProc("/proc/self/fdinfo/" + QByteArray::number(fd)));
    ::close(fd);
    return id;
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

// The IDs of the mounts of `device` in a mountinfo file.
QSet<int> mountIds(const QString &mountinfo, dev_t device)
{
    QSet<int> ids;
    for (const MountEntry &m : readMountTable(mountinfo))
        if (m.device == device)
            ids.insert(m.id);
    return ids;
}

QByteArray mountNamespace(const QByteArray &proc)
{
    char target[64];
    const ssize_t n = ::readlink((proc + "/ns/mnt").constData(), target, sizeof target);
    return n > 0 ? QByteArray(target, int(n)) : QByteArray();
}

bool holds(const QByteArray &proc, dev_t device, const QSet<int> &ownIds,
           const QByteArray &ownNamespace)
{
    // Mount IDs are the kernel's, but a process in another mount namespace has mounts of its
    // own: those are read from its mountinfo.
    const QByteArray ns = mountNamespace(proc);
    const QSet<int> ids = ns.isEmpty() || ns == ownNamespace
                              ? ownIds
                              : mountIds(QFile::decodeName(proc + "/mountinfo"), device);
    if (ids.isEmpty())
        return false;
    for (const char *link : {"/cwd", "/root", "/exe"})
        if (ids.contains(mountIdOfLink(proc + link)))
            return true;
    const QByteArray fdinfo = proc + "/fdinfo";
    const QDir fds(QFile::decodeName(fdinfo));
    for (const QString &fd : fds.entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot))
        if (ids.contains(mountIdInFdinfo(readProc(fdinfo + '/' + QFile::encodeName(fd)))))
            return true;
    return mapsTouch(readProc(proc + "/maps", qint64(64) << 20), device);
}

} // namespace

QString HoldingProcess::describe() const
{
    return QStringLiteral("%1 (pid %2)").arg(name.isEmpty() ? QStringLiteral("?") : name).arg(pid);
}

int mountIdInFdinfo(const QByteArray &fdinfo)
{
    for (const QByteArray &line : fdinfo.split('\n')) {
        if (!line.startsWith("mnt_id:"))
            continue;
        bool ok = false;
        const int id = line.mid(7).trimmed().toInt(&ok);
        return ok && id >= 0 ? id : -1;
    }
    return -1;
}

QList<HoldingProcess> processesHolding(dev_t device)
{
    QList<HoldingProcess> out;
    const pid_t self = ::getpid();
    const QSet<int> ownIds = mountIds(QStringLiteral("/proc/self/mountinfo"), device);
    const QByteArray ownNamespace = mountNamespace("/proc/self");
    const QDir proc(QStringLiteral("/proc"));
    for (const QString &entry : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool isNumber = false;
        const pid_t pid = pid_t(entry.toInt(&isNumber));
        if (!isNumber || pid == self)
            continue;
        const QByteArray folder = "/proc/" + entry.toLatin1();
        if (!holds(folder, device, ownIds, ownNamespace))
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
