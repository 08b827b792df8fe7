#include "sectorrulerwidget.h"

#include "alignmentstyle.h"
#include "base/humansize.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QKeyEvent>
#include <QLocale>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>

using namespace partwise;

namespace {

constexpr double kLabelWidth = 180;
constexpr double kTop = 22; // room for the edge's and the grain's labels
constexpr double kRowHeight = 30;
constexpr double kRowGap = 6;
constexpr double kRightMargin = 8;
constexpr int kSteps = 11; // 4 KiB · 2^0 … 2^10 = 4 MiB

struct Layout
{
    QRectF bounds;
    qint64 from = 0;
    qint64 to = 1;

    double x(qint64 byte) const
    {
        const double width = bounds.width() - kLabelWidth - kRightMargin;
        return bounds.left() + kLabelWidth + width * double(byte - from) / double(to - from);
    }
    QRectF row(int index) const
    {
        return {bounds.left() + kLabelWidth, bounds.top() + kTop + index * (kRowHeight + kRowGap),
                bounds.width() - kLabelWidth - kRightMargin, kRowHeight};
    }
    QRectF span(int index, qint64 begin, qint64 end) const
    {
        const QRectF r = row(index);
        return {x(begin), r.top(), x(end) - x(begin), r.height()};
    }
};

QString sizeName(qint64 bytes)
{
    return bytes % 1024 == 0 ? humanSize(bytes) : QStringLiteral("%1 B").arg(bytes);
}

void drawSpans(QPainter &p, const Layout &l, int row, const std::vector<RulerSpan> &spans,
               const QColor &fill, const QColor &line)
{
    for (const RulerSpan &s : spans) {
        const QRectF box = l.span(row, s.begin, s.end);
        p.fillRect(box, s.number % 2 == 0 ? fill : fill.darker(108));
        p.setPen(line);
        p.drawLine(box.topLeft(), box.bottomLeft());
        const QString number = QString::number(s.number);
        if (box.width() >= p.fontMetrics().horizontalAdvance(number) + 6)
            p.drawText(box, Qt::AlignCenter, number);
    }
    p.setPen(line);
    p.drawRect(l.row(row));
}

void drawBlocks(QPainter &p, const Layout &l, const SectorRuler &r, const QPalette &palette)
{
    const QRectF rowBox = l.row(2);
    // Outside the region: no block of this partition lives there.
    p.fillRect(rowBox, palette.color(QPalette::Window).darker(115));
    const QColor good = AlignmentStyle::outlineColor(AlignmentStatus::Aligned);
    const QColor bad = AlignmentStyle::outlineColor(AlignmentStatus::Misaligned);
    for (const RulerBlock &b : r.blocks) {
        QRectF box = l.span(2, std::max(b.begin, r.windowBegin), std::min(b.end, r.windowEnd));
        box.adjust(0.5, 2, -0.5, -2);
        const QColor colour = b.straddles() ? bad : good;
        p.fillRect(box, colour.lighter(b.straddles() ? 150 : 160));
        if (b.straddles())
            p.fillRect(box, QBrush(colour, Qt::BDiagPattern));
        p.setPen(QPen(colour.darker(130), 1));
        p.drawRect(box);
        const QString number = QString::number(b.number);
        if (box.width() >= p.fontMetrics().horizontalAdvance(number) + 6)
            p.drawText(box, Qt::AlignCenter, number);
        // The physical sectors it only partly covers, tinted in the row above.
        if (b.straddles()) {
            const QRectF above = l.row(1);
            for (const qint64 sector : {b.firstPhysical, b.lastPhysical}) {
                const qint64 start = r.physicalOrigin + sector * r.physicalSize;
                const qint64 end = start + r.physicalSize;
                const bool partial = (sector == b.firstPhysical && start != b.begin) ||
                                     (sector == b.lastPhysical && end != b.end);
                if (!partial)
                    continue;
                const double left = l.x(std::max(start, r.windowBegin));
                const double right = l.x(std::min(end, r.windowEnd));
                QColor tint = bad;
                tint.setAlpha(50);
                p.fillRect(QRectF(left, above.top(), right - left, above.height()), tint);
            }
        }
    }
}

// "start, byte 1,048,576"; `withByte` false: "start" alone, where the long one has no room.
QString edgeCaption(const SectorRuler &r, bool withByte)
{
    if (!withByte)
        return r.edge == RulerEdge::End ? QCoreApplication::translate("SectorRulerWidget", "end")
               : r.edge == RulerEdge::Free
                   ? QCoreApplication::translate("SectorRulerWidget", "new start")
                   : QCoreApplication::translate("SectorRulerWidget", "start");
    const QString label =
        r.edge == RulerEdge::End ? QCoreApplication::translate("SectorRulerWidget", "end, byte %1")
        : r.edge == RulerEdge::Free
            ? QCoreApplication::translate("SectorRulerWidget", "new start, byte %1")
            : QCoreApplication::translate("SectorRulerWidget", "start, byte %1");
    return label.arg(QLocale().toString(r.focusByte));
}

QString grainCaption(const SectorRuler &r)
{
    return QCoreApplication::translate("SectorRulerWidget", "grain (%1)")
        .arg(humanSize(r.grainBytes));
}

double captionBaseline(const Layout &l)
{
    return l.bounds.top() + 12;
}

struct Captions
{
    QString edge;
    QList<QRectF> boxes; // the edge's, then one per grain line
};

// Where the captions above the rows go. The edge's caption goes right of its line and a grain's
// left of its own, unless that puts one over another (a grain line a sector after the edge):
// then the other side; where neither side has room, the edge's caption loses its byte number.
Captions placeCaptions(const Layout &l, const SectorRuler &r, const QFontMetricsF &metrics)
{
    const double baseline = captionBaseline(l);
    // Beside its line, moved in from the ruler's sides (over its line rather than cut off).
    auto box = [&](double line, double width, bool right) {
        double left = right ? line + 4 : line - 4 - width;
        left = std::max(l.bounds.left(), std::min(left, l.bounds.right() - width));
        return QRectF(left, baseline - metrics.ascent(), width, metrics.height());
    };
    const double grainWidth = metrics.horizontalAdvance(grainCaption(r));
    auto inside = [&](const QRectF &rect) {
        return rect.left() >= l.bounds.left() && rect.right() <= l.bounds.right();
    };
    Captions first;
    for (const bool withByte : {true, false}) {
        const QString edge = edgeCaption(r, withByte);
        const double edgeWidth = metrics.horizontalAdvance(edge);
        for (const bool edgeRight : {true, false}) {
            QList<QRectF> boxes{box(l.x(r.focusByte), edgeWidth, edgeRight)};
            bool clear = inside(boxes.first());
            for (const qint64 at : r.grainLines) {
                QRectF grain = box(l.x(at), grainWidth, false);
                const auto overlaps = [&](const QRectF &rect) {
                    for (const QRectF &placed : boxes)
                        if (placed.intersects(rect))
                            return true;
                    return false;
                };
                if (overlaps(grain) || !inside(grain))
                    grain = box(l.x(at), grainWidth, true);
                clear = clear && !overlaps(grain) && inside(grain);
                boxes << grain;
            }
            if (clear)
                return {edge, boxes};
            if (first.boxes.isEmpty())
                first = {edge, boxes};
        }
    }
    return first; // no room anywhere: the usual sides
}

void drawLines(QPainter &p, const Layout &l, const SectorRuler &r, const QPalette &palette)
{
    const double top = l.bounds.top() + 4;
    const double bottom = l.row(2).bottom() + 4;
    const QFontMetricsF metrics(p.font());
    const Captions captions = placeCaptions(l, r, metrics);
    const double baseline = captionBaseline(l);
    QPen grain(QColor(0x1f, 0x5f, 0xbf), 1.5, Qt::DashLine);
    for (std::size_t i = 0; i < r.grainLines.size(); ++i) {
        const double x = l.x(r.grainLines[i]);
        p.setPen(grain);
        p.drawLine(QPointF(x, top), QPointF(x, bottom));
        p.drawText(QPointF(captions.boxes.at(qsizetype(i) + 1).left(), baseline), grainCaption(r));
    }
    p.setPen(QPen(palette.color(QPalette::WindowText), 2));
    const double x = l.x(r.focusByte);
    p.drawLine(QPointF(x, top), QPointF(x, bottom));
    p.drawText(QPointF(captions.boxes.first().left(), baseline), captions.edge);
}

} // namespace

