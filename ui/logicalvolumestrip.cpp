#include "logicalvolumestrip.h"

#include "align/alignmentverdict.h"
#include "alignmentstyle.h"
#include "base/humansize.h"
#include "partitionmodel.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

using namespace partwise;

namespace {

// The physical volume layer of a region, when it lists volumes.
const StorageLayer *volumesLayer(const PartitionModel &model, int row)
{
    if (row < 0 || row >= model.layout().regions.size())
        return nullptr;
    for (const StorageLayer &layer : model.region(row).layers)
        if (!layer.logicalVolumes.isEmpty())
            return &layer;
    return nullptr;
}

qint64 regionBytes(const PartitionModel &model, int row)
{
    return model.region(row).lengthSectors() * model.layout().device.topology.logicalSectorSize;
}

AlignmentStatus statusOf(const PartitionModel &model, const LogicalVolumeExtents &lv)
{
    return lv.absoluteOffsetBytes < 0
               ? AlignmentStatus::NotApplicable
               : judgeByte(lv.absoluteOffsetBytes, model.report().geometry).status;
}

void paintVolume(QPainter &painter, const QPalette &palette, const QRectF &box, const QString &name,
                 AlignmentStatus status)
{
    painter.setBrush(palette.color(QPalette::Base));
    painter.setPen(QPen(palette.color(QPalette::Mid), 1));
    painter.drawRect(box);
    const QColor outline = AlignmentStyle::outlineColor(status);
    if (status == AlignmentStatus::Misaligned) { // as a misaligned partition, smaller
        painter.setBrush(QBrush(outline, Qt::BDiagPattern));
        painter.setPen(QPen(outline, 2));
        painter.drawRect(box.adjusted(1, 1, -1, -1));
    } else if (status == AlignmentStatus::SectorAligned) {
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(outline, 1, Qt::DashLine));
        painter.drawRect(box.adjusted(1, 1, -1, -1));
    }
    // The name only where it fits whole: a stub ("d…") names nothing (as the map's labels).
    const QRectF text = box.adjusted(3, 0, -3, 0);
    if (QFontMetricsF(painter.font()).horizontalAdvance(name) <= text.width()) {
        painter.setPen(palette.color(QPalette::Text));
        painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, name);
    }
}

} // namespace

QRectF LogicalVolumeStrip::stripRect(const PartitionModel &model, int row, const QRectF &rect)
{
    if (!volumesLayer(model, row) || regionBytes(model, row) <= 0 || rect.width() < 12 ||
        rect.height() < 3 * kHeight)
        return {};
    // Above the band of a misaligned layer (diskmappainter's, at most 12 px and 3 px inset).
    const qreal bottom = rect.bottom() - 3 - (model.misalignedLayer(row) ? 15 : 0);
    return {rect.left() + 3, bottom - kHeight, rect.width() - 6, kHeight};
}

void LogicalVolumeStrip::paint(QPainter &painter, const QPalette &palette,
                               const PartitionModel &model, int row, const QRectF &rect)
{
    const QRectF strip = stripRect(model, row, rect);
    if (strip.isEmpty())
        return;
    const StorageLayer *layer = volumesLayer(model, row);
    const qreal perByte = strip.width() / qreal(regionBytes(model, row));
    painter.save();
    for (const LogicalVolumeExtents &lv : layer->logicalVolumes) {
        if (lv.dataOffsetBytes < 0 || lv.sizeBytes <= 0)
            continue;
        const qreal left = strip.left() + lv.dataOffsetBytes * perByte;
        const qreal width = qMax<qreal>(2, lv.sizeBytes * perByte);
        const QRectF box(left, strip.top(), qMin(width, strip.right() - left), strip.height());
        if (box.width() > 0)
            paintVolume(painter, palette, box, lv.name, statusOf(model, lv));
    }
    painter.restore();
}

QString LogicalVolumeStrip::summary(const PartitionModel &model, int row)
{
    const StorageLayer *layer = volumesLayer(model, row);
    if (!layer)
        return {};
    QStringList lines;
    for (const LogicalVolumeExtents &lv : layer->logicalVolumes)
        lines << QCoreApplication::translate("LogicalVolumeStrip", "%1: %2 from byte %3 (%4)")
                     .arg(lv.name, humanSize(lv.sizeBytes))
                     .arg(lv.absoluteOffsetBytes)
                     .arg(AlignmentStyle::title(statusOf(model, lv)));
    return lines.join(QLatin1Char('\n'));
}
