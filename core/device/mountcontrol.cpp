#include "device/mountcontrol.h"

#include "base/mounttable.h"
#include "base/nofollowfile.h"
#include "base/uniquefd.h"
#include "device/filesystemprobe.h"
#include "device/mountfolder.h"
#include "device/mountholders.h"

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <algorithm>
#include <libmount/libmount.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace partwise {

namespace {

// The filesystems a partition may be mounted as here: the kernel's own, never a FUSE program
// that would run as root on bytes a user wrote.
const QSet<QString> kMountable{
    QStringLiteral("ext2"),    QStringLiteral("ext3"),  QStringLiteral("ext4"),
    QStringLiteral("xfs"),     QStringLiteral("btrfs"), QStringLiteral("vfat"),
    QStringLiteral("exfat"),   QStringLiteral("f2fs"),  QStringLiteral("ntfs3"),
    QStringLiteral("iso9660"), QStringLiteral("udf")};

QString reason(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

QByteArray fdPath(int fd)
{
    return "/proc/self/fd/" + QByteArray::number(fd);
}

// Other filesystems mounted inside `place` (they keep it busy as open files do).
QStringList mountedInside(const MountPlace &place)
{
    QStringList out;
    const QString prefix =
        place.target == QLatin1String("/") ? place.target : place.target + QLatin1Char('/');
    for (const MountEntry &m : readMountTable())
        if (m.target.startsWith(prefix) && m.target != place.target)
            out << m.target;
    return out;
}

// The ID of the mount `name` in the folder `parentFd` shows, from fdinfo of an O_PATH descriptor
// closed at once (held, it would keep the mount busy); -1 when it cannot be opened. A link is
// opened as itself, so it names the parent's mount.
int mountIdAt(int parentFd, const QByteArray &name)
{
    const int fd = ::openat(parentFd, name.constData(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    QFile info(QStringLiteral("/proc/self/fdinfo/%1").arg(fd));
    const int id = info.open(QIODevice::ReadOnly) ? mountIdInFdinfo(info.read(1 << 12)) : -1;
    ::close(fd);
    return id;
}

// The place's folder as "/proc/self/fd/P/NAME": its parent opened without links (P), and its
// own name checked there, without following it, to be that filesystem's root. Only the parent is
// held: a descriptor of the mount itself would keep it busy. A mount point cannot be renamed or
// removed while mounted, so NAME in P stays that mount until umount2() reaches it.
QByteArray mountRootPath(const MountPlace &place, int *parentFd, QString *why)
{
    const qsizetype slash = place.target.lastIndexOf(QLatin1Char('/'));
    const QString name = place.target.mid(slash + 1);
    if (slash < 0 || name.isEmpty() || name == QLatin1String(".") || name == QLatin1String("..")) {
        *why = QStringLiteral("the root folder is not unmounted");
        return {};
    }
    bool stable = false;
    const QString parent = slash == 0 ? QStringLiteral("/") : place.target.left(slash);
    *parentFd = parent == QLatin1String("/") ? ::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)
                                             : openPathNoFollow(parent, &stable);
    if (*parentFd < 0) {
        *why = QStringLiteral("%1 cannot be reached without following a link (%2)")
                   .arg(place.target, reason(errno));
        return {};
    }
    const QByteArray encoded = QFile::encodeName(name);
    struct statx sx;
    // The mount's ID where the table gave one: a btrfs subvolume's folders report a device
    // number of their own, not mountinfo's.
    const bool root =
        ::statx(*parentFd, encoded.constData(), AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) == 0 &&
        (sx.stx_mode & S_IFMT) == S_IFDIR &&
        (place.id > 0 ? mountIdAt(*parentFd, encoded) == place.id
                      : makedev(sx.stx_dev_major, sx.stx_dev_minor) == place.device) &&
        ((sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) == 0 ||
         (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0);
    if (!root) {
        *why =
            QStringLiteral("%1 is no longer where %2 is mounted").arg(place.target, place.source);
        return {};
    }
    return fdPath(*parentFd) + '/' + encoded;
}

// Mount options as mount(2) flags and the filesystem's own data.
unsigned long flagsOf(const QString &vfsOptions)
{
    unsigned long flags = 0;
    mnt_optstr_get_flags(vfsOptions.toLocal8Bit().constData(), &flags,
                         mnt_get_builtin_optmap(MNT_LINUX_MAP));
    return flags & (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_SYNCHRONOUS | MS_DIRSYNC |
                    MS_NOATIME | MS_NODIRATIME | MS_RELATIME | MS_STRICTATIME | MS_LAZYTIME);
}

// What root adds for a user, as udisks2 does: an ext filesystem that finds an error goes read-only
// instead of doing what its superblock asks (errors=panic would let any user who brings one stop
// the machine).
QString userSafeData(const QString &type, const QString &data)
{
    if (!type.startsWith(QLatin1String("ext")))
        return data;
    QStringList options = data.split(QLatin1Char(','), Qt::SkipEmptyParts);
    options.erase(
        std::remove_if(options.begin(), options.end(),
                       [](const QString &o) { return o.startsWith(QLatin1String("errors=")); }),
        options.end());
    options << QStringLiteral("errors=remount-ro");
    return options.join(QLatin1Char(','));
}

bool mountAt(const QString &source, int folderFd, const QString &type, unsigned long flags,
             const QString &data, QString *why)
{
    const QByteArray src = QFile::encodeName(source);
    const QByteArray target = fdPath(folderFd);
    const QByteArray fstype = type.toLatin1();
    const QByteArray options = data.toLocal8Bit();
    if (::mount(src.constData(), target.constData(), fstype.constData(), flags,
                options.isEmpty() ? nullptr : options.constData()) == 0)
        return true;
    // The table shows options a filesystem reports but does not take back ("seclabel"):
    // without them, the filesystem's defaults, but for its errors= behaviour.
    const QByteArray plain =
        mountOption(data, QStringLiteral("errors")).isEmpty()
            ? QByteArray()
            : "errors=" + mountOption(data, QStringLiteral("errors")).toLocal8Bit();
    if (errno == EINVAL && options != plain &&
        ::mount(src.constData(), target.constData(), fstype.constData(), flags,
                plain.isEmpty() ? nullptr : plain.constData()) == 0)
        return true;
    *why = errno == ENODEV ? QStringLiteral("this system's kernel cannot mount %1").arg(type)
                           : QStringLiteral("mounting %1 failed: %2").arg(source, reason(errno));
    return false;
}

qint64 sizeOf(int fd)
{
    quint64 bytes = 0;
    return ::ioctl(fd, BLKGETSIZE64, &bytes) == 0 ? qint64(bytes) : 0;
}

} // namespace

bool mountSourceIsDevice(const QString &source, dev_t device, const QString &type)
{
    if (type == QLatin1String("fuse") || type.startsWith(QLatin1String("fuse.")) ||
        !source.startsWith(QLatin1String("/dev/")) ||
        source.split(QLatin1Char('/')).contains(QLatin1String("..")))
        return false;
    struct stat st;
    return ::stat(QFile::encodeName(source).constData(), &st) == 0 && S_ISBLK(st.st_mode) &&
           st.st_rdev == device;
}

QList<MountPlace> mountPlacesOf(const PartitionNode &node)
{
    QList<MountPlace> out;
    for (const MountEntry &m : readMountTable())
        if (m.device == node.device || mountSourceIsDevice(m.source, node.device, m.type))
            out << MountPlace{m.source,    m.target, m.type,   m.vfsOptions,
                              m.fsOptions, m.root,   m.device, m.id};
    return out;
}

bool swapIsOn(const PartitionNode &node)
{
    for (const QString &swap : activeSwaps())
        if (mountSourceIsDevice(swap, node.device))
            return true;
    return false;
}

UnmountOutcome unmountEverywhere(const PartitionNode &node, std::optional<uid_t> namedFor)
{
    UnmountOutcome out;
    QList<MountPlace> places = mountPlacesOf(node);
    for (qsizetype i = places.size() - 1; i >= 0; --i) {
        const MountPlace &place = places[i];
        QString why;
        int parentFd = -1;
        const QByteArray path = mountRootPath(place, &parentFd, &why);
        const UniqueFd parent(parentFd);
        if (path.isEmpty()) {
            out.error = QStringLiteral("%1 was not unmounted from %2: %3.")
                            .arg(node.path, place.target, why);
            return out;
        }
        // No MNT_FORCE, no MNT_DETACH: a filesystem in use stays mounted and is named.
        if (::umount2(path.constData(), UMOUNT_NOFOLLOW) == 0) {
            out.unmounted.prepend(place);
            continue;
        }
        const int code = errno;
        if (code != EBUSY) {
            out.error = QStringLiteral("%1 was not unmounted from %2: %3.")
                            .arg(node.path, place.target, reason(code));
            return out;
        }
        qsizetype others = 0;
        for (const HoldingProcess &holder : processesHolding(place.device)) {
            if (!namedFor || holder.uid == *namedFor)
                out.holders << holder;
            else
                ++others;
        }
        const QStringList inside = mountedInside(place);
        QStringList what;
        QStringList users;
        if (!out.holders.isEmpty())
            users << describeHolders(out.holders);
        if (others > 0)
            users << QStringLiteral("%1 process(es) of other users").arg(others);
        if (!users.isEmpty())
            what << QStringLiteral("in use by %1").arg(users.join(QStringLiteral(" and ")));
        if (!inside.isEmpty())
            what
                << QStringLiteral("holds other mounts (%1)").arg(inside.join(QStringLiteral(", ")));
        if (what.isEmpty())
            what << QStringLiteral("in use (the kernel names no process: perhaps a loop device, "
                                   "a bind mount elsewhere or a process in another namespace)");
        out.error = QStringLiteral("%1 on %2 is busy: %3. Close those programs (or leave that "
                                   "folder) and try again; nothing was forced.")
                        .arg(node.path, place.target, what.join(QStringLiteral("; ")));
        return out;
    }
    out.ok = true;
    return out;
}

bool swapOff(const PartitionNode &node, QString *why)
{
    if (!swapIsOn(node)) {
        *why = QStringLiteral("%1 is not in use as swap").arg(node.path);
        return false;
    }
    if (::swapoff(QFile::encodeName(node.path).constData()) == 0)
        return true;
    *why = errno == ENOMEM
               ? QStringLiteral("%1 cannot be turned off: the memory it holds does not fit in "
                                "what is free")
                     .arg(node.path)
               : QStringLiteral("%1 cannot be turned off: %2").arg(node.path, reason(errno));
    return false;
}

FilesystemIdentity filesystemOf(const PartitionNode &node)
{
    const UniqueFd fd(::open(QFile::encodeName(node.path).constData(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0)
        return {};
    const qint64 size = sizeOf(fd.get());
    return FilesystemProbe(node.path, 512).probe(0, size);
}

bool swapOn(const PartitionNode &node, QString *why)
{
    if (swapIsOn(node)) {
        *why = QStringLiteral("%1 is in use as swap already").arg(node.path);
        return false;
    }
    if (!mountPlacesOf(node).isEmpty() || filesystemOf(node).type != QLatin1String("swap")) {
        *why = QStringLiteral("%1 holds no swap area").arg(node.path);
        return false;
    }
    if (::swapon(QFile::encodeName(node.path).constData(), 0) == 0)
        return true;
    *why = QStringLiteral("%1 cannot be turned on: %2").arg(node.path, reason(errno));
    return false;
}

bool mountOnFolder(const PartitionNode &node, int folderFd, QString *why)
{
    if (const QList<MountPlace> places = mountPlacesOf(node); !places.isEmpty()) {
        *why = QStringLiteral("%1 is mounted on %2 already").arg(node.path, places.first().target);
        return false;
    }
    if (swapIsOn(node)) {
        *why = QStringLiteral("%1 is in use as swap").arg(node.path);
        return false;
    }
    QString type = filesystemOf(node).type;
    if (type == QLatin1String("ntfs"))
        type = QStringLiteral("ntfs3");
    if (!kMountable.contains(type)) {
        *why =
            type.isEmpty()
                ? QStringLiteral("%1 holds no filesystem Partwise knows").arg(node.path)
                : QStringLiteral("%1 holds %2, which Partwise does not mount").arg(node.path, type);
        return false;
    }
    return mountAt(node.path, folderFd, type, MS_NOSUID | MS_NODEV, userSafeData(type, {}), why);
}

bool mountBack(const PartitionNode &node, const QList<MountPlace> &places,
               std::optional<uid_t> servedUser, QString *why)
{
    QString first;     // where the first place went, for the bind mounts after it
    QString firstRoot; // the folder of the filesystem shown there
    for (const MountPlace &place : places) {
        bool stable = false;
        if (!QFileInfo::exists(place.target) &&
            !remakeAutomounterFolder(place.target, servedUser, why))
            return false;
        const UniqueFd folder(openMountFolder(place.target, std::nullopt, why, &stable));
        if (folder.get() < 0)
            return false;
        unsigned long flags = flagsOf(place.vfsOptions);
        QString data = place.fsOptions;
        if (servedUser) {
            struct stat st;
            if (!stable && (::fstat(folder.get(), &st) != 0 || st.st_uid != *servedUser)) {
                *why = QStringLiteral("%1 is not your folder any more").arg(place.target);
                return false;
            }
            // Whatever it was before: the bytes there now may be another filesystem with the
            // same UUID (a user's own image behind a loop device changes under root's feet).
            flags |= MS_NOSUID | MS_NODEV;
            data = userSafeData(place.type, data);
        }
        if (first.isEmpty() || place.root == firstRoot) {
            if (!first.isEmpty()) {
                // Another view of the same folder: a bind mount of the first place.
                const UniqueFd source(openMountFolder(first, std::nullopt, why));
                if (source.get() < 0)
                    return false;
                if (::mount(fdPath(source.get()).constData(), fdPath(folder.get()).constData(),
                            nullptr, MS_BIND, nullptr) != 0) {
                    *why = QStringLiteral("%1 was not mounted back on %2: %3")
                               .arg(node.path, place.target, reason(errno));
                    return false;
                }
                continue;
            }
            if (!mountAt(node.path, folder.get(), place.type, flags, data, why))
                return false;
            first = place.target;
            firstRoot = place.root;
            continue;
        }
        // A bind mount of a folder inside: from the first place when it shows the whole
        // filesystem, else the filesystem's own options say which part (btrfs's subvol=).
        if (firstRoot == QLatin1String("/")) {
            const UniqueFd source(openMountFolder(first + place.root, std::nullopt, why));
            if (source.get() < 0)
                return false;
            if (::mount(fdPath(source.get()).constData(), fdPath(folder.get()).constData(), nullptr,
                        MS_BIND, nullptr) != 0) {
                *why = QStringLiteral("%1 was not mounted back on %2: %3")
                           .arg(node.path, place.target, reason(errno));
                return false;
            }
        } else if (!mountAt(node.path, folder.get(), place.type, flags, data, why)) {
            return false;
        }
    }
    return true;
}

} // namespace partwise