SectorRulerWidget::SectorRulerWidget(QWidget *parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Sector ruler"));
    setMinimumHeight(minimumSizeHint().height());
}

void SectorRulerWidget::setRuler(const SectorRuler &ruler, const QString &description,
                                 const QString &physicalSource)
{
    m_ruler = ruler;
    m_physicalSource = physicalSource;
    m_hasRuler = true;
    m_message.clear();
    setAccessibleDescription(description);
    setToolTip(description.section(QLatin1Char('\n'), 0, 0));
    update();
}

void SectorRulerWidget::clear(const QString &message)
{
    m_hasRuler = false;
    m_message = message;
    setAccessibleDescription(message);
    setToolTip(QString());
    update();
}

int SectorRulerWidget::zoomSteps()
{
    return kSteps;
}

qint64 SectorRulerWidget::windowForStep(int step)
{
    return kRulerMinWindow << std::clamp(step, 0, kSteps - 1);
}

void SectorRulerWidget::setZoomStep(int step)
{
    step = std::clamp(step, 0, kSteps - 1);
    if (step == m_zoom)
        return;
    m_zoom = step;
    emit zoomStepChanged(step);
}

double SectorRulerWidget::xOf(qint64 byte) const
{
    return Layout{QRectF(rect()), m_ruler.windowBegin, m_ruler.windowEnd}.x(byte);
}

