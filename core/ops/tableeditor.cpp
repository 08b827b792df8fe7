#include "ops/tableeditor.h"

#include "table/partedread.h"

#include "align/alignmentgeometry.h"
#include "align/resizeplacement.h"
#include "base/humansize.h"
#include "fs/filesystemresize.h"
#include "fs/filesystemtools.h"
#include "fs/filesystemuuid.h"
#include "ops/copyplan.h"
#include "ops/journaledtablecommit.h"
#include "ops/pastesource.h"
#include "table/foreigndisk.h"
#include "table/mbrslots.h"
#include "table/partedcommit.h"
#include "table/parteddevice.h"
#include "table/partedlayout.h"
#include "table/partedpartition.h"

#include <parted/parted.h>

#include <algorithm>

namespace partwise {

namespace {

QString failureText(const QString &sentence, const PartedSession &session)
{
    const QString details = session.errorText();
    return details.isEmpty() ? sentence : sentence + QLatin1Char(' ') + details;
}

// The free region a new partition goes into: the one holding `startSector`, or the first one of
// the right kind (inside the extended partition for logicals, outside it otherwise).
const PartitionInfo *chooseFreeRegion(const DiskLayout &layout, const Operation &op,
                                      qint64 startSector)
{
    const bool logical = op.kind == PartitionInfo::Kind::Logical;
    for (const PartitionInfo &r : layout.regions) {
        if (!r.isFree() || r.insideExtended != logical)
            continue;
        if (startSector >= 0 ? (startSector >= r.startSector && startSector <= r.endSector) : true)
            return &r;
    }
    return nullptr;
}

} // namespace

TableEditor::TableEditor(PartedSession::Resolver resolver) : m_session(std::move(resolver)) {}

TableEditor::~TableEditor()
{
    if (m_disk)
        ped_disk_destroy(m_disk);
    if (m_device)
        ped_device_destroy(m_device);
}

bool TableEditor::open(const DiskLayout &current, QString *error)
{
    m_base = current;
    const DeviceInfo &d = current.device;
    m_device = getPartedDevice(d.path, d.isImage, d.topology.logicalSectorSize,
                               d.lengthSectors * d.topology.logicalSectorSize);
    if (!m_device) {
        *error = failureText(tr("Cannot open %1.").arg(d.path), m_session);
        return false;
    }
    if (!current.tableType.isEmpty()) {
        QString assertion;
        m_disk = newDiskSurvivingAssertions(m_device, &assertion);
        if (!m_disk && !assertion.isEmpty()) {
            *error = tr("The partition table of %1 is damaged: libparted stopped reading it on "
                        "an internal check (%2).")
                         .arg(d.path, assertion);
            return false;
        }
        if (!m_disk) {
            *error =
                failureText(tr("Cannot read the partition table of %1.").arg(d.path), m_session);
            return false;
        }
    }
    rememberFilesystems(current);
    return true;
}

void TableEditor::rememberFilesystems(const DiskLayout &current)
{
    for (const PartitionInfo &p : current.regions)
        if (!p.isFree())
            m_filesystems.insert(p.startSector, {p.filesystem, p.label, p.uuid});
}

bool TableEditor::openReplica(const DiskLayout &current, const QString &scratch, QString *error)
{
    m_base = current;
    m_replica = true;
    const DeviceInfo &d = current.device;
    m_device = getPartedDevice(scratch, true, d.topology.logicalSectorSize,
                               d.lengthSectors * d.topology.logicalSectorSize);
    if (!m_device) {
        *error = failureText(tr("Cannot make a copy of the table of %1 to edit.").arg(d.path),
                             m_session);
        return false;
    }
    if (!current.tableType.isEmpty()) {
        PedDiskType *type = ped_disk_type_get(current.tableType.toLatin1().constData());
        m_disk = type ? ped_disk_new_fresh(m_device, type) : nullptr;
        if (!m_disk) {
            *error = failureText(tr("Cannot make a copy of the %1 table of %2 to edit.")
                                     .arg(current.tableType, d.path),
                                 m_session);
            return false;
        }
        // The extended partition before the logical ones it holds; logicals in chain order,
        // which is how libparted numbers them.
        QList<PartitionInfo> parts = current.partitions();
        std::stable_sort(parts.begin(), parts.end(), [](const auto &a, const auto &b) {
            const bool ae = a.kind == PartitionInfo::Kind::Extended;
            const bool be = b.kind == PartitionInfo::Kind::Extended;
            return ae != be ? ae : a.startSector < b.startSector;
        });
        for (const PartitionInfo &p : std::as_const(parts))
            if (!addReplicaPartition(p, error))
                return false;
    }
    rememberFilesystems(current);
    return true;
}

bool TableEditor::addReplicaPartition(const PartitionInfo &p, QString *error)
{
    PartitionSpec spec;
    spec.kind = p.kind;
    spec.startSector = p.startSector;
    spec.endSector = p.endSector;
    spec.name = p.name;
    spec.flags = p.flags;
    spec.number = p.number;
    if (addExactPartition(m_disk, spec))
        return true;
    *error = failureText(
        tr("Cannot copy partition %1 of %2 to edit it.").arg(p.number).arg(m_base.device.path),
        m_session);
    return false;
}

QString TableEditor::wholeDiskRefusal(const Operation &op) const
{
    const QString fs = m_base.wholeDiskFilesystemName();
    const QString what =
        op.type == Operation::Type::Create
            ? QStringLiteral("there is no free space for a new partition")
            : QStringLiteral("there is no partition %1 to %2")
                  .arg(op.number)
                  .arg(op.type == Operation::Type::Delete   ? QStringLiteral("delete")
                       : op.type == Operation::Type::Resize ? QStringLiteral("resize or move")
                       : op.type == Operation::Type::Format ? QStringLiteral("format")
                                                            : QStringLiteral("change"));
    return QStringLiteral("%1 has no partition table: the whole disk holds %2, so %3. Only a new "
                          "partition table replaces it, and that destroys the %2 filesystem.")
        .arg(m_base.device.path, fs, what);
}

QString TableEditor::replicaNode(int number) const
{
    // The disk's own naming ("/dev/sdb1", "/dev/nvme0n1p1"), learnt from a partition it has.
    for (const PartitionInfo &p : m_base.regions) {
        if (p.isFree() || p.devicePath.isEmpty())
            continue;
        const QString suffix = QString::number(p.number);
        if (p.devicePath.endsWith(suffix))
            return p.devicePath.chopped(suffix.size()) + QString::number(number);
    }
    return QString();
}

bool TableEditor::apply(const Operation &op, const AlignmentPolicy &policy, QString *error,
                        int *number)
{
    if (op.type == Operation::Type::NewTable) {
        PedDiskType *type = ped_disk_type_get(op.tableType.toLatin1().constData());
        if (!type) {
            *error = tr("Unknown partition table type '%1' (use gpt or msdos).").arg(op.tableType);
            return false;
        }
        PedDisk *fresh = ped_disk_new_fresh(m_device, type);
        if (!fresh) {
            *error = failureText(tr("Cannot create a %1 table.").arg(op.tableType), m_session);
            return false;
        }
        if (m_disk)
            ped_disk_destroy(m_disk);
        m_disk = fresh;
        m_filesystems.clear();
        m_newTable = true;
        return true;
    }
    if (!m_disk && !m_base.wholeDiskFilesystem.isEmpty()) {
        *error = wholeDiskRefusal(op);
        return false;
    }
    // A new table is how a hybrid ISO or a foreign label is replaced; nothing else edits them.
    if (const QString foreign = m_newTable ? QString() : foreignDiskRefusal(m_base);
        !foreign.isEmpty()) {
        *error = foreign;
        return false;
    }
    if (!m_disk) {
        *error = QStringLiteral("%1 has no partition table yet: create one first.")
                     .arg(m_base.device.path);
        return false;
    }
    if (op.type == Operation::Type::Create)
        return create(op, policy, error, number);
    if (op.type == Operation::Type::Paste)
        return paste(op, policy, error, number);
    if (op.type == Operation::Type::Resize)
        return resize(op, policy, error);

    PedPartition *part = ped_disk_get_partition(m_disk, op.number);
    if (!part) {
        *error = tr("There is no partition %1.").arg(op.number);
        return false;
    }
    switch (op.type) {
    case Operation::Type::Delete:
        m_filesystems.remove(part->geom.start);
        if (!ped_disk_delete_partition(m_disk, part)) {
            *error = failureText(tr("Cannot delete partition %1.").arg(op.number), m_session);
            return false;
        }
        return true;
    case Operation::Type::SetName:
        if (!ped_disk_type_check_feature(m_disk->type, PED_DISK_TYPE_PARTITION_NAME)) {
            *error =
                QStringLiteral("%1 tables have no partition names; set a filesystem label instead.")
                    .arg(QString::fromLatin1(m_disk->type->name));
            return false;
        }
        return ped_partition_set_name(part, op.name.toUtf8().constData());
    case Operation::Type::SetFlag: {
        const PedPartitionFlag flag =
            ped_partition_flag_get_by_name(op.flag.toLatin1().constData());
        if (!flag || !ped_partition_is_flag_available(part, flag)) {
            *error = tr("The flag '%1' is not available on partition %2 of a %3 table.")
                         .arg(op.flag)
                         .arg(op.number)
                         .arg(QString::fromLatin1(m_disk->type->name));
            return false;
        }
        return ped_partition_set_flag(part, flag, op.flagState ? 1 : 0);
    }
    case Operation::Type::Format:
        m_filesystems[part->geom.start] = {op.filesystem, op.label, QString()};
        if (setPartitionContentType(part, op.filesystem))
            return true;
        *error = failureText(
            tr("Cannot give partition %1 the type of %2.").arg(op.number).arg(op.filesystem),
            m_session);
        return false;
    case Operation::Type::SetLabel: {
        FsInfo &fs = m_filesystems[part->geom.start];
        if (const QString problem = labelProblemFor(fs.filesystem, op.label); !problem.isEmpty()) {
            *error = problem;
            return false;
        }
        fs.label = op.label;
        return true;
    }
    case Operation::Type::Check:
        return true;
    case Operation::Type::NewUuid: {
        FsInfo &fs = m_filesystems[part->geom.start];
        if (fs.filesystem.isEmpty()) {
            *error = tr("Partition %1 holds no filesystem to give a new UUID.").arg(op.number);
            return false;
        }
        if (!canChangeFilesystemUuid(fs.filesystem)) {
            *error = tr("Partwise cannot give a %1 filesystem a new UUID (it can for ext2, ext3, "
                        "ext4, XFS, btrfs, FAT, exFAT, NTFS and swap).")
                         .arg(fs.filesystem);
            return false;
        }
        fs.uuid.clear(); // a new one is chosen when the operation runs
        return true;
    }
    case Operation::Type::NewPartitionGuid:
        if (QString::fromLatin1(m_disk->type->name) != QLatin1String("gpt")) {
            *error = tr("%1 tables have no partition GUIDs; only GPT partitions have one.")
                         .arg(QString::fromLatin1(m_disk->type->name));
            return false;
        }
        return true;
    default:
        break;
    }
    return false;
}

bool TableEditor::create(const Operation &op, const AlignmentPolicy &policy, QString *error,
                         int *number, EndRounding rounding)
{
    const DiskLayout now = layout();
    const qint64 ss = now.device.topology.logicalSectorSize;
    const qint64 wantedStart = op.startBytes >= 0 ? op.startBytes / ss : -1;
    const PartitionInfo *free = chooseFreeRegion(now, op, wantedStart);
    if (!free) {
        *error = op.kind == PartitionInfo::Kind::Logical
                     ? tr("There is no free space inside an extended partition for a "
                          "logical partition.")
                     : tr("There is no free space for a new partition there.");
        return false;
    }
    if (op.kind != PartitionInfo::Kind::Logical)
        if (const QString full = noPrimarySlotReason(now); !full.isEmpty()) {
            *error = full; // before libparted's "Too many primary partitions"
            return false;
        }
    PlacementRequest req;
    req.freeStart = free->startSector;
    req.freeEnd = free->endSector;
    req.firstUsable = now.firstUsableSector;
    req.lastUsable = now.lastUsableSector;
    req.precedingSectors = wantedStart >= 0 ? wantedStart - free->startSector : 0;
    req.sizeSectors = op.sizeBytes > 0 ? (op.sizeBytes + ss - 1) / ss : -1;
    req.logical = op.kind == PartitionInfo::Kind::Logical;
    req.alignTo = op.alignTo;
    req.endRounding = rounding;
    const Placement place =
        placePartition(req, resolveAlignmentGeometry(now.device.topology, policy));
    if (!place.ok) {
        *error = place.error;
        return false;
    }
    PartitionSpec spec;
    spec.kind = op.kind;
    spec.startSector = place.startSector;
    spec.endSector = place.endSector;
    spec.name = op.name;
    spec.flags = op.flags;
    spec.filesystem = op.filesystem;
    if (ped_disk_is_flag_available(m_disk, PED_DISK_CYLINDER_ALIGNMENT))
        ped_disk_set_flag(m_disk, PED_DISK_CYLINDER_ALIGNMENT, op.alignTo == AlignTo::Cylinder);
    PedPartition *part = addExactPartition(m_disk, spec);
    if (!part) {
        // Partwise's words first; libparted's own, when it gave any, as the detail.
        const QString said = m_session.errorText();
        *error = tr("The partition table cannot take a partition at sectors %1–%2.")
                     .arg(place.startSector)
                     .arg(place.endSector);
        if (!said.isEmpty())
            *error += QLatin1Char(' ') + tr("libparted, which edits the table, said: %1").arg(said);
        return false;
    }
    if (op.kind != PartitionInfo::Kind::Extended)
        m_filesystems.insert(place.startSector, {op.filesystem, op.label, QString()});
    if (number)
        *number = part->num;
    return true;
}

bool TableEditor::paste(const Operation &op, const AlignmentPolicy &policy, QString *error,
                        int *number)
{
    const Operation::PasteSource &source = op.source;
    if (!source.known) {
        *error = tr("Partition %1 of %2, the one to paste, has not been read.")
                     .arg(op.sourceNumber)
                     .arg(op.sourcePath);
        return false;
    }
    if (sameDiskOrImage(op.sourcePath, m_base.device.path)) {
        const DiskLayout now = layout(); // a copy: `p` points into it
        const PartitionInfo *p = now.partitionByNumber(op.sourceNumber);
        if (!p || p->startSector != source.startSector) {
            *error = tr("Partition %1, the one to paste, is deleted or moved by an operation "
                        "before the paste.")
                         .arg(op.sourceNumber);
            return false;
        }
    }
    Operation asCreate = op;
    asCreate.type = Operation::Type::Create;
    asCreate.filesystem = source.filesystem;
    asCreate.label = source.label;
    // The source's entry as far as this table has it: flags (libparted drops those it does
    // not know here) and the GPT name; its type follows after the commit (pasteexecution).
    const QString table = QString::fromLatin1(m_disk->type->name);
    asCreate.flags = carriedEntry(source.tableType, table, source.flags, QString()).flags;
    asCreate.name = source.name;
    asCreate.sizeBytes = op.sizeBytes == 0 ? source.lengthBytes : op.sizeBytes;
    const qint64 whole = source.wholeBytes();
    if (asCreate.sizeBytes > 0 && asCreate.sizeBytes < whole && !source.madeAnew()) {
        QString why;
        if (!canShrinkUnmounted(source.filesystem))
            why = tr("the %1 filesystem of partition %2 fills that much, and %1 cannot be shrunk.")
                      .arg(source.filesystem)
                      .arg(op.sourceNumber);
        else if (source.shrinkMinimumBytes <= 0)
            why = tr("the %1 filesystem of partition %2 fills that much, and how far it could "
                     "shrink is not known.")
                      .arg(source.filesystem)
                      .arg(op.sourceNumber);
        else if (asCreate.sizeBytes < source.minimumBytes())
            why = tr("the %1 filesystem of partition %2 shrinks no further than that (the "
                     "minimum its own tool reports).")
                      .arg(source.filesystem)
                      .arg(op.sourceNumber);
        if (!why.isEmpty()) {
            *error = tr("The pasted partition must hold at least %1: %2")
                         .arg(humanSize(source.minimumBytes()), why);
            return false;
        }
    }
    const qint64 minimum = source.minimumBytes();
    // Rounded up, never down: the partition must hold the whole filesystem.
    int created = 0;
    if (!create(asCreate, policy, error, &created, EndRounding::Up))
        return false;
    const DiskLayout after = layout(); // a copy: `p` points into it
    const PartitionInfo *p = after.partitionByNumber(created);
    const qint64 ss = after.device.topology.logicalSectorSize;
    if (!p || p->lengthSectors() * ss < minimum) {
        *error = tr("The free space there is too small for the %1 filesystem of partition %2 "
                    "(%3).")
                     .arg(source.filesystem)
                     .arg(op.sourceNumber)
                     .arg(humanSize(minimum));
        return false;
    }
    if (number)
        *number = created;
    return true;
}

bool TableEditor::setGeometry(int number, qint64 start, qint64 end, QString *error)
{
    PedPartition *part = m_disk ? ped_disk_get_partition(m_disk, number) : nullptr;
    if (!part) {
        *error = tr("There is no partition %1.").arg(number);
        return false;
    }
    if (part->geom.start == start && part->geom.end == end)
        return true;
    PedGeometry target;
    ped_geometry_init(&target, m_device, start, end - start + 1);
    PedConstraint *exact = ped_constraint_exact(&target);
    const qint64 oldStart = part->geom.start;
    const bool ok = ped_disk_set_partition_geom(m_disk, part, exact, start, end);
    ped_constraint_destroy(exact);
    if (!ok) {
        *error = failureText(QStringLiteral("libparted cannot place partition %1 at sectors %2–%3.")
                                 .arg(number)
                                 .arg(start)
                                 .arg(end),
                             m_session);
        return false;
    }
    if (m_filesystems.contains(oldStart))
        m_filesystems.insert(start, m_filesystems.take(oldStart));
    return true;
}

bool TableEditor::resize(const Operation &op, const AlignmentPolicy &policy, QString *error)
{
    const DiskLayout now = layout();
    ResizeRequest request;
    request.range = resizeRange(now, op.number);
    if (!request.range.ok) {
        *error = tr("There is no partition %1.").arg(op.number);
        return false;
    }
    const qint64 ss = now.device.topology.logicalSectorSize;
    request.newStart = op.startBytes >= 0 ? op.startBytes / ss : -1;
    request.sizeSectors = op.sizeBytes > 0 ? (op.sizeBytes + ss - 1) / ss : -1;
    request.alignTo = op.alignTo;
    const Placement place =
        placeResize(request, resolveAlignmentGeometry(now.device.topology, policy));
    if (!place.ok) {
        *error = QStringLiteral("Partition %1: %2").arg(op.number).arg(place.error);
        return false;
    }
    return setGeometry(op.number, place.startSector, place.endSector, error);
}

DiskLayout TableEditor::layout() const
{
    DiskLayout out = m_base;
    out.warnings.clear();
    out.regions.clear();
    if (!m_disk) {
        out.tableType.clear();
        return out;
    }
    out.wholeDiskFilesystem.clear(); // a new table took its place
    fillLayoutFromPedDisk(m_disk, out, false);
    for (PartitionInfo &p : out.regions) {
        if (m_replica && !p.isFree())
            p.devicePath = replicaNode(p.number); // not the scratch file's
        // Still mounted until Apply (which refuses it so): the lock stays in the preview.
        if (const PartitionInfo *was = m_base.partitionByNumber(p.number);
            !p.isFree() && was && was->startSector == p.startSector) {
            p.mountPoints = was->mountPoints;
            p.swapOn = was->swapOn;
        }
        const auto it = m_filesystems.constFind(p.startSector);
        if (!p.isFree() && it != m_filesystems.constEnd()) {
            p.filesystem = it->filesystem;
            p.label = it->label;
            p.uuid = it->uuid;
        }
    }
    return out;
}

bool TableEditor::commit(QString *error, const RedoJournal *redo)
{
    if (!m_disk) {
        *error = tr("There is no partition table to write.");
        return false;
    }
    // Images (and a replica's scratch file) have no kernel to tell; block devices get their
    // partition nodes refreshed.
    const bool isImage = m_base.device.isImage || m_replica;
    // A job's table write goes through a redo record (ops/journaledtablecommit.h); the view
    // libparted writes through is served by a process of its own (fs/cowwindow.h), so a kill
    // in the middle of the write leaves neither a process that cannot exit nor a mount.
    if (redo && !m_replica) {
        QString why;
        const bool ok = commitTableJournaled(m_disk, isImage, *redo, &why);
        if (!ok)
            *error =
                failureText(tr("Writing the partition table of %1 failed.").arg(m_base.device.path),
                            m_session) +
                QLatin1Char(' ') + why;
        return ok;
    }
    const bool ok = commitTable(m_disk, isImage);
    if (!ok)
        *error = failureText(
            tr("Writing the partition table of %1 failed.").arg(m_base.device.path), m_session);
    return ok;
}

} // namespace partwise
