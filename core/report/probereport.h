#pragma once

// What follows from a timing probe's verdict (probe/probeanalysis.h): the table and the
// sentence people read, the JSON scripts read, and what Partwise remembers for the drive.
// `partwise-cli probe` (cli/probecommand.h) and the GUI's probe dialog both use it.
//
// What is remembered (device/drivemeasurements.h) is always the last probe's word:
//  - a penalty measured: its size and offset are saved for the drive, and check, create and
//    realign align to them from then on where they are larger than what the drive reports;
//  - no penalty measured: an earlier measurement is forgotten. A cache that hides the penalty
//    now may have hidden nothing before, but a drive that changed (a jumper pulled, a firmware
//    update, a different drive behind the same bridge) must not be judged by an old
//    measurement, and forgetting is safe: Partwise then assumes at least 4096-byte sectors
//    again, as it does for every drive it has not measured;
//  - unclear, cancelled, failed or refused: nothing changes.
// A drive with no WWN, serial or backing file cannot be told apart from others, and nothing
// is remembered for it (the output says so).

#include "probe/probeanalysis.h"
#include "probe/sectorprobe.h"

#include <QDateTime>
#include <QJsonObject>

namespace partwise {

// What happened to the drive's remembered measurement after a probe.
struct ProbeMemory
{
    QString key;            // the drive's key in the store; empty: cannot be told apart
    bool saved = false;     // the verdict's size and offset are now remembered
    bool forgotten = false; // an earlier measurement was dropped
    QString note;           // one sentence for people (empty when there is nothing to say)
};

// Everything one probe gave: what was timed, what it means, what is now remembered. `writes`
// counts the timed writes (a report read back from JSON has no samples to count).
struct ProbeReport
{
    SectorProbeRun run;
    ProbeVerdict verdict;
    ProbeMemory memory;
    int writes = 0;
};

// Applies the rule above for the drive at `devicePath`.
ProbeMemory rememberProbeVerdict(const QString &devicePath, const SectorProbeRun &run,
                                 const ProbeVerdict &verdict,
                                 const QDateTime &when = QDateTime::currentDateTimeUtc());

// The device object of `probe --json` (see README): the drive's facts, the measured size and
// offset (null unless a penalty was measured), and a "probe" object with every timing.
QJsonObject probeToJson(const SectorProbeRun &run, const ProbeVerdict &verdict,
                        const ProbeMemory &memory);
// Reads probeToJson()'s object back (a helper's answer, so nothing in it is trusted): the
// run's facts and places, the verdict with every timing, and what was remembered; the
// samples themselves are not in it. False, with the first wrong field in `error`, when the
// object is not one probeToJson() could have written.
bool probeReportFromJson(const QJsonObject &device, ProbeReport *report, QString *error);
// The same for people: what was probed, the verdict, the table of times.
QString probeToText(const SectorProbeRun &run, const ProbeVerdict &verdict,
                    const ProbeMemory &memory);

// The question asked before writing.
QString probeQuestion(const QString &target, int places, qint64 budgetMs);

} // namespace partwise
