#include "diskmappainter.h"
#include "logicalvolumestrip.h"

#include "alignmentstyle.h"
#include "base/humansize.h"
#include "filesystemcolors.h"
#include "logicalvolumestrip.h"
#include "mountmark.h"
#include "partitionmodel.h"
#include "regionnames.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QPainter>

#include <cmath>

using namespace partwise;

namespace {

constexpr qreal kIconSize = 16;
constexpr qreal kLayerBandHeight = 12;
constexpr qreal kSwatchWidth = 24; // a legend entry's swatch and the space after it
constexpr qreal kLegendGap = 16;   // between legend entries

} // namespace

QRectF DiskMapPainter::barRect(const QRectF &bounds)
{
    return bounds.adjusted(4, kCaptionHeight, -4, -kLegendHeight);
}

DiskMapPainter::DiskMapPainter(const QPalette &palette) : m_palette(palette) {}

void DiskMapPainter::paint(QPainter &painter, const QRectF &bounds, const PartitionModel &model,
                           const DiskMapGeometry &geometry, int selectedRow, bool hasFocus,
                           const QString &message) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QRectF bar = barRect(bounds);
    if (!model.hasDisk() || model.rowCount() == 0) {
        paintMessage(painter, bar, message);
        painter.restore();
        return;
    }
    paintCaption(painter, QRectF(bar.left(), bounds.top(), bar.width(), kCaptionHeight), model);
    // Containers first, so their logical partitions are drawn on top of them.
    for (int pass = 0; pass < 2; ++pass) {
        for (int row = 0; row < model.rowCount(); ++row) {
            if (model.region(row).isContainer() == (pass == 0))
                paintRegion(painter, geometry.regionRect(row), model, row, row == selectedRow);
        }
    }
    if (selectedRow >= 0 && selectedRow < model.rowCount())
        paintSelection(painter, geometry.regionRect(selectedRow), hasFocus);
    paintLegend(painter, QRectF(bar.left(), bar.bottom(), bar.width(), kLegendHeight), model);
    painter.restore();
}

QString DiskMapPainter::captionText(const PartitionModel &model)
{
    const DiskLayout &layout = model.layout();
    const SectorTopology &t = layout.device.topology;
    // Images by file name: their folders are long and already in the chooser's tooltip.
    QStringList parts{layout.device.isImage ? QFileInfo(layout.device.path).fileName()
                                            : layout.device.path};
    // Core names every image's model "Disk image" (English); say it in the window's language.
    if (layout.device.isImage)
        parts << tr("Disk image");
    else if (!layout.device.model.isEmpty())
        parts << layout.device.model;
    if (layout.device.readOnly) // exported maps say it too
        parts << tr("read-only");
    parts << humanSize(layout.device.sizeBytes);
    const QString wholeDisk = layout.wholeDiskFilesystemName();
    parts << (!layout.tableType.isEmpty() ? layout.tableType
              : wholeDisk.isEmpty()
                  ? tr("no partition table")
                  : tr("no partition table: the whole disk holds %1").arg(wholeDisk));
    parts << tr("sectors %1 B logical / %2 B physical")
                 .arg(t.logicalSectorSize)
                 .arg(t.physicalSectorSize);
    return parts.join(QStringLiteral(" — "));
}

void DiskMapPainter::paintCaption(QPainter &painter, const QRectF &rect,
                                  const PartitionModel &model) const
{
    painter.setPen(m_palette.color(QPalette::WindowText));
    const QString text = captionText(model);
    // On screen the tooltip has it all; a picture has no tooltip, and is made wide enough.
    painter.drawText(
        QRectF(rect.topLeft(),
               QSizeF(m_fullLabels ? qMax(rect.width(),
                                          QFontMetricsF(painter.font()).horizontalAdvance(text) + 1)
                                   : rect.width(),
                      rect.height())),
        Qt::AlignLeft | Qt::AlignVCenter,
        m_fullLabels
            ? text
            : QFontMetricsF(painter.font()).elidedText(text, Qt::ElideMiddle, rect.width()));
}

