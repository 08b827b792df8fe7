#pragma once

#include "table/disklayout.h"

#include <QList>
#include <QRectF>

// Where each region of a disk goes on the map: widths in proportion to size, but never below
// a minimum so a 1 MiB partition on a 2 TiB disk stays visible and clickable. Logical
// partitions are laid out inside their extended partition, below its title band.
class DiskMapGeometry
{
public:
    static constexpr qreal kMinPartitionWidth = 36;
    static constexpr qreal kMinFreeWidth = 6; // slivers of free space only need to show
    static constexpr qreal kExtendedPadding = 4;
    static constexpr qreal kExtendedTitleHeight = 18;

    DiskMapGeometry() = default;
    // `minimumWidths` (by row, where larger than the defaults): room an exported picture
    // gives each region for its labels in full.
    DiskMapGeometry(const partwise::DiskLayout &layout, const QRectF &bar,
                    const QList<qreal> &minimumWidths = {});

    const QList<QRectF> &regionRects() const { return m_rects; } // parallel to regions
    QRectF regionRect(int row) const { return m_rects.value(row); }
    // The innermost region under `point` (a logical partition before its extended one), or -1.
    int regionAt(const QPointF &point) const;

private:
    struct Item
    {
        int row;
        qreal weight;
        qreal minWidth;
    };
    void place(const QList<Item> &items, const QRectF &area);
    static QList<qreal> distribute(const QList<Item> &items, qreal width);

    QList<QRectF> m_rects;
    QList<bool> m_isChild; // logical partitions and free space inside the extended one
    QList<bool> m_isContainer;
};
