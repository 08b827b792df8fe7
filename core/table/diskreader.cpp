#include "table/diskreader.h"

#include "table/partedread.h"

#include "device/drivemeasurements.h"
#include "device/drivereport.h"
#include "device/filesystemprobe.h"
#include "device/imagesectorsize.h"
#include "device/mountcontrol.h"
#include "device/opendisk.h"
#include "device/partitionnode.h"
#include "device/tableentryprobe.h"
#include "device/topologyprobe.h"
#include "table/parteddevice.h"
#include "table/partedlayout.h"
#include "table/partedsession.h"
#include "table/tablesignature.h"

#include <QFile>
#include <QFileInfo>

#include <parted/parted.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

DiskReadResult failure(const QString &message)
{
    DiskReadResult r;
    r.error = message;
    return r;
}

QString withDetails(const QString &sentence, const PartedSession &session)
{
    const QString details = session.errorText();
    return details.isEmpty() ? sentence : sentence + QStringLiteral(" libparted: ") + details;
}

bool firstMiBIsBlank(const OpenDisk &disk)
{
    QByteArray head;
    QString why;
    if (!disk.readAt(0, std::min<qint64>(1 << 20, disk.sizeBytes()), &head, &why))
        return false;
    return head.count('\0') == head.size();
}

QString truncationError(const DiskLayout &layout)
{
    for (const auto &p : layout.regions) {
        if (!p.isFree() && p.endSector >= layout.device.lengthSectors)
            return QStringLiteral("Partition %1 ends at sector %2 but %3 holds only %4 sectors: "
                                  "the image looks truncated.")
                .arg(p.number)
                .arg(p.endSector)
                .arg(layout.device.path)
                .arg(layout.device.lengthSectors);
    }
    return QString();
}

// What the drive itself says and what was measured on it, beyond the kernel's topology.
void addDriveKnowledge(const QString &path, const DiskReadOptions &options, DeviceInfo &device)
{
    if (options.askDrive) {
        device.drive = readDriveReport(path);
        if (device.drive.answered)
            device.topology.physicalSectorSizeDrive = device.drive.physicalBlockSize;
    }
    if (options.useMeasurements) {
        if (const auto m = loadDriveMeasurement(driveKey(path))) {
            device.topology.physicalSectorSizeMeasured = m->physicalSectorSize;
            device.topology.alignmentOffsetMeasured = m->alignmentOffset;
            device.topology.writePenaltyMeasured = m->penaltyRatio;
        }
    }
}

// Where each partition is mounted and whether it is an active swap, found by its device number
// (device/mountcontrol), for the lock the map and the list draw and the info panel's mount points.
void markPartitionsInUse(const QString &path, DiskLayout &layout)
{
    for (PartitionInfo &p : layout.regions) {
        PartitionNode node;
        QString why;
        if (p.isFree() || p.isContainer() || p.number <= 0 ||
            !findPartitionNode(path, p.number, &node, &why))
            continue;
        for (const MountPlace &place : mountPlacesOf(node))
            if (!p.mountPoints.contains(place.target))
                p.mountPoints << place.target;
        p.swapOn = swapIsOn(node);
        const qint64 ss = layout.device.topology.logicalSectorSize;
        if (node.startBytes < 0 || node.sizeBytes < 0 ||
            (node.startBytes == p.startSector * ss && node.sizeBytes == p.lengthSectors() * ss))
            continue;
        // libparted names the node by number alone; one that shows other sectors is not this
        // partition's, so nothing names it as such (the window's title, the boot inventory's
        // reads, which go by offset without one).
        p.devicePath.clear();
        layout.warnings << QStringLiteral(
                               "The kernel still places partition %1 at sector %2 (%3 "
                               "sectors), where the table now says %4 (%5): %6 shows other "
                               "sectors until the kernel reads the table again (partx -u "
                               "%7, or a reboot). Partwise reaches the partition by offset.")
                               .arg(p.number)
                               .arg(node.startBytes / ss)
                               .arg(node.sizeBytes / ss)
                               .arg(p.startSector)
                               .arg(p.lengthSectors())
                               .arg(node.path, path);
    }
}

