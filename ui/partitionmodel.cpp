#include "partitionmodel.h"

#include "report/layerreport.h"

#include "alignmentstyle.h"
#include "base/humansize.h"
#include "mountmark.h"
#include "regionnames.h"

using namespace partwise;

PartitionModel::PartitionModel(QObject *parent) : QAbstractTableModel(parent) {}

void PartitionModel::setDisk(const DiskLayout &layout, const MisalignmentReport &report)
{
    beginResetModel();
    m_layout = layout;
    m_report = report;
    m_hasDisk = true;
    endResetModel();
    emit verdictsChanged();
}

void PartitionModel::setReport(const MisalignmentReport &report)
{
    m_report = report;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    emit verdictsChanged();
}

void PartitionModel::clear()
{
    beginResetModel();
    m_layout = DiskLayout();
    m_report = MisalignmentReport();
    m_hasDisk = false;
    m_boot.reset();
    m_bootStarts.clear();
    endResetModel();
    emit verdictsChanged();
}

void PartitionModel::setBoot(const std::optional<BootInventory> &boot, const DiskLayout &asRead)
{
    m_boot = boot;
    m_bootStarts.clear();
    for (const PartitionInfo &p : asRead.partitions())
        m_bootStarts.insert(p.number, p.startSector);
}

const PartitionBoot *PartitionModel::bootOf(const PartitionInfo &region) const
{
    if (!m_boot || region.isFree() || m_bootStarts.value(region.number, -1) != region.startSector)
        return nullptr;
    return m_boot->partition(region.number);
}

const StorageLayer *PartitionModel::misalignedLayer(int row) const
{
    return row >= 0 && row < m_layout.regions.size() ? misalignedLayer(m_layout.regions.at(row))
                                                     : nullptr;
}

const StorageLayer *PartitionModel::misalignedLayer(const PartitionInfo &region) const
{
    for (const StorageLayer &layer : region.layers)
        if (layerMisaligned(layer, m_report.geometry))
            return &layer;
    return nullptr;
}

bool PartitionModel::hasMisalignedLayer() const
{
    for (const PartitionInfo &region : m_layout.regions)
        if (misalignedLayer(region))
            return true;
    return false;
}

AlignmentVerdict PartitionModel::verdict(int row) const
{
    return row >= 0 && row < m_report.verdicts.size() ? m_report.verdicts.at(row)
                                                      : AlignmentVerdict();
}

int PartitionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_layout.regions.size());
}

int PartitionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PartitionModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return QVariant();
    const PartitionInfo &r = region(index.row());
    const AlignmentVerdict v = verdict(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return displayData(r, v, index.column());
    case SortRole:
        return sortData(r, v, index.column());
    case StatusRole:
        return int(v.status);
    case LayerMisalignedRole:
        return misalignedLayer(index.row()) != nullptr;
    case Qt::DecorationRole:
        if (index.column() == AlignmentColumn)
            return AlignmentStyle::icon(v.status);
        if (index.column() == PartitionColumn && r.inUse())
            return MountMark::lockIcon();
        break;
    case Qt::ToolTipRole:
        if (!r.isFree()) {
            QString tip = v.explanation(m_report.geometry);
            if (r.inUse())
                tip = MountMark::text(r) + QLatin1Char('\n') + tip;
            if (const StorageLayer *layer = misalignedLayer(index.row()))
                tip += QLatin1Char('\n') + layerMisalignedText(*layer);
            return tip;
        }
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == FirstSectorColumn || index.column() == LastSectorColumn ||
            index.column() == SizeColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    default:
        break;
    }
    return QVariant();
}

QVariant PartitionModel::displayData(const PartitionInfo &r, const AlignmentVerdict &v,
                                     int column) const
{
    const qint64 sectorSize = m_layout.device.topology.logicalSectorSize;
    switch (column) {
    case PartitionColumn:
        return regionTitle(r);
    case KindColumn:
        return regionKindTitle(r.kind);
    case FilesystemColumn:
        return r.filesystem;
    case LabelColumn:
        return r.label.isEmpty() ? r.name : r.label;
    case FirstSectorColumn:
        return QString::number(r.startSector);
    case LastSectorColumn:
        return QString::number(r.endSector);
    case SizeColumn:
        return humanSize(r.lengthSectors() * sectorSize);
    case FlagsColumn:
        return r.flags.join(QStringLiteral(", "));
    case AlignmentColumn:
        if (const StorageLayer *layer = misalignedLayer(r))
            //: The list's alignment column: the partition's status, then its inner layer's.
            return tr("%1; %2 data misaligned")
                .arg(AlignmentStyle::title(v.status), layerDisplayName(*layer));
        return AlignmentStyle::title(v.status);
    default:
        break;
    }
    return QVariant();
}

QString PartitionModel::layerMisalignedText(const StorageLayer &layer) const
{
    const AlignmentVerdict v = judgeLayer(layer, m_report.geometry);
    //: %1 is "LUKS1", "LUKS2" or "LVM physical volume"; %2 a byte count.
    return tr("Its %1 data starts %2 bytes past a physical sector: every write to it straddles "
              "two. Moving the partition cannot fix that.")
        .arg(layerDisplayName(layer))
        .arg(v.misalignmentBytes);
}

QVariant PartitionModel::sortData(const PartitionInfo &r, const AlignmentVerdict &v,
                                  int column) const
{
    switch (column) {
    case PartitionColumn:
        // Disk order, so free space sorts where it lies rather than by name.
        return r.startSector;
    case FirstSectorColumn:
        return r.startSector;
    case LastSectorColumn:
        return r.endSector;
    case SizeColumn:
        return r.lengthSectors();
    case AlignmentColumn:
        return int(v.status);
    default:
        break;
    }
    return displayData(r, v, column);
}

QVariant PartitionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QVariant();
    switch (section) {
    case PartitionColumn:
        return tr("Partition");
    case KindColumn:
        return tr("Type");
    case FilesystemColumn:
        return tr("Filesystem");
    case LabelColumn:
        return tr("Label");
    case FirstSectorColumn:
        return tr("First sector");
    case LastSectorColumn:
        return tr("Last sector");
    case SizeColumn:
        return tr("Size");
    case FlagsColumn:
        return tr("Flags");
    case AlignmentColumn:
        return tr("Alignment");
    default:
        break;
    }
    return QVariant();
}
