#include "fs/fatresize.h"

#include "device/loopattachment.h"
#include "fs/filesystemprobe.h"
#include "fs/filesystemtools.h"
#include "table/parteddevice.h"
#include "table/partedsession.h"

#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <optional>
#include <parted/parted.h> // with <parted/filesys.h>, which cannot stand alone
#include <sys/stat.h>
#include <unistd.h>

namespace {

ToolResult refuse(const QString &why)
{
    ToolResult r;
    r.error = why;
    return r;
}

// Bytes of a file or block device (QFileInfo reports 0 for a block device).
qint64 byteSize(const QString &path, bool *isBlockDevice)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st = {};
    *isBlockDevice = ::fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
    const off_t end = ::lseek(fd, 0, SEEK_END);
    ::close(fd);
    return end;
}

// A device node for the FAT tools: the partition's, or a loop device over its range inside an
// image. Each use gets a fresh attachment, so none caches blocks from before libparted wrote.
class FatNode
{
public:
    FatNode(const FilesystemLocation &where, qint64 bytes, bool readOnly)
    {
        if (!where.isImage) {
            m_node = where.path;
            return;
        }
        m_loop.emplace(where.path, where.offset, bytes, readOnly);
        if (m_loop->ok())
            m_node = m_loop->device();
        else
            m_error = m_loop->error();
    }
    QString node() const { return m_node; }
    QString error() const { return m_error; }

private:
    std::optional<LoopAttachment> m_loop;
    QString m_node;
    QString m_error;
};

QString fsckProblems(const ToolResult &check)
{
    return check.output.trimmed().section(QLatin1Char('\n'), 0, 5);
}

ToolResult checkFirst(const FilesystemLocation &where, qint64 partitionBytes)
{
    const FatNode node(where, partitionBytes, true);
    if (node.node().isEmpty())
        return refuse(
            QStringLiteral("Checking the FAT filesystem before resizing it: %1").arg(node.error()));
    const ToolResult check = checkFilesystem(node.node(), QStringLiteral("vfat"), false);
    if (check.ok || check.exitCode < 0)
        return check; // not run at all: its error names the package
    return refuse(QStringLiteral("fsck.fat -n reports problems on this FAT filesystem, so it was "
                                 "not resized; repair it first (fsck.fat -a): %1")
                      .arg(fsckProblems(check)));
}

// libparted writes a new boot sector whose label is "NO NAME"; the label stays only in the root
// folder, which fsck.fat reports as a difference. Writing it again puts it in both. Then the
// result gets the same check as before.
ToolResult restoreLabelAndCheck(const FilesystemLocation &where, qint64 newBytes,
                                const QString &label)
{
    const FatNode node(where, newBytes, false);
    if (node.node().isEmpty())
        return refuse(QStringLiteral("The FAT filesystem was resized, but checking it failed: %1")
                          .arg(node.error()));
    if (!label.isEmpty()) {
        const ToolResult r =
            runTool(QStringLiteral("fatlabel"), {node.node(), label}, QStringLiteral("dosfstools"));
        if (!r.ok)
            return refuse(QStringLiteral("The FAT filesystem was resized, but its label could "
                                         "not be written back: %1")
                              .arg(r.error));
    }
    const ToolResult check = checkFilesystem(node.node(), QStringLiteral("vfat"), false);
    if (!check.ok)
        return refuse(QStringLiteral("The FAT filesystem was resized, but fsck.fat -n now reports "
                                     "problems: %1")
                          .arg(check.exitCode < 0 ? check.error : fsckProblems(check)));
    return check;
}

QString joinedUnique(const QStringList &messages)
{
    QStringList unique;
    for (const QString &m : messages)
        if (!m.isEmpty() && !unique.contains(m))
            unique << m;
    return unique.join(QLatin1Char(' '));
}

// The disk holding a partition node, and the partition's first byte on it (from sysfs).
std::optional<FilesystemLocation> onParentDisk(const QString &node)
{
    const QString sys =
        QFileInfo(QStringLiteral("/sys/class/block/%1")
                      .arg(QFileInfo(node).canonicalFilePath().section(QLatin1Char('/'), -1)))
            .canonicalFilePath();
    QFile start(sys + QStringLiteral("/start"));
    if (sys.isEmpty() || !QFile::exists(sys + QStringLiteral("/partition")) ||
        !start.open(QIODevice::ReadOnly))
        return std::nullopt;
    bool ok = false;
    const qint64 sectors = start.readAll().trimmed().toLongLong(&ok); // 512-byte units
    const QString disk =
        QStringLiteral("/dev/") + QFileInfo(sys).path().section(QLatin1Char('/'), -1);
    if (!ok || !QFile::exists(disk))
        return std::nullopt;
    FilesystemLocation where;
    where.path = disk;
    where.offset = sectors * 512;
    where.isImage = true;
    return where;
}

