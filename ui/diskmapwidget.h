#pragma once

#include "diskmapgeometry.h"
#include "pictureexporter.h"

#include <QPointer>
#include <QWidget>

class PartitionModel;
class QItemSelectionModel;

// The disk drawn as a bar of regions, misaligned partitions highlighted. It shows the rows of
// a PartitionModel and shares the selection (a QItemSelectionModel on that model) with the
// partition list, so clicking either one selects in both.
class DiskMapWidget : public QWidget
{
    Q_OBJECT

public:
    // What the map does to draw attention to a region; tests assert on it.
    enum class Highlight { None, Notice, Warning };

    explicit DiskMapWidget(QWidget *parent = nullptr);

    void setModel(PartitionModel *model, QItemSelectionModel *selection);
    // Shown instead of the bar when there is no disk: "Reading…" or why it can't be read.
    void setMessage(const QString &message);
    QString message() const { return m_message; }

    int currentRow() const;
    QRect regionRect(int row) const { return m_geometry.regionRect(row).toAlignedRect(); }
    int regionAt(const QPoint &point) const { return m_geometry.regionAt(point); }
    Highlight highlight(int row) const;
    QList<int> rowsWithHighlight(Highlight highlight) const;

    // Draws the map into any painter (SVG export) at the given size.
    void render(QPainter &painter, const QRectF &bounds) const;
    // The map for File → Export Map….
    // The map as a picture, its labels in full: wider than the widget where they need it.
    PictureExporter::Picture picture();
    qreal exportWidth() const;
    QList<qreal> labelWidths() const; // by row: what each region's labels need in full

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void currentRowChanged(int row);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    void relayout();
    void selectRow(int row);
    void updateAccessibleDescription();

    QPointer<PartitionModel> m_model;
    QPointer<QItemSelectionModel> m_selection;
    DiskMapGeometry m_geometry;
    QString m_message;
};