// A hybrid ISO is one ISO 9660 filesystem over the whole disk, its MBR or GPT entries windows
// into it (boot images, the ESP's efi.img): libparted reads only the table, so libblkid is asked
// what starts at byte 0. Moving such a window overwrites the ISO's own files.
void markHybridIso(const OpenDisk &disk, DiskLayout &layout)
{
    const FilesystemIdentity whole =
        FilesystemProbe(disk.ioPath(), layout.device.topology.logicalSectorSize)
            .probe(0, layout.device.sizeBytes);
    if (whole.type == QLatin1String("iso9660"))
        layout.wholeDiskFilesystem = whole.type;
}

// libparted leaves out an MBR entry of type 0, which hybrid ISOs use for the ISO itself and
// sfdisk and gdisk show: it is named here, so that what the disk holds is all said.
void noteUnlistedEntries(const OpenDisk &disk, DiskLayout &layout)
{
    if (layout.tableType != QLatin1String("msdos"))
        return;
    const qint64 ss = layout.device.topology.logicalSectorSize;
    QString type;
    for (const ProbedTableEntry &e : probeTableEntries(disk.ioPath(), ss, &type))
        if (!layout.partitionByNumber(e.number))
            layout.warnings << QStringLiteral(
                                   "MBR entry %1 (type %2, sectors %3-%4) is not listed as a "
                                   "partition: libparted, which reads and writes the table, "
                                   "leaves entries of type 0 out, and a change to this table "
                                   "would drop it.")
                                   .arg(e.number)
                                   .arg(e.mbrType, 2, 16, QLatin1Char('0'))
                                   .arg(e.offset / ss)
                                   .arg((e.offset + e.size) / ss - 1);
}

} // namespace