// The resize itself: libparted on the image or the disk at the partition's offset. On the
// partition node alone the resizer would write 0 as the boot sector's hidden sectors (it takes
// the filesystem's start on the device it is given), which boot code relies on; so a partition
// node is resized through its disk, as GParted does. The session and device are closed (and
// synced) when this returns.
ToolResult resizeWithLibparted(FilesystemLocation where, qint64 partitionBytes, qint64 newBytes)
{
    if (!where.isImage)
        if (const std::optional<FilesystemLocation> disk = onParentDisk(where.path))
            where = *disk;
    bool isBlockDevice = false;
    const qint64 deviceBytes = byteSize(where.path, &isBlockDevice);
    if (deviceBytes < 0)
        return refuse(QStringLiteral("Cannot open %1.").arg(where.path));

    QString fatType; // libparted's name once opened: "fat16" or "fat32"
    QStringList refusals;
    PartedSession session([&](const PartedMessage &m) -> QString {
        // "Would you like to use FAT32?" when either type fits: keep the one it has.
        if (!fatType.isEmpty() && m.choices.contains(QLatin1String("Yes")) &&
            m.choices.contains(QLatin1String("No")))
            return fatType == QLatin1String("fat32") ? QStringLiteral("Yes") : QStringLiteral("No");
        if (m.severity <= PartedMessage::Severity::Warning &&
            m.choices.contains(QLatin1String("Ignore")))
            return QStringLiteral("Ignore");
        if (m.severity == PartedMessage::Severity::Information &&
            m.choices == QStringList{QStringLiteral("OK")})
            return QStringLiteral("OK");
        // Everything else stops it, including "only by converting to FAT16/FAT32" (OK/Cancel).
        refusals << m.text;
        return QStringLiteral("Cancel");
    });
    // An image is addressed in 512-byte units whatever its sector size, as the resizer counts.
    const OpenPartedDevice device(
        getPartedDevice(where.path, !isBlockDevice, 512, isBlockDevice ? 0 : deviceBytes));
    PedDevice *dev = device.get();
    if (!dev)
        return refuse(
            QStringLiteral("libparted cannot open %1: %2").arg(where.path, session.errorText()));
    const qint64 ss = dev->sector_size;
    if (ss != 512)
        return refuse(QStringLiteral("%1 has %2-byte sectors; libparted's FAT resizer works only "
                                     "with 512-byte sectors.")
                          .arg(where.path)
                          .arg(ss));
    if (where.offset % ss != 0 || where.offset + std::max(partitionBytes, newBytes) > deviceBytes)
        return refuse(
            QStringLiteral("The FAT filesystem's range lies outside %1.").arg(where.path));

    PedGeometry *oldGeom = ped_geometry_new(dev, where.offset / ss, partitionBytes / ss);
    PedGeometry *newGeom = ped_geometry_new(dev, where.offset / ss, newBytes / ss);
    PedFileSystem *fs = oldGeom && newGeom ? ped_file_system_open(oldGeom) : nullptr;
    ToolResult r;
    if (!fs) {
        r.error = QStringLiteral("libparted cannot open this FAT filesystem for resizing: %1")
                      .arg(joinedUnique(refusals + session.warnings()));
    } else {
        fatType = QString::fromLatin1(fs->type->name);
        const QString before = fatType;
        const bool resized = ped_file_system_resize(fs, newGeom, nullptr);
        // The device is synced when OpenPartedDevice closes it.
        const QString after = QString::fromLatin1(fs->type->name);
        ped_file_system_close(fs);
        if (!resized)
            r.error = QStringLiteral("libparted could not resize the %1 filesystem to %2 bytes: %3")
                          .arg(before.toUpper())
                          .arg(newBytes)
                          .arg(joinedUnique(refusals + session.warnings()))
                      // What its terse "cannot resize this partition to this size" means:
                      + QStringLiteral(" (libparted keeps or reduces the cluster size, and needs "
                                       "FAT16 to keep 32760 clusters or more, FAT32 65520 "
                                       "clusters of 4 KiB or more.)");
        else if (after != before) // the resolver prevents this; say so loudly if it ever happens
            r.error = QStringLiteral("libparted changed the filesystem from %1 to %2.")
                          .arg(before.toUpper(), after.toUpper());
        else {
            r.ok = true;
            r.exitCode = 0;
            r.output = QStringLiteral("%1 resized to %2 bytes by libparted")
                           .arg(before.toUpper())
                           .arg(newBytes);
        }
    }
    if (newGeom)
        ped_geometry_destroy(newGeom);
    if (oldGeom)
        ped_geometry_destroy(oldGeom);
    if (!r.ok && r.error.isEmpty())
        r.error = QStringLiteral("libparted could not resize the FAT filesystem.");
    return r;
}

} // namespace

ToolResult resizeFatFilesystem(const FilesystemLocation &where, qint64 partitionBytes,
                               qint64 newBytes)
{
    QString label;
    {
        const FilesystemProbe probe(where.path, 512);
        const FilesystemIdentity id = probe.probe(where.offset, partitionBytes);
        label = id.label;
        if (id.type != QLatin1String("vfat"))
            return refuse(QStringLiteral("No FAT filesystem found at byte %1 of %2.")
                              .arg(where.offset)
                              .arg(where.path));
        if (id.version == QLatin1String("FAT12"))
            return refuse(QStringLiteral("FAT12 filesystems cannot be resized (libparted's FAT "
                                         "resizer handles FAT16 and FAT32 only); copy the files "
                                         "off, recreate it at the new size and copy them back."));
    }
    const ToolResult check = checkFirst(where, partitionBytes);
    if (!check.ok)
        return check;

    const ToolResult resized = resizeWithLibparted(where, partitionBytes, newBytes);
    if (!resized.ok)
        return resized;
    const ToolResult after = restoreLabelAndCheck(where, newBytes, label);
    return after.ok ? resized : after;
}
