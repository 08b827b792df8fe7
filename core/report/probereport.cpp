#include "report/probereport.h"

#include "base/humansize.h"
#include "device/drivemeasurements.h"
#include "probe/probeplaces.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace partwise {

namespace {

QJsonValue measuredOrNull(const ProbeVerdict &v, qint64 value)
{
    return v.kind == ProbeVerdict::Kind::Penalty ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QString outcomeName(SectorProbeRun::Outcome o)
{
    switch (o) {
    case SectorProbeRun::Outcome::Measured:
        return QStringLiteral("measured");
    case SectorProbeRun::Outcome::Refused:
        return QStringLiteral("refused");
    case SectorProbeRun::Outcome::Cancelled:
        return QStringLiteral("cancelled");
    case SectorProbeRun::Outcome::Failed:
        break;
    }
    return QStringLiteral("failed");
}

QString verdictName(ProbeVerdict::Kind k)
{
    switch (k) {
    case ProbeVerdict::Kind::Penalty:
        return QStringLiteral("penalty");
    case ProbeVerdict::Kind::Unclear:
        return QStringLiteral("unclear");
    case ProbeVerdict::Kind::NoPenalty:
        break;
    }
    return QStringLiteral("none");
}

double rounded(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

// "free space, partition 2 (ext4, not in use)": what the places are, each kind once.
QString placeKinds(const QList<ProbePlace> &places)
{
    QStringList kinds;
    for (const ProbePlace &p : places)
        if (!kinds.contains(p.where))
            kinds << p.where;
    return kinds.join(QStringLiteral(", "));
}

QString milliseconds(double micros)
{
    return QStringLiteral("%1 ms").arg(micros / 1000.0, 0, 'f', micros < 10000 ? 3 : 1);
}

QString unitName(qint64 bytes)
{
    return QStringLiteral("%1 KiB").arg(bytes / 1024);
}

} // namespace

ProbeMemory rememberProbeVerdict(const QString &devicePath, const SectorProbeRun &run,
                                 const ProbeVerdict &verdict, const QDateTime &when)
{
    ProbeMemory m;
    if (run.outcome != SectorProbeRun::Outcome::Measured ||
        verdict.kind == ProbeVerdict::Kind::Unclear)
        return m;
    m.key = driveKey(devicePath);
    if (m.key.isEmpty()) {
        m.note = QStringLiteral("Not remembered: this drive has no WWN, serial or backing file "
                                "to be told apart by.");
        return m;
    }
    QString error;
    if (verdict.kind == ProbeVerdict::Kind::Penalty) {
        DriveMeasurement measurement;
        measurement.physicalSectorSize = verdict.physicalSectorSize;
        measurement.alignmentOffset = verdict.alignmentOffset;
        measurement.penaltyRatio = rounded(verdict.ratio, 2);
        measurement.measuredAt = when;
        m.saved = saveDriveMeasurement(m.key, measurement, &error);
        m.note = m.saved ? QStringLiteral("Remembered for this drive (%1): check, create and "
                                          "realign use it where it is larger than what the "
                                          "drive reports.")
                               .arg(m.key)
                         : error;
        return m;
    }
    const std::optional<DriveMeasurement> earlier = loadDriveMeasurement(m.key);
    if (!earlier)
        return m;
    m.forgotten = forgetDriveMeasurement(m.key, &error);
    const QString date = earlier->measuredAt.isValid()
                             ? QStringLiteral(", ") + earlier->measuredAt.toString(Qt::ISODate)
                             : QString();
    m.note = m.forgotten
                 ? QStringLiteral("The earlier measurement (%1 bytes, offset %2%3) is "
                                  "forgotten: Partwise assumes at least 4096-byte sectors again.")
                       .arg(earlier->physicalSectorSize)
                       .arg(earlier->alignmentOffset)
                       .arg(date)
                 : error;
    return m;
}

QJsonObject probeToJson(const SectorProbeRun &run, const ProbeVerdict &verdict,
                        const ProbeMemory &memory)
{
    const bool measured = run.outcome == SectorProbeRun::Outcome::Measured;
    QJsonObject probe;
    probe[QStringLiteral("outcome")] = outcomeName(run.outcome);
    probe[QStringLiteral("reason")] =
        run.reason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(run.reason);
    probe[QStringLiteral("verdict")] =
        measured ? QJsonValue(verdictName(verdict.kind)) : QJsonValue(QJsonValue::Null);
    probe[QStringLiteral("sentence")] =
        measured ? QJsonValue(verdict.sentence) : QJsonValue(QJsonValue::Null);
    probe[QStringLiteral("penalty_ratio")] =
        measured && verdict.kind != ProbeVerdict::Kind::NoPenalty
            ? QJsonValue(rounded(verdict.ratio, 2))
            : QJsonValue(QJsonValue::Null);
    probe[QStringLiteral("deciding_unit_bytes")] = verdict.decidingUnit;
    probe[QStringLiteral("whole_write_us")] = rounded(verdict.wholeMicros, 1);
    probe[QStringLiteral("straddling_write_us")] = rounded(verdict.straddlingMicros, 1);
    probe[QStringLiteral("places_agreeing")] = verdict.placesAgreeing;
    probe[QStringLiteral("places_total")] = verdict.placesTotal;
    probe[QStringLiteral("write_mode")] = probeWriteModeName(run.writeMode);
    probe[QStringLiteral("window_bytes")] = run.windowBytes;
    probe[QStringLiteral("rounds")] = run.roundsDone;
    probe[QStringLiteral("writes")] = run.samples.size();
    probe[QStringLiteral("duration_ms")] = run.elapsedMs;
    QJsonArray places;
    for (const ProbePlace &p : run.places)
        places.append(QJsonObject{{QStringLiteral("offset_bytes"), p.offsetBytes},
                                  {QStringLiteral("where"), p.where}});
    probe[QStringLiteral("places")] = places;
    QJsonArray timings;
    for (const ProbeTiming &t : verdict.timings)
        timings.append(QJsonObject{{QStringLiteral("unit_bytes"), t.unitBytes},
                                   {QStringLiteral("offset_bytes"), t.offsetBytes},
                                   {QStringLiteral("median_us"), rounded(t.medianMicros, 1)},
                                   {QStringLiteral("samples"), t.samples},
                                   {QStringLiteral("straddles"), t.straddles}});
    probe[QStringLiteral("timings")] = timings;
    probe[QStringLiteral("notes")] = QJsonArray::fromStringList(run.notes);
    probe[QStringLiteral("drive_key")] =
        memory.key.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(memory.key);
    probe[QStringLiteral("saved")] = memory.saved;
    probe[QStringLiteral("forgotten")] = memory.forgotten;

    QJsonObject device;
    device[QStringLiteral("path")] = run.path;
    device[QStringLiteral("model")] = run.model;
    device[QStringLiteral("size_bytes")] = run.sizeBytes;
    device[QStringLiteral("logical_sector_size")] = run.logicalSectorSize;
    device[QStringLiteral("physical_sector_size_reported")] = run.physicalSectorSizeReported;
    device[QStringLiteral("alignment_offset")] = run.alignmentOffsetReported;
    device[QStringLiteral("physical_sector_size_measured")] =
        measured ? measuredOrNull(verdict, verdict.physicalSectorSize)
                 : QJsonValue(QJsonValue::Null);
    device[QStringLiteral("alignment_offset_measured")] =
        measured ? measuredOrNull(verdict, verdict.alignmentOffset) : QJsonValue(QJsonValue::Null);
    device[QStringLiteral("probe")] = probe;
    return device;
}

QString probeToText(const SectorProbeRun &run, const ProbeVerdict &verdict,
                    const ProbeMemory &memory)
{
    QString text;
    QTextStream s(&text);
    s << QStringLiteral("Timing probe of %1 (%2, %3-byte logical sectors; the kernel reports "
                        "%4-byte physical sectors at offset %5)\n")
             .arg(run.path, humanSize(run.sizeBytes))
             .arg(run.logicalSectorSize)
             .arg(run.physicalSectorSizeReported)
             .arg(run.alignmentOffsetReported);
    s << QStringLiteral("  %1 places (%2), %3 rounds, %4 writes in %5 s, %6\n")
             .arg(run.places.size())
             .arg(placeKinds(run.places))
             .arg(run.roundsDone)
             .arg(run.samples.size())
             .arg(double(run.elapsedMs) / 1000.0, 0, 'f', 1)
             .arg(probeWriteModeName(run.writeMode));
    for (const QString &note : run.notes)
        s << "  " << note << "\n";
    s << "\n" << verdict.sentence << "\n\n";
    s << QStringLiteral("  %1  %2  %3  %4\n")
             .arg(QStringLiteral("unit"), 6)
             .arg(QStringLiteral("offset"), 6)
             .arg(QStringLiteral("median"), 10)
             .arg(QStringLiteral("writes"), 6);
    for (const ProbeTiming &t : verdict.timings)
        s << QStringLiteral("  %1  %2  %3  %4%5\n")
                 .arg(unitName(t.unitBytes), 6)
                 .arg(t.offsetBytes, 6)
                 .arg(milliseconds(t.medianMicros), 10)
                 .arg(t.samples, 6)
                 .arg(t.straddles ? QStringLiteral("  straddles") : QString());
    if (!memory.note.isEmpty())
        s << "\n" << memory.note << "\n";
    return text;
}

QString probeQuestion(const QString &target, int places, qint64 budgetMs)
{
    return QStringLiteral("The probe rewrites %1 small windows of free space or unused "
                          "partitions on %2 with the bytes already there, for up to about %3 s. "
                          "A power cut during a write could damage the sector being written. "
                          "Go on?")
        .arg(places)
        .arg(target)
        .arg((budgetMs + 999) / 1000);
}

} // namespace partwise
