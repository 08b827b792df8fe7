#include "disklistmodel.h"

#include "device/drivehealth.h"

#include "alignmentstyle.h"
#include "base/humansize.h"

#include <QFileInfo>
#include <QRegularExpression>

using namespace partwise;

DiskListModel::DiskListModel(QObject *parent) : QAbstractListModel(parent) {}

int DiskListModel::addDisk(const QString &path, bool isImage, qint64 forcedSectorSize)
{
    const int existing = rowOf(path);
    if (existing >= 0)
        return existing;
    const int row = rowCount();
    beginInsertRows(QModelIndex(), row, row);
    DiskEntry entry;
    entry.path = path;
    entry.isImage = isImage;
    entry.forcedSectorSize = forcedSectorSize;
    m_entries.append(entry);
    endInsertRows();
    return row;
}

void DiskListModel::markReading(int row)
{
    m_entries[row].state = DiskEntry::State::Reading;
    m_entries[row].error.clear();
    ++m_entries[row].generation;
    emit dataChanged(index(row), index(row));
    emit entryChanged(row);
}

namespace {

// What pending operations are made against: the disk's size and sectors, and its table.
QString tableShape(const DiskLayout &layout)
{
    QStringList parts{QString::number(layout.device.sizeBytes),
                      QString::number(layout.device.topology.logicalSectorSize), layout.tableType,
                      layout.wholeDiskFilesystem};
    for (const PartitionInfo &region : layout.regions) {
        if (region.isFree())
            continue;
        parts << QStringLiteral("%1:%2-%3:%4:%5")
                     .arg(region.number)
                     .arg(region.startSector)
                     .arg(region.endSector)
                     .arg(int(region.kind))
                     .arg(region.filesystem);
    }
    return parts.join(u'|');
}

// An identity names the size too (device/diskidentity.h); a disk that grew is still that disk.
QString withoutSize(const QString &identity)
{
    static const QRegularExpression size(QStringLiteral(", [0-9]+ bytes$"));
    return QString(identity).remove(size);
}

} // namespace

QString DiskListModel::changeBetween(const DiskEntry &before, const DiskReadResult &now,
                                     const QString &identity) const
{
    const QString name = nameOf(before);
    if (!before.identity.isEmpty() && !identity.isEmpty() &&
        withoutSize(before.identity) != withoutSize(identity))
        return tr("%1 is another disk now (%2; it was %3)").arg(name, identity, before.identity);
    if (!before.wasRead)
        return QString();
    if (!now.ok)
        return tr("%1 can no longer be read").arg(name);
    if (before.layout.device.sizeBytes != now.layout.device.sizeBytes)
        return tr("%1 changed size outside Partwise (%2, it was %3)")
            .arg(name, humanSize(now.layout.device.sizeBytes),
                 humanSize(before.layout.device.sizeBytes));
    if (tableShape(before.layout) != tableShape(now.layout))
        return tr("the partition table of %1 was changed outside Partwise").arg(name);
    return QString();
}

void DiskListModel::setResult(const QString &path, const DiskReadResult &result,
                              const std::optional<BootInventory> &boot, const QString &identity)
{
    const int row = rowOf(path);
    if (row < 0)
        return; // removed (a disk unplugged and refreshed) while it was being read
    const QString change = changeBetween(m_entries.at(row), result, identity);
    DiskEntry &entry = m_entries[row];
    if (!identity.isEmpty())
        entry.identity = identity;
    entry.wasRead = result.ok;
    entry.state = result.ok ? DiskEntry::State::Ready : DiskEntry::State::Failed;
    entry.layout = result.layout;
    entry.error = result.error;
    entry.boot = result.ok ? boot : std::nullopt;
    ++entry.generation;
    entry.report = result.ok ? analyzeAlignment(entry.layout, m_policy) : MisalignmentReport();
    if (!change.isEmpty())
        emit diskChangedUnderneath(path, change);
    emit dataChanged(index(row), index(row));
    emit entryChanged(row);
}

void DiskListModel::removeRow(int row)
{
    const QString path = m_entries.at(row).path;
    const QString name = nameOf(m_entries.at(row));
    beginRemoveRows(QModelIndex(), row, row);
    m_entries.removeAt(row);
    endRemoveRows();
    emit diskRemoved(path, name);
}

void DiskListModel::removeDisk(const QString &path)
{
    const int row = rowOf(path);
    if (row >= 0 && !m_entries.at(row).isImage && m_entries.at(row).machine.isEmpty())
        removeRow(row);
}

void DiskListModel::setDisks(const QStringList &paths)
{
    for (int row = rowCount() - 1; row >= 0; --row) {
        const DiskEntry &entry = m_entries.at(row);
        if (!entry.isImage && entry.machine.isEmpty() && !paths.contains(entry.path))
            removeRow(row);
    }
    for (const QString &path : paths)
        addDisk(path, false);
}