void DiskMapPainter::paintRegion(QPainter &painter, const QRectF &rect, const PartitionModel &model,
                                 int row, bool selected) const
{
    if (rect.width() < 1)
        return;
    const PartitionInfo &region = model.region(row);
    const AlignmentStatus status = model.verdict(row).status;
    const QRectF box = rect.adjusted(0.5, 0.5, -0.5, -0.5);

    QColor fill;
    QColor text;
    if (region.isFree()) {
        fill = m_palette.color(QPalette::Base);
        text = m_palette.color(QPalette::Text);
    } else if (region.isContainer()) {
        fill = m_palette.color(QPalette::Window);
        text = m_palette.color(QPalette::WindowText);
    } else {
        fill = filesystemColor(region.filesystem);
        text = textColorOn(fill);
    }
    painter.setBrush(fill);
    painter.setPen(
        QPen(m_palette.color(QPalette::Mid), 1, region.isFree() ? Qt::DashLine : Qt::SolidLine));
    painter.drawRect(box);

    const QColor outline = AlignmentStyle::outlineColor(status);
    if (status == AlignmentStatus::Misaligned) {
        // Hatching and a thick outline: unmistakable even in greyscale or when printed.
        painter.setPen(Qt::NoPen);
        painter.setBrush(QBrush(outline, Qt::BDiagPattern));
        painter.drawRect(box);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(outline, 3, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        painter.drawRect(rect.adjusted(1.5, 1.5, -1.5, -1.5));
    } else if (status == AlignmentStatus::SectorAligned) {
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(outline, 2, Qt::DashLine, Qt::FlatCap, Qt::MiterJoin));
        painter.drawRect(rect.adjusted(1, 1, -1, -1));
    }

    if (model.misalignedLayer(row))
        paintLayerBand(painter, rect);
    LogicalVolumeStrip::paint(painter, m_palette, model, row, rect);

    if (region.isContainer()) {
        const QRectF title(rect.left() + 4, rect.top(), rect.width() - 8,
                           DiskMapGeometry::kExtendedTitleHeight);
        painter.setPen(text);
        const QString caption = tr("%1 (extended)").arg(regionShortTitle(region));
        painter.drawText(
            title, Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetricsF(painter.font()).elidedText(caption, Qt::ElideRight, title.width()));
        return;
    }
    paintRegionText(painter, rect, model, row, text, selected);
    // The lock of a partition in use, in its top right corner where the region is wide enough.
    if (region.inUse() && rect.width() >= 20 && rect.height() >= 20) {
        const int size = int(qMin<qreal>(16, rect.height() / 3));
        painter.drawPixmap(QPointF(rect.right() - size - 3, rect.top() + 3),
                           MountMark::lock(size, text));
    }
}

// A partition whose inner layer (LUKS, LVM) is misaligned: a cross-hatched band along its
// bottom edge, inside its own outline, so that the partition's own verdict stays readable and
// the two can never be confused.
void DiskMapPainter::paintLayerBand(QPainter &painter, const QRectF &rect) const
{
    const QColor color = AlignmentStyle::outlineColor(AlignmentStatus::Misaligned);
    const qreal height = std::min<qreal>(kLayerBandHeight, rect.height() / 3);
    const QRectF band(rect.left() + 3, rect.bottom() - height - 3, rect.width() - 6, height);
    if (band.width() < 2)
        return;
    painter.setBrush(m_palette.color(QPalette::Base));
    painter.setPen(Qt::NoPen);
    painter.drawRect(band);
    painter.setBrush(QBrush(color, Qt::DiagCrossPattern));
    painter.setPen(QPen(color, 1, Qt::DotLine));
    painter.drawRect(band);
}