QList<QRectF> SectorRulerWidget::captionRects() const
{
    if (!m_hasRuler)
        return {};
    return placeCaptions(Layout{QRectF(rect()), m_ruler.windowBegin, m_ruler.windowEnd}, m_ruler,
                         QFontMetricsF(font()))
        .boxes;
}

QRectF SectorRulerWidget::blockRowRect() const
{
    return Layout{QRectF(rect()), m_ruler.windowBegin, m_ruler.windowEnd}.row(2);
}

void SectorRulerWidget::render(QPainter &p, const QRectF &bounds) const
{
    p.fillRect(bounds, palette().color(QPalette::Base));
    p.setFont(font());
    if (!m_hasRuler) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(bounds, Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    const Layout l{bounds, m_ruler.windowBegin, m_ruler.windowEnd};
    const QColor line = palette().color(QPalette::Mid);
    const QString titles[3] = {
        tr("Logical (%1)").arg(sizeName(m_ruler.logicalSize)),
        m_physicalSource.isEmpty()
            ? tr("Physical (%1)").arg(sizeName(m_ruler.physicalSize))
            : tr("Physical (%1, %2)").arg(sizeName(m_ruler.physicalSize), m_physicalSource),
        tr("Blocks (%1)").arg(sizeName(m_ruler.blockSize))};
    p.setPen(palette().color(QPalette::Text));
    // A long title ("Physisch (4 KiB, angenommen)") takes a second line of its row.
    for (int row = 0; row < 3; ++row)
        p.drawText(QRectF(bounds.left() + 4, l.row(row).top(), kLabelWidth - 8, kRowHeight),
                   Qt::AlignVCenter | Qt::AlignLeft | Qt::TextWordWrap, titles[row]);
    drawSpans(p, l, 0, m_ruler.logical, palette().color(QPalette::Base).darker(104), line);
    drawSpans(p, l, 1, m_ruler.physical, palette().color(QPalette::AlternateBase), line);
    drawBlocks(p, l, m_ruler, palette());
    drawLines(p, l, m_ruler, palette());
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QRectF foot(l.row(2).left(), l.row(2).bottom() + 4, l.row(2).width(), 18);
    p.drawText(foot, Qt::AlignLeft, QLocale().toString(m_ruler.windowBegin));
    p.drawText(foot, Qt::AlignRight, QLocale().toString(m_ruler.windowEnd));
    p.drawText(foot, Qt::AlignHCenter,
               tr("%1 shown").arg(humanSize(m_ruler.windowEnd - m_ruler.windowBegin)));
}

PictureExporter::Picture SectorRulerWidget::picture()
{
    return PictureExporter::widgetPicture(
        this, [this](QPainter &painter, const QRectF &bounds) { render(painter, bounds); },
        tr("Partwise sector ruler"));
}

QSize SectorRulerWidget::sizeHint() const
{
    return {640, minimumSizeHint().height()};
}

QSize SectorRulerWidget::minimumSizeHint() const
{
    return {320, int(kTop + 3 * kRowHeight + 2 * kRowGap + 26)};
}

void SectorRulerWidget::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    render(painter, QRectF(rect()));
    if (hasFocus()) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.drawRect(QRectF(rect()).adjusted(1, 1, -1, -1));
    }
}

void SectorRulerWidget::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        setZoomStep(m_zoom - 1); // in: a smaller window
        return;
    case Qt::Key_Minus:
        setZoomStep(m_zoom + 1);
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

void SectorRulerWidget::wheelEvent(QWheelEvent *event)
{
    if (!(event->modifiers() & Qt::ControlModifier) || event->angleDelta().y() == 0) {
        QWidget::wheelEvent(event);
        return;
    }
    setZoomStep(m_zoom + (event->angleDelta().y() > 0 ? -1 : 1));
    event->accept();
}
