#include "fs/fatresize.h"

#include "device/filesystemprobe.h"
#include "fs/filesystemtools.h"
#include "fs/resizesupport.h"
#include "table/parteddevice.h"
#include "table/partedsession.h"

#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <functional>
#include <memory>
#include <optional>
#include <parted/parted.h> // with <parted/filesys.h>, which cannot stand alone
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

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

ToolResult checkFirst(const FilesystemLocation &where, qint64 partitionBytes)
{
    const FilesystemNode node(where, partitionBytes, true);
    if (node.node().isEmpty())
        return ToolResult::failed(
            QStringLiteral("Checking the FAT filesystem before resizing it: %1").arg(node.error()));
    const ToolResult check = checkFilesystem(node.node(), QStringLiteral("vfat"), false);
    return refuseUnlessClean(check, QStringLiteral("fsck.fat -n reports problems on this FAT "
                                                   "filesystem, so it was not resized; repair it "
                                                   "first (fsck.fat -a): %1")
                                        .arg(firstLines(check.output)));
}

// libparted writes a new boot sector whose label is "NO NAME"; the label stays only in the root
// folder, which fsck.fat reports as a difference. Writing it again puts it in both. Then the
// result gets the same check as before.
ToolResult restoreLabelAndCheck(const FilesystemLocation &where, qint64 newBytes,
                                const QString &label)
{
    const FilesystemNode node(where, newBytes, false);
    if (node.node().isEmpty())
        return ToolResult::failed(
            QStringLiteral("The FAT filesystem was resized, but checking it failed: %1")
                .arg(node.error()));
    if (!label.isEmpty()) {
        const ToolResult r =
            runTool(QStringLiteral("fatlabel"), {node.node(), label}, QStringLiteral("dosfstools"));
        if (!r.ok)
            return ToolResult::failed(
                QStringLiteral("The FAT filesystem was resized, but its label could "
                               "not be written back: %1")
                    .arg(r.error));
    }
    const ToolResult check = checkFilesystem(node.node(), QStringLiteral("vfat"), false);
    if (!check.ok)
        return ToolResult::failed(
            QStringLiteral("The FAT filesystem was resized, but fsck.fat -n now reports "
                           "problems: %1")
                .arg(check.exitCode < 0 ? check.error : firstLines(check.output)));
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

// libparted's questions while it resizes. "Would you like to use FAT32?" when either type fits:
// keep the one it has (`fatType`, once known). Everything else stops it, including "only by
// converting to FAT16/FAT32" (OK/Cancel); `refusals` collects what it said.
QString answerResizer(const PartedMessage &m, const QString &fatType, QStringList *refusals)
{
    if (!fatType.isEmpty() && m.choices.contains(QLatin1String("Yes")) &&
        m.choices.contains(QLatin1String("No")))
        return fatType == QLatin1String("fat32") ? QStringLiteral("Yes") : QStringLiteral("No");
    if (m.severity <= PartedMessage::Severity::Warning &&
        m.choices.contains(QLatin1String("Ignore")))
        return QStringLiteral("Ignore");
    if (m.severity == PartedMessage::Severity::Information &&
        m.choices == QStringList{QStringLiteral("OK")})
        return QStringLiteral("OK");
    *refusals << m.text;
    return QStringLiteral("Cancel");
}

using Geometry = std::unique_ptr<PedGeometry, decltype(&ped_geometry_destroy)>;

// Resizes the FAT at byte `offset` of an opened device with 512-byte sectors. `fatType` is set
// once libparted has opened the filesystem; `said` gives what libparted said, for errors.
ToolResult resizeFatAt(PedDevice *dev, qint64 offset, qint64 partitionBytes, qint64 newBytes,
                       QString *fatType, const std::function<QString()> &said)
{
    const qint64 ss = dev->sector_size;
    const Geometry oldGeom(ped_geometry_new(dev, offset / ss, partitionBytes / ss),
                           ped_geometry_destroy);
    const Geometry newGeom(ped_geometry_new(dev, offset / ss, newBytes / ss), ped_geometry_destroy);
    PedFileSystem *fs = oldGeom && newGeom ? ped_file_system_open(oldGeom.get()) : nullptr;
    if (!fs)
        return ToolResult::failed(
            QStringLiteral("libparted cannot open this FAT filesystem for resizing: %1")
                .arg(said()));
    *fatType = QString::fromLatin1(fs->type->name);
    const QString before = fatType->toUpper();
    const bool resized = ped_file_system_resize(fs, newGeom.get(), nullptr);
    // The device is synced when OpenPartedDevice closes it.
    const QString after = QString::fromLatin1(fs->type->name).toUpper();
    ped_file_system_close(fs);
    if (!resized)
        return ToolResult::failed(
            QStringLiteral("libparted could not resize the %1 filesystem to %2 bytes: %3")
                .arg(before)
                .arg(newBytes)
                .arg(said())
            // What its terse "cannot resize this partition to this size" means:
            + QStringLiteral(" (libparted keeps or reduces the cluster size, and needs FAT16 to "
                             "keep 32760 clusters or more, FAT32 65520 clusters of 4 KiB or "
                             "more.)"));
    if (after != before) // the resolver prevents this; say so loudly if it ever happens
        return ToolResult::failed(
            QStringLiteral("libparted changed the filesystem from %1 to %2.").arg(before, after));
    return ToolResult::succeeded(
        QStringLiteral("%1 resized to %2 bytes by libparted").arg(before).arg(newBytes));
}

// Opens the device holding the FAT (the image, or the disk of a partition node: on the partition
// node alone the resizer would write 0 as the boot sector's hidden sectors, which boot code relies
// on, so a partition node is resized through its disk, as GParted does) in a PartedSession that
// answers with `answer`, and runs `work` on it with the filesystem's offset there. The session and
// device are closed (and synced) when this returns.
ToolResult withFatDevice(
    FilesystemLocation where, qint64 partitionBytes, qint64 newBytes,
    const std::function<QString(const PartedMessage &)> &answer,
    const std::function<ToolResult(PedDevice *, qint64 offset, const PartedSession &)> &work)
{
    if (!where.isImage)
        if (const std::optional<FilesystemLocation> disk = partitionOnParentDisk(where.path))
            where = *disk;
    bool isBlockDevice = false;
    const qint64 deviceBytes = byteSize(where.path, &isBlockDevice);
    if (deviceBytes < 0)
        return ToolResult::failed(QStringLiteral("Cannot open %1.").arg(where.path));
    PartedSession session(answer);
    // An image is addressed in 512-byte units whatever its sector size, as the resizer counts.
    const OpenPartedDevice device(
        getPartedDevice(where.path, !isBlockDevice, 512, isBlockDevice ? 0 : deviceBytes));
    PedDevice *dev = device.get();
    if (!dev)
        return ToolResult::failed(
            QStringLiteral("libparted cannot open %1: %2").arg(where.path, session.errorText()));
    if (dev->sector_size != 512)
        return ToolResult::failed(QStringLiteral("%1 has %2-byte sectors; libparted's FAT resizer "
                                                 "works only with 512-byte sectors.")
                                      .arg(where.path)
                                      .arg(dev->sector_size));
    if (where.offset % 512 != 0 || where.offset + std::max(partitionBytes, newBytes) > deviceBytes)
        return ToolResult::failed(
            QStringLiteral("The FAT filesystem's range lies outside %1.").arg(where.path));
    return work(dev, where.offset, session);
}

// The resize itself: libparted on the image or the disk at the partition's offset.
ToolResult resizeWithLibparted(const FilesystemLocation &where, qint64 partitionBytes,
                               qint64 newBytes)
{
    QString fatType; // libparted's name once opened: "fat16" or "fat32"
    QStringList refusals;
    return withFatDevice(
        where, partitionBytes, newBytes,
        [&](const PartedMessage &m) { return answerResizer(m, fatType, &refusals); },
        [&](PedDevice *dev, qint64 offset, const PartedSession &session) {
            return resizeFatAt(dev, offset, partitionBytes, newBytes, &fatType,
                               [&] { return joinedUnique(refusals + session.warnings()); });
        });
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
            return ToolResult::failed(QStringLiteral("No FAT filesystem found at byte %1 of %2.")
                                          .arg(where.offset)
                                          .arg(where.path));
        if (id.version == QLatin1String("FAT12"))
            return ToolResult::failed(
                QStringLiteral("FAT12 filesystems cannot be resized (libparted's FAT "
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

} // namespace partwise

namespace partwise {

std::optional<qint64> fatMinimumBytes(const FilesystemLocation &where, qint64 partitionBytes)
{
    std::optional<qint64> minimum;
    // Reading only: every question libparted would ask is answered Cancel.
    withFatDevice(where, partitionBytes, partitionBytes, &PartedSession::readOnlyResolution,
                  [&](PedDevice *dev, qint64 offset, const PartedSession &) {
                      const Geometry geom(ped_geometry_new(dev, offset / 512, partitionBytes / 512),
                                          ped_geometry_destroy);
                      PedFileSystem *fs = geom ? ped_file_system_open(geom.get()) : nullptr;
                      if (!fs)
                          return ToolResult::failed(QString());
                      if (PedConstraint *c = ped_file_system_get_resize_constraint(fs)) {
                          minimum = qint64(c->min_size) * 512;
                          ped_constraint_destroy(c);
                      }
                      ped_file_system_close(fs);
                      return ToolResult::succeeded(QString());
                  });
    return minimum;
}

} // namespace partwise