namespace {

enum class LabelLine { Size, Name, Contents }; // labelLines()' order

// A label line as far as it says something in `width`: whole, or shortened where the short
// form still means the same ("50M" for "50.0 MiB", "free" for "unallocated", the filesystem
// without its label); empty where only a stub would fit ("sw…", "unal…").
QString fittingLabel(LabelLine kind, const QString &line, const PartitionInfo &region, qint64 bytes,
                     const QFontMetricsF &metrics, qreal width)
{
    const auto fits = [&](const QString &text) { return metrics.horizontalAdvance(text) <= width; };
    if (fits(line))
        return line;
    QStringList shorter;
    if (kind == LabelLine::Size) {
        int unit = 0;
        double value = double(bytes);
        for (; value >= 1023.5 && unit < 5; ++unit)
            value /= 1024;
        shorter << QString::number(qRound(value)) + QLatin1Char("BKMGTP"[unit]);
    } else if (kind == LabelLine::Name && region.isFree()) {
        //: A very narrow unallocated region on the disk map.
        shorter << DiskMapPainter::tr("free");
    } else if (kind == LabelLine::Contents) {
        const QString filesystem = line.section(QLatin1Char(' '), 0, 0);
        // The label shortened, the filesystem whole: "ext4 “Mus…”".
        const QString elided = metrics.elidedText(line, Qt::ElideRight, width);
        if (elided.size() >= filesystem.size() + 5 &&
            elided.startsWith(filesystem + QLatin1Char(' ')))
            shorter << elided;
        shorter << filesystem;
    }
    for (const QString &text : std::as_const(shorter))
        if (fits(text))
            return text;
    return QString();
}

} // namespace

