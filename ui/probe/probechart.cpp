#include "probe/probechart.h"

#include "alignmentstyle.h"

#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

using namespace partwise;

namespace {

// A round step for the time axis: 1, 2 or 5 times a power of ten, about `target` steps to top.
double niceStep(double top, int target)
{
    const double raw = top / target;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= raw)
            return m * power;
    return 10 * power;
}

// Offsets in KiB, as short as they go: "0", "0.5", "1.5", "28".
QString offsetLabel(qint64 bytes)
{
    return QLocale().toString(double(bytes) / 1024.0, 'g', 3);
}

} // namespace

ProbeChart::ProbeChart(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("probeChart"));
    setAccessibleName(tr("Write time per offset"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ProbeChart::setTimings(const QList<ProbeTiming> &timings, bool explained)
{
    m_timings = timings;
    m_explained = explained;
    update();
}

QSize ProbeChart::minimumSizeHint() const
{
    return {480, 220};
}

QSize ProbeChart::sizeHint() const
{
    return {680, 300};
}

void ProbeChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(rect(), palette().base());
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    if (m_timings.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("The write times appear here."));
        return;
    }

    // Units in order, each with its bars.
    QList<qint64> units;
    for (const ProbeTiming &t : m_timings)
        if (!units.contains(t.unitBytes))
            units << t.unitBytes;
    double top = 0;
    for (const ProbeTiming &t : m_timings)
        top = std::max(top, t.medianMicros / 1000.0);
    const double step = niceStep(top > 0 ? top : 1, 4);
    top = std::ceil(top / step) * step;

    const QString axisTitle = tr("ms per write");
    const int left = std::max(fm.horizontalAdvance(QLocale().toString(top, 'g', 4)),
                              fm.horizontalAdvance(axisTitle) / 2) +
                     12;
    const QRect plot(left, line * 2, width() - left - 10, height() - line * 6 - 8);
    if (plot.width() < 50 || plot.height() < 30)
        return;

    // Grid and time axis.
    const QColor text = palette().color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(40);
    p.setPen(text);
    p.drawText(QRect(0, 0, width(), line), Qt::AlignLeft, axisTitle);
    for (double v = 0; v <= top + step / 2; v += step) {
        const int y = plot.bottom() - int(plot.height() * v / top);
        p.setPen(grid);
        p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(text);
        p.drawText(QRect(0, y - line / 2, left - 6, line), Qt::AlignRight | Qt::AlignVCenter,
                   QLocale().toString(v, 'g', 4));
    }

    // Bars: one slot per write kind, a gap between units.
    const int columns = int(m_timings.size()) + int(units.size()) - 1;
    const double slot = double(plot.width()) / columns;
    const QColor whole = AlignmentStyle::outlineColor(AlignmentStatus::Aligned);
    const QColor straddling = AlignmentStyle::outlineColor(AlignmentStatus::Misaligned);
    const QColor neutral = palette().color(QPalette::Highlight);
    int index = 0;
    for (int u = 0; u < units.size(); ++u) {
        const int firstIndex = index;
        for (const ProbeTiming &t : m_timings) {
            if (t.unitBytes != units[u])
                continue;
            const double x = plot.left() + slot * index;
            const int h = top > 0 ? int(plot.height() * (t.medianMicros / 1000.0) / top) : 0;
            const QRectF bar(x + slot * 0.15, plot.bottom() - h, slot * 0.7, h);
            p.fillRect(bar, !m_explained ? neutral : t.straddles ? straddling : whole);
            if (slot >= fm.horizontalAdvance(QStringLiteral("0.5")) + 2) {
                p.setPen(text);
                p.drawText(QRectF(x, plot.bottom() + 2, slot, line), Qt::AlignHCenter,
                           offsetLabel(t.offsetBytes));
            }
            ++index;
        }
        // The unit's name under its bars, centred, wider than them if it must.
        // "4 KiB writes", or just "4 KiB" where the unit's few bars leave too little room.
        QString name = tr("%1 KiB writes").arg(units[u] / 1024);
        if (fm.horizontalAdvance(name) > slot * (index - firstIndex + 1))
            name = tr("%1 KiB").arg(units[u] / 1024);
        const double centre = plot.left() + slot * (firstIndex + index) / 2.0;
        const double nameWidth =
            std::max<double>(fm.horizontalAdvance(name) + 4, slot * (index - firstIndex));
        p.setPen(text);
        p.drawText(QRectF(centre - nameWidth / 2, plot.bottom() + line + 4, nameWidth, line),
                   Qt::AlignHCenter, name);
        ++index; // the gap
    }
    p.setPen(text);
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawText(QRect(plot.left(), plot.bottom() + line * 2 + 6, plot.width(), line),
               Qt::AlignHCenter, tr("offset of the write (KiB)"));

    // Legend, top right, beside the axis title.
    if (m_explained) {
        const int box = line * 2 / 3;
        const QList<std::pair<QColor, QString>> entries{
            {whole, tr("covers whole physical sectors")},
            {straddling, tr("straddles a physical sector")}};
        int x = width() - 10;
        for (const auto &entry : entries)
            x -= box + 4 + fm.horizontalAdvance(entry.second) + 16;
        for (const auto &[color, label] : entries) {
            p.fillRect(QRect(x, (line - box) / 2, box, box), color);
            x += box + 4;
            p.drawText(QRect(x, 0, fm.horizontalAdvance(label) + 2, line), Qt::AlignLeft, label);
            x += fm.horizontalAdvance(label) + 16;
        }
    }
}
