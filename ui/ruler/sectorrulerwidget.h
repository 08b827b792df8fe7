#pragma once

#include "align/sectorruler.h"
#include "pictureexporter.h"

#include <QWidget>

// The sector ruler drawn to scale: logical sectors, physical sectors and the filesystem's
// blocks in three rows, the grain boundaries and the edge as vertical lines, blocks that
// straddle physical sectors in the misaligned colour and hatched (and the sectors they only
// partly cover tinted). + and − (or Ctrl and the wheel) zoom from a few sectors to a few MiB;
// the same facts are its accessible description.
class SectorRulerWidget : public QWidget
{
    Q_OBJECT

public:
    explicit SectorRulerWidget(QWidget *parent = nullptr);

    // `physicalSource` says where the physical size comes from ("assumed", "measured"…).
    void setRuler(const partwise::SectorRuler &ruler, const QString &description,
                  const QString &physicalSource = QString());
    void clear(const QString &message);
    const partwise::SectorRuler &ruler() const { return m_ruler; }
    bool hasRuler() const { return m_hasRuler; }

    // Zoom steps: windows of 4 KiB doubling up to 4 MiB.
    static int zoomSteps();
    static qint64 windowForStep(int step);
    int zoomStep() const { return m_zoom; }
    void setZoomStep(int step);

    // Where a byte of the window is drawn, and the block row's box; tests sample the pixels.
    double xOf(qint64 byte) const;
    QRectF blockRowRect() const;
    // Where the captions above the rows are drawn: the edge's, then one per grain line.
    QList<QRectF> captionRects() const;

    void render(QPainter &painter, const QRectF &bounds) const;
    PictureExporter::Picture picture();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void zoomStepChanged(int step);

protected:
    void paintEvent(QPaintEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;

private:
    partwise::SectorRuler m_ruler;
    bool m_hasRuler = false;
    QString m_message;
    QString m_physicalSource;
    int m_zoom = 2; // 16 KiB
};
