#include "probe/probeanalysis.h"

#include <QCoreApplication>
#include <QLocale>

#include <QMap>

#include <algorithm>
#include <cmath>

namespace partwise {

namespace {

double median(QList<double> values)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

qint64 positiveModulo(qint64 x, qint64 m)
{
    return ((x % m) + m) % m;
}

// Whether a write of `cell` covers part of a physical sector of `size` starting at `offset`.
// Place windows are aligned to 64 KiB, so a cell's offset in its window is its offset on the
// drive modulo any candidate size.
bool straddles(const ProbeCell &cell, qint64 size, qint64 offset)
{
    return positiveModulo(cell.offsetBytes - offset, size) != 0 ||
           positiveModulo(cell.offsetBytes + cell.unitBytes - offset, size) != 0;
}

// The median time of each cell (index as in run.cells; -1 where there is no sample), over the
// samples `keep` accepts.
template <typename Keep> QList<double> cellMedians(const SectorProbeRun &run, Keep keep)
{
    QList<QList<double>> times(run.cells.size());
    for (const ProbeSample &s : run.samples)
        if (s.cell >= 0 && s.cell < times.size() && keep(s))
            times[s.cell] << s.micros;
    QList<double> out;
    for (const QList<double> &t : times)
        out << (t.isEmpty() ? -1.0 : median(t));
    return out;
}

struct Evaluation
{
    bool decidable = false; // some unit has both whole and straddling writes
    double separation = 0;
    qint64 decidingUnit = 0;
    double ratio = 1;
    double whole = 0;
    double straddling = 0;
};

Evaluation evaluate(const QList<ProbeCell> &cells, const QList<double> &medians, qint64 size,
                    qint64 offset)
{
    QMap<qint64, QList<double>> whole, partial; // by unit, ascending
    for (int i = 0; i < cells.size(); ++i) {
        if (medians[i] < 0)
            continue;
        (straddles(cells[i], size, offset) ? partial : whole)[cells[i].unitBytes] << medians[i];
    }
    Evaluation e;
    for (auto it = whole.cbegin(); it != whole.cend(); ++it) {
        const QList<double> &p = partial.value(it.key());
        if (p.isEmpty())
            continue;
        const double slowestWhole = *std::max_element(it->begin(), it->end());
        const double fastestPartial = *std::min_element(p.begin(), p.end());
        const double separation = slowestWhole > 0 ? fastestPartial / slowestWhole : 0;
        if (!e.decidable) {
            e.decidable = true;
            e.separation = separation;
            e.decidingUnit = it.key();
            e.whole = median(*it);
            e.straddling = median(p);
            e.ratio = e.whole > 0 ? e.straddling / e.whole : 0;
        } else {
            e.separation = std::min(e.separation, separation);
        }
    }
    return e;
}

// Places at which the deciding unit's straddling writes took `threshold` times as long as its
// whole ones; `total` counts the places with samples of both kinds.
int placesAgreeing(const SectorProbeRun &run, qint64 size, qint64 offset, qint64 unit,
                   double threshold, int *total)
{
    int agreeing = 0;
    *total = 0;
    for (int place = 0; place < run.places.size(); ++place) {
        const QList<double> medians =
            cellMedians(run, [place](const ProbeSample &s) { return s.place == place; });
        QList<double> whole, partial;
        for (int i = 0; i < run.cells.size(); ++i)
            if (run.cells[i].unitBytes == unit && medians[i] >= 0)
                (straddles(run.cells[i], size, offset) ? partial : whole) << medians[i];
        if (whole.isEmpty() || partial.isEmpty())
            continue;
        ++*total;
        const double w = median(whole);
        if (w > 0 && median(partial) / w >= threshold)
            ++agreeing;
    }
    return agreeing;
}

QString ratioText(double ratio)
{
    const QLocale locale(QCoreApplication::translate("HumanSize", "en_US"));
    return locale.toString(ratio, 'f', ratio < 10 ? 1 : 0);
}

} // namespace

ProbeVerdict analyseProbe(const SectorProbeRun &run, double threshold)
{
    ProbeVerdict v;
    v.logicalSectorSize = run.logicalSectorSize;
    const QList<double> medians = cellMedians(run, [](const ProbeSample &) { return true; });

    // The offsets the probe can tell apart: multiples of its smallest step.
    qint64 step = 4096;
    for (const ProbeCell &c : run.cells)
        if (c.offsetBytes > 0)
            step = std::min(step, c.offsetBytes);

    Evaluation best;
    qint64 bestSize = 0, bestOffset = 0;
    for (qint64 size = 1024; size <= 32768; size *= 2) {
        for (qint64 offset = 0; offset < size; offset += step) {
            const Evaluation e = evaluate(run.cells, medians, size, offset);
            if (e.decidable && e.separation >= threshold &&
                (bestSize == 0 || e.separation > best.separation)) {
                best = e;
                bestSize = size;
                bestOffset = offset;
            }
        }
    }

    if (bestSize > 0) {
        v.physicalSectorSize = bestSize;
        v.alignmentOffset = bestOffset;
        v.ratio = best.ratio;
        v.separation = best.separation;
        v.decidingUnit = best.decidingUnit;
        v.wholeMicros = best.whole;
        v.straddlingMicros = best.straddling;
        v.placesAgreeing =
            placesAgreeing(run, bestSize, bestOffset, best.decidingUnit, threshold, &v.placesTotal);
        // Two thirds of the places, rounded up.
        v.kind = 3 * v.placesAgreeing >= 2 * v.placesTotal && v.placesTotal > 0
                     ? ProbeVerdict::Kind::Penalty
                     : ProbeVerdict::Kind::Unclear;
    } else {
        v.kind = ProbeVerdict::Kind::NoPenalty;
    }

    for (int i = 0; i < run.cells.size(); ++i) {
        ProbeTiming t;
        t.unitBytes = run.cells[i].unitBytes;
        t.offsetBytes = run.cells[i].offsetBytes;
        t.medianMicros = std::max(0.0, medians[i]);
        for (const ProbeSample &s : run.samples)
            t.samples += s.cell == i;
        t.straddles = bestSize > 0 && straddles(run.cells[i], bestSize, bestOffset);
        v.timings << t;
    }
    std::sort(v.timings.begin(), v.timings.end(), [](const ProbeTiming &a, const ProbeTiming &b) {
        return a.unitBytes != b.unitBytes ? a.unitBytes < b.unitBytes
                                          : a.offsetBytes < b.offsetBytes;
    });
    if (v.kind == ProbeVerdict::Kind::NoPenalty) {
        // The plain unit's times, for the record.
        QList<double> all;
        for (const ProbeTiming &t : std::as_const(v.timings))
            if (t.unitBytes == v.timings.value(0).unitBytes && t.samples > 0)
                all << t.medianMicros;
        v.wholeMicros = median(all);
        v.decidingUnit = v.timings.value(0).unitBytes;
    }
    v.sentence = probeVerdictSentence(v);
    return v;
}

// Translated where the window installed a catalogue (the probe dialog); partwise-cli has none
// and stays English. Numbers follow the catalogue's locale, as sizes do (humansize.h).
QString probeVerdictSentence(const ProbeVerdict &v)
{
    const QString ratio = ratioText(v.ratio);
    switch (v.kind) {
    case ProbeVerdict::Kind::Penalty:
        return QCoreApplication::translate("ProbeVerdict",
                                           "Physical sector %1 bytes, offset %2: writes that "
                                           "straddle it took %3× as long.")
            .arg(v.physicalSectorSize)
            .arg(v.alignmentOffset)
            .arg(ratio);
    case ProbeVerdict::Kind::Unclear:
        return QCoreApplication::translate(
                   "ProbeVerdict",
                   "Unclear: writes straddling %1-byte sectors at offset %2 took %3× as long "
                   "overall, but only at %4 of %5 places. Nothing is concluded; measure again "
                   "while the drive is otherwise idle.")
            .arg(v.physicalSectorSize)
            .arg(v.alignmentOffset)
            .arg(ratio)
            .arg(v.placesAgreeing)
            .arg(v.placesTotal);
    case ProbeVerdict::Kind::NoPenalty:
        break;
    }
    return QCoreApplication::translate("ProbeVerdict",
                                       "No penalty measured: the drive behaves like %1-byte "
                                       "sectors here, or a cache hides it.")
        .arg(v.logicalSectorSize);
}

} // namespace partwise
