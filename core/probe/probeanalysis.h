#pragma once

// Reading the timing probe's write times: which physical sector size and offset explain them.
//
// A hypothesis (size P, offset A: physical sectors start at bytes A, A+P, A+2P, ...) splits the
// probe's writes in two: those that cover whole physical sectors (start and end on a boundary)
// and those that cover part of one (straddling writes, which cost the drive a read-modify-write).
// The true hypothesis is the one under which every straddling kind of write is clearly slower
// than every whole one. So, for each candidate P of 1, 2, 4, 8, 16 and 32 KiB and each offset
// A the probe can tell apart (a multiple of its steps below P):
//
//  - every kind of write (unit, offset) gets one time: the median of all its samples, over all
//    places and rounds, so a few slow writes (another process, a seek, a hiccup of the host)
//    move nothing;
//  - within each write unit that has both kinds under the hypothesis, the separation is the
//    fastest straddling median over the slowest whole median; units are compared only with
//    themselves, since a 32 KiB write takes longer than a 4 KiB one on any drive;
//  - the hypothesis holds when its smallest separation reaches the threshold (1.5: a real
//    read-modify-write costs a rotation on a disk, and several times a plain write on an SSD;
//    timings on one machine vary by ±15 %); among those that hold, the best separated wins;
//  - and it must hold place by place: at two thirds of the places, the straddling writes there
//    took at least the threshold times as long as the whole ones (medians of that place), so
//    a single slow region of a drive, or one burst of noise, cannot make a verdict.
//
// The penalty ratio reported is measured in the smallest unit with both kinds: the median of
// its straddling medians over the median of its whole ones ("5.4× as long").
//
// When no hypothesis holds, either nothing differs ("no penalty measured: the drive behaves like
// 512-byte sectors here, or a cache hides it") or something does but no sector explains it
// (unclear: nothing is concluded). Limits: offsets below 4 KiB are told apart only for sizes up
// to 4 KiB (larger units step by 4 KiB); a drive whose write cache absorbs synchronous writes
// shows no penalty.

#include "probe/sectorprobe.h"

#include <QList>
#include <QString>

namespace partwise {

// One row of the timing table (and one bar of the GUI's chart).
struct ProbeTiming
{
    qint64 unitBytes = 0;
    qint64 offsetBytes = 0;
    double medianMicros = 0;
    int samples = 0;
    bool straddles = false; // under the verdict's sector (false when there is none)
};

struct ProbeVerdict
{
    enum class Kind {
        Penalty,   // a physical sector size and offset explain the times
        NoPenalty, // all writes of a unit took about as long
        Unclear,   // times differ, but no sector size explains them
    };
    Kind kind = Kind::NoPenalty;
    qint64 logicalSectorSize = 512;
    qint64 physicalSectorSize = 0; // bytes, Penalty only
    qint64 alignmentOffset = 0;    // bytes, Penalty only: where physical sectors start
    double ratio = 1.0;            // straddling over whole, in the deciding unit
    double separation = 1.0;       // fastest straddling over slowest whole (the deciding test)
    qint64 decidingUnit = 0;       // the write size the ratio is measured with
    double wholeMicros = 0;        // median time of whole writes in that unit
    double straddlingMicros = 0;   // median time of straddling writes in that unit
    int placesAgreeing = 0;
    int placesTotal = 0;
    QList<ProbeTiming> timings; // unit by unit, offsets ascending
    QString sentence;           // what a person reads
};

constexpr double kProbePenaltyThreshold = 1.5;

ProbeVerdict analyseProbe(const SectorProbeRun &run, double threshold = kProbePenaltyThreshold);

// "physical sector 4096 bytes, offset 0: writes that straddle it took 5.4× as long" and the
// like, from a verdict's numbers.
QString probeVerdictSentence(const ProbeVerdict &verdict);

} // namespace partwise
