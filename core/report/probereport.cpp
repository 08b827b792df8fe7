#include "report/probereport.h"

#include "base/humansize.h"
#include "device/drivemeasurements.h"
#include "probe/probeplaces.h"
#include "report/jsonreader.h"

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
    // The sector the verdict speaks of, also when it is unclear (the sentence names it).
    const bool candidate = measured && verdict.kind != ProbeVerdict::Kind::NoPenalty;
    probe[QStringLiteral("sector_size_bytes")] =
        candidate ? QJsonValue(verdict.physicalSectorSize) : QJsonValue(QJsonValue::Null);
    probe[QStringLiteral("offset_bytes")] =
        candidate ? QJsonValue(verdict.alignmentOffset) : QJsonValue(QJsonValue::Null);
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
    probe[QStringLiteral("memory_note")] =
        memory.note.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(memory.note);

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

namespace {

template <typename T>
bool readName(const QString &name, std::initializer_list<T> values, QString (*nameOf)(T), T *out)
{
    for (const T v : values)
        if (nameOf(v) == name) {
            *out = v;
            return true;
        }
    return false;
}

void readVerdict(JsonReader &p, ProbeReport *report, QString *error)
{
    constexpr qint64 kBig = qint64(1) << 48;
    ProbeVerdict &v = report->verdict;
    v.logicalSectorSize = report->run.logicalSectorSize;
    if (report->run.outcome == SectorProbeRun::Outcome::Measured &&
        !readName(p.string("verdict"),
                  {ProbeVerdict::Kind::Penalty, ProbeVerdict::Kind::Unclear,
                   ProbeVerdict::Kind::NoPenalty},
                  verdictName, &v.kind) &&
        error->isEmpty())
        *error = QStringLiteral("the probe's \"verdict\" is not one Partwise knows");
    v.sentence = p.optionalString("sentence");
    v.ratio = p.optionalNumber("penalty_ratio", 0, 1e9).value_or(1.0);
    v.physicalSectorSize = p.optionalInteger("sector_size_bytes", 0, 1 << 24).value_or(0);
    v.alignmentOffset = p.optionalInteger("offset_bytes", 0, 1 << 24).value_or(0);
    v.decidingUnit = p.integer("deciding_unit_bytes", 0, 1 << 24);
    v.wholeMicros = p.number("whole_write_us", 0, 1e12);
    v.straddlingMicros = p.number("straddling_write_us", 0, 1e12);
    v.placesAgreeing = int(p.integer("places_agreeing", 0, 1 << 16));
    v.placesTotal = int(p.integer("places_total", 0, 1 << 16));
    int n = 0;
    for (const QJsonValue &t : p.array("timings", 4096)) {
        JsonReader r(t.toObject(), QStringLiteral("timing %1's").arg(n++), error);
        ProbeTiming timing;
        timing.unitBytes = r.integer("unit_bytes", 0, 1 << 24);
        timing.offsetBytes = r.integer("offset_bytes", 0, 1 << 24);
        timing.medianMicros = r.number("median_us", 0, 1e12);
        timing.samples = int(r.integer("samples", 0, kBig));
        timing.straddles = r.boolean("straddles");
        v.timings << timing;
    }
}

} // namespace

bool probeReportFromJson(const QJsonObject &device, ProbeReport *report, QString *error)
{
    error->clear();
    *report = ProbeReport();
    constexpr qint64 kBig = qint64(1) << 62;
    JsonReader d(device, QStringLiteral("the probed device's"), error);
    SectorProbeRun &run = report->run;
    run.path = d.string("path");
    run.model = d.string("model");
    run.sizeBytes = d.integer("size_bytes", 0, kBig);
    run.logicalSectorSize = d.integer("logical_sector_size", 512, 65536);
    run.physicalSectorSizeReported = d.integer("physical_sector_size_reported", 512, 1 << 24);
    run.alignmentOffsetReported = d.integer("alignment_offset", -1, 1 << 24);
    JsonReader p(d.object("probe"), QStringLiteral("the probe's"), error);
    if (!readName(p.string("outcome"),
                  {SectorProbeRun::Outcome::Measured, SectorProbeRun::Outcome::Refused,
                   SectorProbeRun::Outcome::Cancelled, SectorProbeRun::Outcome::Failed},
                  outcomeName, &run.outcome) &&
        error->isEmpty())
        *error = QStringLiteral("the probe's \"outcome\" is not one Partwise knows");
    run.reason = p.optionalString("reason");
    const QString mode = p.string("write_mode");
    run.writeMode = mode == probeWriteModeName(ProbeWriteMode::DirectFdatasync)
                        ? ProbeWriteMode::DirectFdatasync
                        : ProbeWriteMode::DirectDsync;
    run.windowBytes = p.integer("window_bytes", 0, kBig);
    run.roundsDone = int(p.integer("rounds", 0, 1 << 20));
    report->writes = int(p.integer("writes", 0, 1 << 30));
    run.elapsedMs = p.integer("duration_ms", 0, kBig);
    int n = 0;
    for (const QJsonValue &place : p.array("places", 4096)) {
        JsonReader r(place.toObject(), QStringLiteral("place %1's").arg(n++), error);
        run.places << ProbePlace{r.integer("offset_bytes", 0, kBig), r.string("where")};
    }
    run.notes = p.strings("notes");
    readVerdict(p, report, error);
    report->memory.key = p.optionalString("drive_key");
    report->memory.saved = p.boolean("saved");
    report->memory.forgotten = p.boolean("forgotten");
    report->memory.note = p.optionalString("memory_note");
    return error->isEmpty();
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