void DiskMapPainter::paintRegionText(QPainter &painter, const QRectF &rect,
                                     const PartitionModel &model, int row, const QColor &color,
                                     bool selected) const
{
    const PartitionInfo &region = model.region(row);
    const AlignmentStatus status = model.verdict(row).status;
    // Clear of the selection outline (paintSelection: 3 px at 5.5 inside), which otherwise
    // covered the first letters of the selected partition's name.
    const qreal inset = selected && rect.width() > 20 ? 9 : 5;
    QRectF area = rect.adjusted(inset, inset, -5, -5);
    const QIcon icon = AlignmentStyle::icon(status);
    const bool flagged =
        status == AlignmentStatus::Misaligned || status == AlignmentStatus::SectorAligned;
    if (flagged && !icon.isNull() && area.width() >= kIconSize && area.height() >= kIconSize) {
        const QRectF iconRect(area.left(), area.top(), kIconSize, kIconSize);
        icon.paint(&painter, iconRect.toRect());
        area.setTop(area.top() + kIconSize + 2);
    }
    if (area.width() < 14)
        return;
    const QFontMetricsF metrics(painter.font());
    painter.setPen(color);
    qreal y = area.top();
    const QStringList lines = labelLines(model, row);
    for (int i = 0; i < lines.size(); ++i) {
        if (y + metrics.height() > area.bottom() + 1)
            break;
        const QString line =
            m_fullLabels ? lines[i]
                         : fittingLabel(LabelLine(i), lines[i], region,
                                        region.lengthSectors() *
                                            model.layout().device.topology.logicalSectorSize,
                                        metrics, area.width());
        if (line.isEmpty())
            continue; // a line cut to a stub says nothing: the next one may fit
        painter.drawText(QRectF(area.left(), y, qMax(area.width(), metrics.horizontalAdvance(line)),
                                metrics.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, line);
        y += metrics.height();
    }
}

QStringList DiskMapPainter::labelLines(const PartitionModel &model, int row)
{
    const PartitionInfo &region = model.region(row);
    const qint64 sectorSize = model.layout().device.topology.logicalSectorSize;
    QStringList lines{humanSize(region.lengthSectors() * sectorSize), regionShortTitle(region)};
    if (!region.isFree()) {
        QString what = region.filesystem.isEmpty() ? tr("unknown") : region.filesystem;
        if (!region.label.isEmpty())
            //: A filesystem label in the language's quotation marks.
            what += QLatin1Char(' ') + tr("“%1”").arg(region.label);
        lines << what;
    }
    return lines;
}

qreal DiskMapPainter::fullLabelWidth(const QFont &font, const PartitionModel &model, int row)
{
    const QFontMetricsF metrics(font);
    qreal widest = 0;
    for (const QString &line : labelLines(model, row))
        widest = qMax(widest, metrics.horizontalAdvance(line));
    return widest + 9 + 5 + 2; // the selected region's insets, and a pixel of rounding each side
}

void DiskMapPainter::paintSelection(QPainter &painter, const QRectF &rect, bool hasFocus) const
{
    // Inside the alignment outline, so selecting a partition never hides its warning; a light
    // wash makes the selection visible on any fill. Slivers get their whole rectangle.
    const qreal inset = rect.width() > 20 ? 5.5 : 0.5;
    QColor wash = m_palette.color(QPalette::Highlight);
    wash.setAlpha(50);
    painter.setBrush(wash);
    painter.setPen(
        QPen(m_palette.color(QPalette::Highlight), 3, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter.drawRect(rect.adjusted(inset, inset, -inset, -inset));
    if (hasFocus && rect.width() > 24) {
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(m_palette.color(QPalette::WindowText), 1, Qt::DotLine));
        painter.drawRect(rect.adjusted(8.5, 8.5, -8.5, -8.5));
    }
}

QString DiskMapPainter::policyText(const PartitionModel &model)
{
    const AlignmentGeometry &g = model.report().geometry;
    return tr("grain %1, physical sector checked as %2 B")
        .arg(humanSize(g.grainBytes))
        .arg(g.physicalAssumed);
}

QStringList DiskMapPainter::legendLabels(const PartitionModel &model)
{
    QStringList labels{tr("misaligned"), tr("on a physical sector, not the grain")};
    if (model.hasMisalignedLayer())
        labels << tr("LUKS/LVM data inside misaligned");
    return labels;
}

qreal DiskMapPainter::captionAndLegendWidth(const QFont &font, const PartitionModel &model)
{
    const QFontMetricsF metrics(font);
    qreal legend = metrics.horizontalAdvance(policyText(model)) + 2;
    for (const QString &label : legendLabels(model))
        legend += kSwatchWidth + metrics.horizontalAdvance(label) + kLegendGap;
    return std::ceil(qMax(legend, metrics.horizontalAdvance(captionText(model)) + 2));
}

void DiskMapPainter::paintLegend(QPainter &painter, const QRectF &rect,
                                 const PartitionModel &model) const
{
    const QFontMetricsF metrics(painter.font());
    qreal x = rect.left();
    const qreal swatchY = rect.top() + (rect.height() - 12) / 2;
    const QStringList labels = legendLabels(model);
    for (int i = 0; i < labels.size(); ++i) {
        const AlignmentStatus status =
            i == 1 ? AlignmentStatus::SectorAligned : AlignmentStatus::Misaligned;
        const QColor color = AlignmentStyle::outlineColor(status);
        if (i == 2) { // a misaligned layer: the band paintLayerBand() draws
            painter.setBrush(QBrush(color, Qt::DiagCrossPattern));
            painter.setPen(QPen(color, 1, Qt::DotLine));
            painter.drawRect(QRectF(x + 1, swatchY + 4, 18, 8));
        } else {
            painter.setBrush(i == 0 ? QBrush(color, Qt::BDiagPattern) : QBrush(Qt::NoBrush));
            painter.setPen(QPen(color, 2, i == 0 ? Qt::SolidLine : Qt::DashLine));
            painter.drawRect(QRectF(x + 1, swatchY, 18, 12));
        }
        x += kSwatchWidth;
        painter.setPen(m_palette.color(QPalette::WindowText));
        const qreal width = metrics.horizontalAdvance(labels[i]);
        painter.drawText(QRectF(x, rect.top(), width + 2, rect.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, labels[i]);
        x += width + kLegendGap;
    }
    const QString policy = policyText(model);
    const qreal room = qMax<qreal>(0, rect.right() - x);
    painter.setPen(m_palette.color(QPalette::WindowText));
    // A picture is made wide enough for all of it (captionAndLegendWidth); the window elides.
    painter.drawText(QRectF(x, rect.top(),
                            m_fullLabels ? qMax(room, metrics.horizontalAdvance(policy) + 2) : room,
                            rect.height()),
                     Qt::AlignRight | Qt::AlignVCenter,
                     m_fullLabels ? policy : metrics.elidedText(policy, Qt::ElideLeft, room));
}

void DiskMapPainter::paintMessage(QPainter &painter, const QRectF &rect,
                                  const QString &message) const
{
    painter.setBrush(m_palette.color(QPalette::Base));
    painter.setPen(QPen(m_palette.color(QPalette::Mid), 1, Qt::DashLine));
    painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
    painter.setPen(m_palette.color(QPalette::Text));
    painter.drawText(rect.adjusted(8, 4, -8, -4), Qt::AlignCenter | Qt::TextWordWrap,
                     message.isEmpty() ? tr("No disk selected") : message);
}
