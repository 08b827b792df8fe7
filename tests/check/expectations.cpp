#include "expectations.h"

#include "blkidprobe.h"
#include "toolrun.h"

#include <QDebug>
#include <QJsonArray>
#include <QRegularExpression>

namespace pwtest {

namespace {

QString jsonText(const QJsonValue &v)
{
    return v.isString() ? v.toString() : QString();
}

// Appends "context: field is X, expected Y" when the values differ.
template <typename T>
void expectEqual(QStringList &problems, const QString &context, const char *field, const T &actual,
                 const T &expected)
{
    if (actual == expected)
        return;
    QString a, e;
    QDebug(&a).noquote() << actual;
    QDebug(&e).noquote() << expected;
    problems << QStringLiteral("%1: %2 is %3, expected %4")
                    .arg(context, QLatin1String(field), a.trimmed(), e.trimmed());
}

} // namespace

int Policy::physicalAssumed() const
{
    return trustDrive ? physicalReported : qMax(physicalReported, 4096);
}

ExpectedStatus expectedStatus(const SfdiskPartition &p, const Policy &policy)
{
    // misalignment_bytes is pure geometry (ARCHITECTURE.md), so a container reports it too.
    const qint64 firstByte = p.start * policy.logicalSectorSize;
    const qint64 past = firstByte % policy.physicalAssumed();
    if (p.kind == QLatin1String("extended"))
        return {QStringLiteral("container"), past};
    if (past != 0)
        return {QStringLiteral("misaligned"), past};
    if (firstByte % policy.grainBytes == 0)
        return {QStringLiteral("aligned"), 0};
    return {QStringLiteral("sector-aligned"), 0};
}

SfdiskTable expectedTable(const Fixture &fixture)
{
    if (fixture.logicalSectorSize == 512)
        return SfdiskTable::read(fixture.path);
    return SfdiskTable::readWithSectorSize(fixture.path, fixture.logicalSectorSize);
}

int expectedExitCode(const SfdiskTable &table, const Policy &policy)
{
    for (const SfdiskPartition &p : table.partitions)
        if (expectedStatus(p, policy).status == QLatin1String("misaligned"))
            return 1;
    return 0;
}

QStringList verifyDevice(const QJsonObject &device, const SfdiskTable &table, const Policy &policy,
                         qint64 deviceBytes)
{
    QStringList problems;
    if (device.isEmpty())
        return {QStringLiteral("device missing from the JSON")};
    const QString d = QStringLiteral("device");
    for (const char *key :
         {"path", "model", "size_bytes", "logical_sector_size", "physical_sector_size_reported",
          "physical_sector_size_assumed", "alignment_offset", "grain_bytes", "table", "partitions"})
        if (!device.contains(QLatin1String(key)))
            problems << QStringLiteral("device: no \"%1\" field").arg(QLatin1String(key));
    expectEqual(problems, d, "logical_sector_size",
                device.value(QStringLiteral("logical_sector_size")).toInteger(),
                qint64(table.sectorSize));
    expectEqual(problems, d, "physical_sector_size_reported",
                device.value(QStringLiteral("physical_sector_size_reported")).toInteger(),
                qint64(policy.physicalReported));
    expectEqual(problems, d, "physical_sector_size_assumed",
                device.value(QStringLiteral("physical_sector_size_assumed")).toInteger(),
                qint64(policy.physicalAssumed()));
    expectEqual(problems, d, "alignment_offset",
                device.value(QStringLiteral("alignment_offset")).toInteger(-1), qint64(0));
    expectEqual(problems, d, "grain_bytes", device.value(QStringLiteral("grain_bytes")).toInteger(),
                policy.grainBytes);
    expectEqual(problems, d, "size_bytes", device.value(QStringLiteral("size_bytes")).toInteger(),
                deviceBytes);
    expectEqual(problems, d, "table", jsonText(device.value(QStringLiteral("table"))),
                table.partedLabel());
    const QJsonArray parts = device.value(QStringLiteral("partitions")).toArray();
    expectEqual(problems, d, "partition count", qint64(parts.size()),
                qint64(table.partitions.size()));

    for (const SfdiskPartition &p : table.partitions) {
        const QString c = QStringLiteral("partition %1 (start %2)").arg(p.number).arg(p.start);
        QJsonObject j;
        for (const QJsonValue v : parts)
            if (v.toObject().value(QStringLiteral("number")).toInt() == p.number)
                j = v.toObject();
        if (j.isEmpty()) {
            problems << c + QStringLiteral(": missing from the JSON");
            continue;
        }
        for (const char *key : {"filesystem", "label", "uuid"})
            if (!j.contains(QLatin1String(key)))
                problems << c + QStringLiteral(": no \"%1\" field").arg(QLatin1String(key));
        const ExpectedStatus want = expectedStatus(p, policy);
        expectEqual(problems, c, "kind", jsonText(j.value(QStringLiteral("kind"))), p.kind);
        expectEqual(problems, c, "start_sector",
                    j.value(QStringLiteral("start_sector")).toInteger(), p.start);
        expectEqual(problems, c, "end_sector", j.value(QStringLiteral("end_sector")).toInteger(),
                    p.end());
        expectEqual(problems, c, "size_bytes", j.value(QStringLiteral("size_bytes")).toInteger(),
                    p.size * table.sectorSize);
        expectEqual(problems, c, "status", jsonText(j.value(QStringLiteral("status"))),
                    want.status);
        expectEqual(problems, c, "misalignment_bytes",
                    j.value(QStringLiteral("misalignment_bytes")).toInteger(-1),
                    want.misalignmentBytes);
    }
    return problems;
}

QStringList verifyFilesystems(const QJsonObject &device, const SfdiskTable &table,
                              const QString &target, bool nodes)
{
    QStringList problems;
    const QJsonArray parts = device.value(QStringLiteral("partitions")).toArray();
    for (const SfdiskPartition &p : table.partitions) {
        if (p.kind == QLatin1String("extended"))
            continue;
        const BlkidInfo want =
            nodes ? blkidProbe(target + QLatin1Char('p') + QString::number(p.number))
                  : blkidProbe(target, p.start * table.sectorSize);
        if (!want.error.isEmpty()) {
            problems << QStringLiteral("blkid failed: %1").arg(want.error);
            continue;
        }
        QJsonObject j;
        for (const QJsonValue v : parts)
            if (v.toObject().value(QStringLiteral("number")).toInt() == p.number)
                j = v.toObject();
        const QString c = QStringLiteral("partition %1").arg(p.number);
        expectEqual(problems, c, "filesystem", jsonText(j.value(QStringLiteral("filesystem"))),
                    want.type);
        expectEqual(problems, c, "label", jsonText(j.value(QStringLiteral("label"))), want.label);
        expectEqual(problems, c, "uuid", jsonText(j.value(QStringLiteral("uuid"))), want.uuid);
    }
    return problems;
}

QStringList verifyPartedOptimal(const QJsonObject &device, const SfdiskTable &table,
                                const QString &target)
{
    QStringList problems;
    const QJsonArray parts = device.value(QStringLiteral("partitions")).toArray();
    const qsizetype count = table.partitions.size();
    for (qsizetype i = 0; i < count; ++i) {
        const SfdiskPartition &p = table.partitions[i];
        if (p.kind == QLatin1String("extended"))
            continue;
        // parted takes ~0.5 s per call on a loop device with 100+ partition nodes: on big
        // tables sample the first 8, the last and every start that is off the 1 MiB grain.
        const bool onMiB = p.start * table.sectorSize % (1024 * 1024) == 0;
        if (count > 16 && i >= 8 && i != count - 1 && onMiB)
            continue;
        const ToolResult r = runTool(QStringLiteral("parted"),
                                     {QStringLiteral("-s"), target, QStringLiteral("align-check"),
                                      QStringLiteral("opt"), QString::number(p.number)});
        if (!r.started || r.crashed || r.exitCode > 1) {
            problems << r.describe();
            continue;
        }
        QString status;
        for (const QJsonValue v : parts)
            if (v.toObject().value(QStringLiteral("number")).toInt() == p.number)
                status = v.toObject().value(QStringLiteral("status")).toString();
        if ((r.exitCode == 0) != (status == QLatin1String("aligned")))
            problems << QStringLiteral(
                            "partition %1: parted align-check opt says %2, check says %3")
                            .arg(p.number)
                            .arg(r.exitCode == 0 ? QStringLiteral("aligned")
                                                 : QStringLiteral("not aligned"),
                                 status);
    }
    return problems;
}

QStringList verifyHumanOutput(const QString &text, const SfdiskTable &table, const Policy &policy)
{
    QStringList problems;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const SfdiskPartition &p : table.partitions) {
        const QRegularExpression number(QStringLiteral("(^|\\s)%1(\\s|$)").arg(p.number));
        const QRegularExpression start(QStringLiteral("(^|\\s)%1s?(\\s|$)").arg(p.start));
        const ExpectedStatus want = expectedStatus(p, policy);
        const QString phrase = QStringLiteral("misaligned by %1 bytes").arg(want.misalignmentBytes);
        bool row = false;
        bool phraseFound = false;
        for (int i = 0; i < lines.size(); ++i) {
            if (lines[i].contains(number) && lines[i].contains(start)) {
                row = true;
                // The phrase may sit in the row or on a note line right under it.
                phraseFound = phraseFound || lines[i].contains(phrase) ||
                              (i + 1 < lines.size() && lines[i + 1].contains(phrase));
            }
        }
        if (!row)
            problems
                << QStringLiteral("no row with number %1 and start %2").arg(p.number).arg(p.start);
        else if (want.status == QLatin1String("misaligned") && !phraseFound)
            problems
                << QStringLiteral("row of partition %1 lacks \"%2\"").arg(p.number).arg(phrase);
    }
    return problems;
}

} // namespace pwtest