QString DiskListModel::machineKey(const QString &machine, const QString &devicePath)
{
    return machine + QLatin1Char(':') + devicePath;
}

QStringList DiskListModel::setMachineDisks(const QString &machine, const QStringList &devicePaths)
{
    QStringList keys;
    for (const QString &devicePath : devicePaths)
        keys << machineKey(machine, devicePath);
    for (int row = rowCount() - 1; row >= 0; --row) {
        if (m_entries.at(row).machine == machine && !keys.contains(m_entries.at(row).path))
            removeRow(row);
    }
    for (const QString &devicePath : devicePaths) {
        const int row = addDisk(machineKey(machine, devicePath), false);
        m_entries[row].machine = machine;
        m_entries[row].devicePath = devicePath;
    }
    return keys;
}

int DiskListModel::addMachineImage(const QString &machine, const QString &path,
                                   qint64 forcedSectorSize)
{
    const int row = addDisk(machineKey(machine, path), true, forcedSectorSize);
    m_entries[row].machine = machine;
    m_entries[row].devicePath = path;
    return row;
}

QStringList DiskListModel::keysOf(const QString &machine) const
{
    QStringList keys;
    for (const DiskEntry &entry : m_entries) {
        if (!machine.isEmpty() && entry.machine == machine)
            keys << entry.path;
    }
    return keys;
}

void DiskListModel::setPolicy(const AlignmentPolicy &policy)
{
    m_policy = policy;
    for (int row = 0; row < rowCount(); ++row) {
        DiskEntry &entry = m_entries[row];
        if (entry.state == DiskEntry::State::Ready) {
            entry.report = analyzeAlignment(entry.layout, m_policy);
            emit dataChanged(index(row), index(row));
            emit entryChanged(row);
        }
    }
}

int DiskListModel::rowOf(const QString &path) const
{
    for (int row = 0; row < m_entries.size(); ++row) {
        if (m_entries.at(row).path == path)
            return row;
    }
    return -1;
}

int DiskListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant DiskListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return QVariant();
    const DiskEntry &entry = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return displayText(entry);
    case Qt::ToolTipRole:
        return entry.state == DiskEntry::State::Failed ? entry.error : entry.path;
    case Qt::DecorationRole:
        if (entry.state == DiskEntry::State::Ready) {
            if (entry.report.misalignedCount() > 0)
                return AlignmentStyle::icon(AlignmentStatus::Misaligned);
            if (entry.report.sectorAlignedCount() > 0)
                return AlignmentStyle::icon(AlignmentStatus::SectorAligned);
            if (entry.report.partitionCount() > 0)
                return AlignmentStyle::icon(AlignmentStatus::Aligned);
        }
        break;
    case PathRole:
        return entry.path;
    case StateRole:
        return int(entry.state);
    default:
        break;
    }
    return QVariant();
}

QString DiskListModel::nameOf(const DiskEntry &entry)
{
    // The user's images read by their own helper are named as any image: by their path.
    if (entry.machine.isEmpty() || entry.isImage)
        return entry.machine.isEmpty() ? entry.path : entry.devicePath;
    return tr("%1 on %2").arg(entry.devicePath, entry.machine);
}

QString DiskListModel::displayText(const DiskEntry &entry) const
{
    const QString name =
        entry.isImage ? tr("%1 (image)").arg(QFileInfo(entry.path).fileName()) : nameOf(entry);
    switch (entry.state) {
    case DiskEntry::State::Reading:
        return tr("%1 — reading…").arg(name);
    case DiskEntry::State::Failed:
        return tr("%1 — cannot be read").arg(name);
    case DiskEntry::State::Ready:
        break;
    }
    const DeviceInfo &d = entry.layout.device;
    QStringList parts{name};
    if (d.readOnly) // nothing offers to write it; say so wherever the disk is named
        parts << tr("read-only");
    if (!d.model.isEmpty() && !entry.isImage)
        parts << d.model;
    parts << humanSize(d.sizeBytes);
    parts << tr("%1/%2 B sectors")
                 .arg(d.topology.logicalSectorSize)
                 .arg(d.topology.physicalSectorSize);
    // The drive's health at a glance; only drives that answered have one.
    switch (judgeDriveHealth(d.drive).status) {
    case DriveHealthStatus::Good:
        parts << tr("SMART good");
        break;
    case DriveHealthStatus::Warning:
        parts << tr("⚠ SMART warning");
        break;
    case DriveHealthStatus::Failing:
        parts << tr("⚠ SMART FAILING");
        break;
    case DriveHealthStatus::Unknown:
        break;
    }
    return parts.join(QStringLiteral(" — "));
}