namespace {

// libparted asks "OK" or "Cancel" on a GPT in one case: one copy of the table (primary or
// backup) is corrupt or missing and the other will be used. Known by its question, not its
// words, which may be translated.
QString damagedGptCopy(const DiskLayout &layout, const QList<PartedMessage> &messages)
{
    if (layout.tableType != QLatin1String("gpt"))
        return {};
    for (const PartedMessage &m : messages)
        if (m.severity == PartedMessage::Severity::Error && m.choices.size() == 2 &&
            m.choices.contains(QLatin1String("OK")) && m.choices.contains(QLatin1String("Cancel")))
            return m.text;
    return {};
}

// libparted and libblkid were given the descriptor's name; people read the disk's.
DiskReadResult named(DiskReadResult r, const QString &io, const QString &path)
{
    r.error.replace(io, path);
    for (QString &w : r.layout.warnings)
        w.replace(io, path);
    r.layout.damagedGpt.replace(io, path);
    return r;
}

DiskReadResult readOpened(const OpenDisk &disk, const DiskReadOptions &options)
{
    const QString &path = disk.path();
    const QString io = disk.ioPath();
    const bool isImage = disk.isImage();
    const qint64 fileSize = disk.sizeBytes();

    // The last line before libparted, whoever asked: a size it cannot take crashes it.
    if (options.forcedSectorSize != 0 && !isSupportedSectorSize(options.forcedSectorSize))
        return failure(QStringLiteral("A sector size of %1 bytes is not one a disk has: use %2.")
                           .arg(options.forcedSectorSize)
                           .arg(supportedSectorSizesText()));

    DiskReadResult result;
    DiskLayout &layout = result.layout;
    layout.device.path = path;
    layout.device.isImage = isImage;
    layout.device.readOnly = disk.readOnly();

    PartedSession session;
    ImageSectorSize detected = isImage && options.forcedSectorSize == 0
                                   ? detectImageSectorSize(io)
                                   : ImageSectorSize{options.forcedSectorSize, QString()};
    detected.doubt.replace(io, path);
    const qint64 imageSectorSize = isImage ? detected.bytes : 0;
    // libparted gets the descriptor's name: it reopens the same file, never the name again.
    const OpenPartedDevice device(getPartedDevice(io, isImage, imageSectorSize, fileSize));
    PedDevice *dev = device.get();
    if (!dev) {
        DiskReadResult denied =
            failure(withDetails(QStringLiteral("Cannot open %1.").arg(path), session));
        denied.error.replace(io, path);
        denied.accessDenied = denied.error.contains(QLatin1String("not permitted")) ||
                              denied.error.contains(QLatin1String("Permission denied"));
        return denied;
    }
    // libparted resolves the name it is given and opens the disk by its own name: that name
    // must still be the disk opened, or libparted would read another.
    if (QString why; !disk.isNamed(QString::fromLocal8Bit(dev->path), &why))
        return failure(QStringLiteral("%1 changed while it was read: %2.").arg(path, why));

    if (isImage) {
        const qint64 ss = imageSectorSize;
        layout.device.topology = imageFileTopology(ss);
        layout.device.model = QStringLiteral("Disk image");
        layout.device.sectorSizeDoubt = detected.doubt;
        if (!detected.doubt.isEmpty())
            layout.warnings << detected.doubt;
        if (fileSize % ss != 0)
            layout.warnings << QStringLiteral(
                                   "The image size (%1 bytes) is not a whole number of "
                                   "%2-byte sectors; the last partial sector is ignored.")
                                   .arg(fileSize)
                                   .arg(ss);
    } else {
        layout.device.topology = imageFileTopology(dev->sector_size);
        layout.device.topology.physicalSectorSize = dev->phys_sector_size;
        // Without libblkid's answer libparted's own sizes stand; the report says so.
        QString why;
        if (!probeBlockDeviceTopology(io, &layout.device.topology, &why))
            layout.warnings << why.replace(io, path) +
                                   QStringLiteral(" The sector sizes libparted reports are used.");
        layout.device.model = QString::fromLocal8Bit(dev->model).trimmed();
        addDriveKnowledge(path, options, layout.device);
    }
    if (options.topologyOverride)
        layout.device.topology = *options.topologyOverride;
    layout.device.lengthSectors = dev->length;
    layout.device.sizeBytes = dev->length * dev->sector_size;

    if (dev->length < 2) {
        return failure(QStringLiteral("%1 is too small (%2 bytes) to hold a partition table.")
                           .arg(path)
                           .arg(fileSize));
    }

    PedDiskType *type = ped_disk_probe(dev);
    // libparted calls a filesystem on the whole disk a "loop" table holding one partition, 1,
    // that is the whole disk: a delete of it would write libparted's loop signature over the
    // filesystem's superblock. Partwise says what it is: no partition table, a filesystem.
    const bool loopLabel = type && qstrcmp(type->name, "loop") == 0;
    if (!type || loopLabel) {
        const qint64 ss = layout.device.topology.logicalSectorSize;
        const FilesystemIdentity whole = FilesystemProbe(io, ss).probe(0, layout.device.sizeBytes);
        layout.warnings << session.warnings();
        const QString foreign = probeTableSignature(io, ss);
        if (foreign == QLatin1String("PMBR"))
            return failure(withDetails(
                QStringLiteral("%1 has a protective MBR but no GPT header readable with %2-byte "
                               "sectors. If it is an image of a disk with other sectors, name them "
                               "with --sector-size; otherwise the GPT headers are damaged.")
                    .arg(path)
                    .arg(ss),
                session));
        if (!foreign.isEmpty())
            return failure(withDetails(
                QStringLiteral("%1 carries a %2 partition table that libparted cannot read: its "
                               "primary header is probably damaged. Nothing was changed. Repair "
                               "it with `sgdisk -e %1` (it rebuilds the primary from the backup "
                               "and writes both), or in gdisk: v, then w; then `sgdisk -v %1` "
                               "should find no problems.")
                    .arg(path, foreign),
                session));
        if (!whole.isEmpty()) {
            layout.wholeDiskFilesystem = whole.type;
        } else if (loopLabel) {
            layout.warnings << QStringLiteral(
                                   "%1 has no partition table: libparted sees a filesystem on the "
                                   "whole disk (or its own \"loop\" label), which libblkid does "
                                   "not recognise.")
                                   .arg(path);
        } else if (!firstMiBIsBlank(disk)) {
            return failure(withDetails(
                QStringLiteral("%1 holds no partition table and no filesystem that Partwise "
                               "recognises: its first sectors contain unrecognised data (a corrupt "
                               "or foreign partition table, or not a disk image at all).")
                    .arg(path),
                session));
        }
        layout.firstUsableSector = 0;
        layout.lastUsableSector = layout.device.lengthSectors - 1;
        result.ok = true;
        return result;
    }

    // libparted 3.5 crashes (a null dereference, not an assertion) reading a GPT from a device
    // too short to hold both headers and both entry arrays, where parted itself only says "too
    // small": found by tests/fuzz cutting an image at every sector. Such a disk cannot hold a
    // valid GPT, so it is refused before libparted reads it.
    const qint64 ss = dev->sector_size;
    const qint64 entrySectors = (16384 + ss - 1) / ss;
    if (qstrcmp(type->name, "gpt") == 0 && dev->length < 4 + 2 * entrySectors)
        return failure(QStringLiteral("%1 is too small for the GPT it starts with (%2 sectors of "
                                      "%3 bytes; a GPT needs at least %4): the image is "
                                      "truncated.")
                           .arg(path)
                           .arg(dev->length)
                           .arg(ss)
                           .arg(4 + 2 * entrySectors));
    QString assertion;
    PedDisk *table = newDiskSurvivingAssertions(dev, &assertion);
    if (!table && !assertion.isEmpty())
        return failure(QStringLiteral("The %1 partition table of %2 is damaged: libparted stopped "
                                      "reading it on an internal check (%3). Nothing was written; "
                                      "a tool such as testdisk can look for the partitions.")
                           .arg(QString::fromLatin1(type->name), path, assertion));
    if (!table) {
        const bool shortRead = session.errorText().contains(QLatin1String("end of file"));
        return failure(withDetails(
            shortRead ? QStringLiteral("%2 looks truncated: its %1 partition table refers to "
                                       "sectors beyond the end of the image.")
                            .arg(QString::fromLatin1(type->name), path)
                      : QStringLiteral("Cannot read the %1 partition table of %2.")
                            .arg(QString::fromLatin1(type->name), path),
            session));
    }
    fillLayoutFromPedDisk(table, layout, options.probeFilesystems, io);
    ped_disk_destroy(table);
    markHybridIso(disk, layout);
    noteUnlistedEntries(disk, layout);
    if (!isImage)
        markPartitionsInUse(path, layout);

    layout.warnings << session.warnings();
    layout.damagedGpt = damagedGptCopy(layout, session.messages());
    if (QString err = truncationError(layout); !err.isEmpty())
        return failure(err);
    result.ok = true;
    return result;
}

} // namespace

DiskReadResult readDisk(const QString &path, const DiskReadOptions &options)
{
    OpenDisk disk;
    QString error;
    if (!disk.open(path, &error)) {
        DiskReadResult r = failure(error);
        r.accessDenied = disk.accessDenied();
        return r;
    }
    return readDisk(disk, options);
}

DiskReadResult readDisk(const OpenDisk &disk, const DiskReadOptions &options)
{
    return named(readOpened(disk, options), disk.ioPath(), disk.path());
}

} // namespace partwise
