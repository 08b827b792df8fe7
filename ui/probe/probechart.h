#pragma once

#include "probe/probeanalysis.h"

#include <QWidget>

// The timing probe's write times as bars, one per kind of write (unit and offset), grouped by
// unit: writes that straddle the measured physical sector in the "misaligned" red of the disk
// map, writes covering whole sectors in its "aligned" green, and all of them neutral when no
// sector explains the times. Drawn with QPainter (no Qt Charts needed).
class ProbeChart : public QWidget
{
    Q_OBJECT

public:
    explicit ProbeChart(QWidget *parent = nullptr);

    // `explained`: the verdict found a sector, so straddling bars are told apart.
    void setTimings(const QList<partwise::ProbeTiming> &timings, bool explained);
    QList<partwise::ProbeTiming> timings() const { return m_timings; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<partwise::ProbeTiming> m_timings;
    bool m_explained = false;
};
