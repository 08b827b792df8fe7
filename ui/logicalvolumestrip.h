#pragma once

// The logical volumes inside an LVM physical volume, drawn in its region of the disk map: a strip
// along the region's bottom with one box per stretch of a volume here (pvs --segments), placed
// and sized as its extents lie in the partition, named where it fits, and judged as a partition
// start is: a volume starting off the physical sector hatched and outlined as a misaligned
// partition, one off the grain dashed. The tooltip's words come from tooltipText().

#include <QPalette>
#include <QRectF>
#include <QString>

class PartitionModel;
class QPainter;

class LogicalVolumeStrip
{
public:
    static constexpr qreal kHeight = 16;

    // Where the strip of `row`'s volumes goes in its region `rect` (above a layer band, if
    // any); empty when the region holds no volumes or is too small to show them.
    static QRectF stripRect(const PartitionModel &model, int row, const QRectF &rect);
    static void paint(QPainter &painter, const QPalette &palette, const PartitionModel &model,
                      int row, const QRectF &rect);
    // "home: 40.0 MiB from byte 1048576 (aligned)" for each volume here, one a line.
    static QString summary(const PartitionModel &model, int row);
};
