#pragma once

#include "align/misalignmentreport.h"
#include "boot/bootinventory.h"
#include "table/disklayout.h"

#include <QAbstractTableModel>
#include <QHash>

#include <optional>

// The regions of one disk (partitions and unallocated space, in disk order) with their
// alignment verdicts. Row i is layout().regions[i]; the map, the list and the info panel all
// read this model, so they cannot disagree.
class PartitionModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        PartitionColumn,
        AlignmentColumn, // early, so it stays in view when the window is narrow
        KindColumn,
        FilesystemColumn,
        LabelColumn,
        FirstSectorColumn,
        LastSectorColumn,
        SizeColumn,
        FlagsColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // raw numbers for numeric columns, text otherwise
        StatusRole,                  // int(AlignmentStatus)
        LayerMisalignedRole,         // bool: a layer inside is misaligned
    };

    explicit PartitionModel(QObject *parent = nullptr);

    // A new disk: resets the model (and so the selection).
    void setDisk(const partwise::DiskLayout &layout, const partwise::MisalignmentReport &report);
    // Same disk, new policy: only verdicts change, rows and selection stay.
    void setReport(const partwise::MisalignmentReport &report);
    void clear();
    // What boots from the disk as it was read (`asRead`); kept across setDisk() (a preview of
    // pending edits shows the same disk) until the next call or clear(). Set it before setDisk().
    void setBoot(const std::optional<partwise::BootInventory> &boot,
                 const partwise::DiskLayout &asRead);
    const std::optional<partwise::BootInventory> &boot() const { return m_boot; }
    // What boots from `region`: only while it is still where the disk as read has it.
    const partwise::PartitionBoot *bootOf(const partwise::PartitionInfo &region) const;

    bool hasDisk() const { return m_hasDisk; }
    const partwise::DiskLayout &layout() const { return m_layout; }
    const partwise::MisalignmentReport &report() const { return m_report; }
    const partwise::PartitionInfo &region(int row) const { return m_layout.regions.at(row); }
    partwise::AlignmentVerdict verdict(int row) const;
    // The first layer inside the partition (LUKS, LVM) whose data is misaligned; null if none.
    const partwise::StorageLayer *misalignedLayer(int row) const;
    const partwise::StorageLayer *misalignedLayer(const partwise::PartitionInfo &region) const;
    bool hasMisalignedLayer() const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    void verdictsChanged();

private:
    QString layerMisalignedText(const partwise::StorageLayer &layer) const;
    QVariant displayData(const partwise::PartitionInfo &region,
                         const partwise::AlignmentVerdict &verdict, int column) const;
    QVariant sortData(const partwise::PartitionInfo &region,
                      const partwise::AlignmentVerdict &verdict, int column) const;

    bool m_hasDisk = false;
    partwise::DiskLayout m_layout;
    partwise::MisalignmentReport m_report;
    std::optional<partwise::BootInventory> m_boot;
    QHash<int, qint64> m_bootStarts; // partition number → its start on the disk as read
};
