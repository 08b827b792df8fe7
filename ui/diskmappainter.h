#pragma once

#include "diskmapgeometry.h"

#include <QCoreApplication>
#include <QPalette>
#include <QRectF>

class PartitionModel;
class QPainter;

// Draws one disk as a bar: a caption, the regions and a legend. Shared by the widget and the
// SVG export, so what is saved is what is seen.
class DiskMapPainter
{
    Q_DECLARE_TR_FUNCTIONS(DiskMapPainter)

public:
    static constexpr qreal kCaptionHeight = 22;
    static constexpr qreal kLegendHeight = 22;

    // Where the regions go inside `bounds` (between the caption and the legend).
    static QRectF barRect(const QRectF &bounds);

    explicit DiskMapPainter(const QPalette &palette);
    // An exported picture: every label line in full, never shortened or left out.
    void setFullLabels(bool full) { m_fullLabels = full; }

    // A region's label lines, most telling first: its size, its name, its filesystem and label.
    static QStringList labelLines(const PartitionModel &model, int row);
    // The width a region needs to show labelLines() in full, its insets included.
    static qreal fullLabelWidth(const QFont &font, const PartitionModel &model, int row);
    // The caption over the bar ("disk.img — Disk image — 512 MiB — msdos — sectors …"), the
    // legend's entries and its alignment policy, and the width either needs in full.
    static QString captionText(const PartitionModel &model);
    static QStringList legendLabels(const PartitionModel &model);
    static QString policyText(const PartitionModel &model);
    static qreal captionAndLegendWidth(const QFont &font, const PartitionModel &model);

    // `message` replaces the bar when there is no disk to draw (scanning, or an error).
    void paint(QPainter &painter, const QRectF &bounds, const PartitionModel &model,
               const DiskMapGeometry &geometry, int selectedRow, bool hasFocus,
               const QString &message) const;

private:
    void paintCaption(QPainter &painter, const QRectF &rect, const PartitionModel &model) const;
    // `selected`: the selection outline will be drawn over it (paintSelection).
    void paintRegion(QPainter &painter, const QRectF &rect, const PartitionModel &model, int row,
                     bool selected) const;
    void paintRegionText(QPainter &painter, const QRectF &rect, const PartitionModel &model,
                         int row, const QColor &color, bool selected) const;
    void paintLayerBand(QPainter &painter, const QRectF &rect) const;
    void paintSelection(QPainter &painter, const QRectF &rect, bool hasFocus) const;
    void paintLegend(QPainter &painter, const QRectF &rect, const PartitionModel &model) const;
    void paintMessage(QPainter &painter, const QRectF &rect, const QString &message) const;

    QPalette m_palette;
    bool m_fullLabels = false;
};
