#include "diskmapgeometry.h"

#include <QtMath>

using namespace partwise;

namespace {

bool isInsideExtended(const PartitionInfo &r)
{
    return r.kind == PartitionInfo::Kind::Logical || (r.isFree() && r.insideExtended);
}

qreal minWidthFor(const PartitionInfo &r)
{
    return r.isFree() ? DiskMapGeometry::kMinFreeWidth : DiskMapGeometry::kMinPartitionWidth;
}

} // namespace

DiskMapGeometry::DiskMapGeometry(const DiskLayout &layout, const QRectF &bar,
                                 const QList<qreal> &minimumWidths)
{
    const int count = int(layout.regions.size());
    m_rects.resize(count);
    m_isChild.resize(count);
    m_isContainer.resize(count);

    QList<Item> topLevel;
    QList<Item> children;
    int extendedRow = -1;
    for (int row = 0; row < count; ++row) {
        const PartitionInfo &r = layout.regions.at(row);
        m_isChild[row] = isInsideExtended(r);
        m_isContainer[row] = r.isContainer();
        const qreal minimum = qMax(minWidthFor(r), minimumWidths.value(row, 0));
        if (m_isChild[row]) {
            children.append({row, qreal(r.lengthSectors()), minimum});
            continue;
        }
        if (r.isContainer())
            extendedRow = row;
        topLevel.append({row, qreal(r.lengthSectors()), minimum});
    }
    // The extended partition must be wide enough for the minimum widths of what it holds.
    if (extendedRow >= 0) {
        qreal childMinimum = 2 * kExtendedPadding;
        for (const Item &child : children)
            childMinimum += child.minWidth;
        for (Item &item : topLevel) {
            if (item.row == extendedRow)
                item.minWidth = qMax(item.minWidth, childMinimum);
        }
    }
    place(topLevel, bar);
    if (extendedRow >= 0) {
        const QRectF outer = m_rects.at(extendedRow);
        const QRectF inner = outer.adjusted(kExtendedPadding, kExtendedTitleHeight,
                                            -kExtendedPadding, -kExtendedPadding);
        place(children, inner);
    }
}

void DiskMapGeometry::place(const QList<Item> &items, const QRectF &area)
{
    const QList<qreal> widths = distribute(items, area.width());
    qreal x = area.left();
    for (int i = 0; i < items.size(); ++i) {
        // Whole pixels so neighbours share an edge instead of overlapping by a blurred column.
        const qreal left = qRound(x);
        x += widths.at(i);
        const qreal right = i == items.size() - 1 ? area.right() : qRound(x);
        m_rects[items.at(i).row] = QRectF(left, area.top(), right - left, area.height());
    }
}

QList<qreal> DiskMapGeometry::distribute(const QList<Item> &items, qreal width)
{
    QList<qreal> widths(items.size(), 0);
    if (items.isEmpty())
        return widths;
    qreal minimumTotal = 0;
    for (const Item &item : items)
        minimumTotal += item.minWidth;
    if (minimumTotal >= width) {
        // Too many regions for the bar: everyone gets a share of what there is.
        for (int i = 0; i < items.size(); ++i)
            widths[i] = width * items.at(i).minWidth / minimumTotal;
        return widths;
    }
    // Give small regions their minimum, then share the rest by size; repeat while that
    // pushes more regions under their minimum.
    QList<bool> pinned(items.size(), false);
    bool changed = true;
    while (changed) {
        changed = false;
        qreal remaining = width;
        qreal weightTotal = 0;
        for (int i = 0; i < items.size(); ++i) {
            if (pinned.at(i))
                remaining -= items.at(i).minWidth;
            else
                weightTotal += items.at(i).weight;
        }
        for (int i = 0; i < items.size(); ++i) {
            if (pinned.at(i)) {
                widths[i] = items.at(i).minWidth;
                continue;
            }
            widths[i] = weightTotal > 0 ? remaining * items.at(i).weight / weightTotal : 0;
            if (widths.at(i) < items.at(i).minWidth) {
                pinned[i] = true;
                changed = true;
            }
        }
    }
    return widths;
}

int DiskMapGeometry::regionAt(const QPointF &point) const
{
    int container = -1;
    for (int row = 0; row < m_rects.size(); ++row) {
        if (!m_rects.at(row).contains(point))
            continue;
        if (m_isChild.at(row))
            return row;
        if (m_isContainer.at(row))
            container = row; // keep looking for a logical partition under the point
        else
            return row;
    }
    return container;
}
