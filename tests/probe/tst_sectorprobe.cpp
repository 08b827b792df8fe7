// `partwise-cli probe` against real block devices: lying drives (a FUSE file that delays every
// write not covering whole emulated physical sectors, attached as a loop device with direct
// I/O) of several sizes and offsets, a plain loop device, and targets it must refuse (an image
// file, a read-only device, a partition, a disk in use). Every byte of every device must be the
// same afterwards, and a penalty found must be remembered under the drive's key. Root only;
// under CI=true these run, never skip.
#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "lyingdrivefixture.h"
#include "toolrun.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;

// A 64 MiB image full of pseudo-random bytes (so a byte put back wrong cannot go unnoticed)
// under a GPT made by sfdisk from `script`.
bool makeImage(const QString &path, const QString &script, quint32 seed, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        *error = f.errorString();
        return false;
    }
    QRandomGenerator random(seed);
    QByteArray chunk(int(kMiB), Qt::Uninitialized);
    for (int i = 0; i < 64; ++i) {
        random.fillRange(reinterpret_cast<quint32 *>(chunk.data()), chunk.size() / 4);
        f.write(chunk);
    }
    f.close();
    const ToolResult r =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("--quiet"), path}, script.toUtf8());
    if (!r.ok())
        *error = r.describe();
    return r.ok();
}

// SHA-256 of bytes [from, to) of a file.
QByteArray rangeSha256(const QString &path, qint64 from, qint64 to)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(from))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(f.read(to - from));
    return hash.result().toHex();
}

QJsonObject readStore(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object()
                                       : QJsonObject();
}

QString loopKey(const QString &backing)
{
    return QStringLiteral("loop:") + QFileInfo(backing).canonicalFilePath();
}

const char *const kOnePartition = "label: gpt\nstart=32768, size=49152, type=linux\n";

} // namespace

class TestSectorProbe : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void lyingDrives_data();
    void lyingDrives();
    void plainLoopHasNoPenalty();
    void mountedPartitionIsLeftAlone();
    void refusesImageFile();
    void refusesReadOnlyDevice();
    void refusesPartition();
    void refusesDiskInUse();
    void asksBeforeWriting();

private:
    QString image(const QString &name, const QString &script = QLatin1String(kOnePartition));
    CliResult probe(const QString &target, bool json = true);

    QTemporaryDir m_dir;
    QString m_store;
    quint32 m_seed = 1;
};

void TestSectorProbe::initTestCase()
{
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(m_dir.isValid());
    m_store = m_dir.filePath(QStringLiteral("drives.json"));
    qputenv("PARTWISE_DRIVE_STORE", QFile::encodeName(m_store)); // partwise-cli inherits it
}

QString TestSectorProbe::image(const QString &name, const QString &script)
{
    const QString path = m_dir.filePath(name);
    QString error;
    if (!makeImage(path, script, m_seed++, &error))
        qWarning("%s", qPrintable(error));
    return path;
}

CliResult TestSectorProbe::probe(const QString &target, bool json)
{
    QStringList args{QStringLiteral("probe"), QStringLiteral("--yes")};
    if (json)
        args << QStringLiteral("--json");
    return runCli(args << target);
}

void TestSectorProbe::lyingDrives_data()
{
    QTest::addColumn<qint64>("physical");
    QTest::addColumn<qint64>("offset");
    QTest::newRow("4096/0") << qint64(4096) << qint64(0);
    QTest::newRow("4096/3584 (XP jumper: LBA 63 on a boundary)") << qint64(4096) << qint64(3584);
    QTest::newRow("8192/0") << qint64(8192) << qint64(0);
    QTest::newRow("16384/0") << qint64(16384) << qint64(0);
    QTest::newRow("32768/12288") << qint64(32768) << qint64(12288);
}

void TestSectorProbe::lyingDrives()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QFETCH(qint64, physical);
    QFETCH(qint64, offset);
    const QString name = QStringLiteral("lying-%1-%2").arg(physical).arg(offset);
    const QString backing = image(name + QStringLiteral(".img"));
    const QByteArray before = fileSha256(backing);
    QVERIFY(!before.isEmpty());
    {
        LyingDriveSpec spec;
        spec.physical = physical;
        spec.offset = offset;
        spec.penaltyMs = 2; // the smallest the issue asks for
        LyingDrive drive(pwtest::buildSetting("LYING_DRIVE"), backing, m_dir.filePath(name), spec);
        QVERIFY2(drive.ok(), qPrintable(drive.error()));
        QVERIFY2(drive.directIo(), "the loop device did not take --direct-io=on");

        QElapsedTimer clock;
        clock.start();
        const CliResult r = probe(drive.device());
        const qint64 took = clock.elapsed();
        QVERIFY2(r.exitCode == 0 && r.jsonValid, qPrintable(r.describe()));
        const QJsonObject device = r.device(drive.device());
        const QJsonObject p = device.value(QStringLiteral("probe")).toObject();
        qInfo("%s: %s (%lld ms, %d writes)", qPrintable(name),
              qPrintable(p.value(QStringLiteral("sentence")).toString()), took,
              p.value(QStringLiteral("writes")).toInt());
        QCOMPARE(device.value(QStringLiteral("physical_sector_size_measured")).toInteger(),
                 physical);
        QCOMPARE(device.value(QStringLiteral("alignment_offset_measured")).toInteger(), offset);
        QCOMPARE(device.value(QStringLiteral("physical_sector_size_reported")).toInteger(), 512);
        QCOMPARE(p.value(QStringLiteral("verdict")).toString(), QStringLiteral("penalty"));
        QVERIFY(p.value(QStringLiteral("penalty_ratio")).toDouble() >= 1.5);
        QVERIFY(took < 15000);
        // The table: every straddling write is slower than every whole one of its unit.
        for (const QJsonValue &t : p.value(QStringLiteral("timings")).toArray()) {
            const qint64 from = t[QStringLiteral("offset_bytes")].toInteger();
            const qint64 to = from + t[QStringLiteral("unit_bytes")].toInteger();
            const bool whole = (from - offset) % physical == 0 && (to - offset) % physical == 0;
            QCOMPARE(t[QStringLiteral("straddles")].toBool(), !whole);
            if (!whole) // 2 ms of penalty at least
                QVERIFY(t[QStringLiteral("median_us")].toDouble() >= 2000);
        }
        // Remembered under the loop device's backing file.
        QVERIFY(p.value(QStringLiteral("saved")).toBool());
        const QJsonObject stored = readStore(m_store).value(loopKey(drive.file())).toObject();
        QCOMPARE(stored.value(QStringLiteral("physical_sector_size")).toInteger(), physical);
        QCOMPARE(stored.value(QStringLiteral("alignment_offset")).toInteger(), offset);
        // And check reads it back for the drive (the fields README.md's probe section names).
        const CliResult c =
            runCli({QStringLiteral("check"), QStringLiteral("--json"), drive.device()});
        QVERIFY2(c.jsonValid, qPrintable(c.describe()));
        const QJsonObject checked = c.device(drive.device());
        QCOMPARE(checked.value(QStringLiteral("physical_sector_size_measured")).toInteger(),
                 physical);
        QCOMPARE(checked.value(QStringLiteral("alignment_offset_measured")).toInteger(), offset);
    }
    QCOMPARE(fileSha256(backing), before);
}

void TestSectorProbe::plainLoopHasNoPenalty()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = image(QStringLiteral("plain.img"));
    const QByteArray before = fileSha256(img);
    {
        LoopDevice loop(img);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        // A stale measurement of this drive: a probe that finds no penalty forgets it.
        QFile store(m_store);
        QJsonObject all = readStore(m_store);
        all.insert(loopKey(img), QJsonObject{{QStringLiteral("physical_sector_size"), 4096},
                                             {QStringLiteral("alignment_offset"), 0}});
        QVERIFY(store.open(QIODevice::WriteOnly | QIODevice::Truncate));
        store.write(QJsonDocument(all).toJson());
        store.close();

        const CliResult r = probe(loop.path(), false);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        qInfo("plain loop: %s", r.out.constData());
        QVERIFY(r.out.contains("No penalty measured: the drive behaves like 512-byte sectors "
                               "here, or a cache hides it."));
        QVERIFY(r.out.contains("is forgotten"));
        QVERIFY(!readStore(m_store).contains(loopKey(img)));

        const CliResult j = probe(loop.path());
        QVERIFY2(j.exitCode == 0 && j.jsonValid, qPrintable(j.describe()));
        const QJsonObject device = j.device(loop.path());
        QVERIFY(device.value(QStringLiteral("physical_sector_size_measured")).isNull());
        QVERIFY(device.value(QStringLiteral("alignment_offset_measured")).isNull());
        QCOMPARE(device[QStringLiteral("probe")][QStringLiteral("verdict")].toString(),
                 QStringLiteral("none"));
    }
    QCOMPARE(fileSha256(img), before);
}

void TestSectorProbe::mountedPartitionIsLeftAlone()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = image(QStringLiteral("mounted.img"));
    LoopDevice loop(img);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY2(loop.addPartitions(), qPrintable(loop.error()));
    const QString node = loop.partitionNode(1);
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), node}).ok());
    const QString mnt = m_dir.filePath(QStringLiteral("mnt"));
    QDir().mkpath(mnt);
    QVERIFY(
        runTool(QStringLiteral("mount"), {QStringLiteral("-o"), QStringLiteral("ro"), node, mnt})
            .ok());
    const qint64 partStart = 32768 * 512LL, partEnd = partStart + 49152 * 512LL;
    const QByteArray head = rangeSha256(img, 0, partStart);
    const QByteArray tail = rangeSha256(img, partEnd, 64 * kMiB);

    const CliResult r = probe(loop.path());
    runTool(QStringLiteral("umount"), {mnt});
    QVERIFY2(r.exitCode == 0 && r.jsonValid, qPrintable(r.describe()));
    const QJsonObject p = r.device(loop.path())[QStringLiteral("probe")].toObject();
    QVERIFY(!p[QStringLiteral("places")].toArray().isEmpty());
    for (const QJsonValue &place : p[QStringLiteral("places")].toArray()) {
        const qint64 at = place[QStringLiteral("offset_bytes")].toInteger();
        QVERIFY2(at + 65536 <= partStart || at >= partEnd, qPrintable(QString::number(at)));
        QCOMPARE(place[QStringLiteral("where")].toString(), QStringLiteral("free space"));
    }
    QVERIFY(p[QStringLiteral("notes")].toArray().first().toString().contains(
        QStringLiteral("is mounted on")));
    QCOMPARE(rangeSha256(img, 0, partStart), head);
    QCOMPARE(rangeSha256(img, partEnd, 64 * kMiB), tail);
}

void TestSectorProbe::refusesImageFile()
{
    const QString img = image(QStringLiteral("file.img"));
    const QByteArray before = fileSha256(img);
    const CliResult r = probe(img);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("is not a block device"));
    QVERIFY(r.jsonValid);
    QVERIFY(r.devices().isEmpty());
    QCOMPARE(r.json[QStringLiteral("errors")][0][QStringLiteral("path")].toString(), img);
    const CliResult missing = probe(m_dir.filePath(QStringLiteral("nothing.img")), false);
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains("does not exist"));
    QCOMPARE(fileSha256(img), before);
}

void TestSectorProbe::refusesReadOnlyDevice()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = image(QStringLiteral("readonly.img"));
    LoopDevice loop(img, 0, true);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const CliResult r = probe(loop.path(), false);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("is read-only"), r.err.constData());
}

void TestSectorProbe::refusesPartition()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = image(QStringLiteral("partition.img"));
    LoopDevice loop(img);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    const CliResult r = probe(loop.partitionNode(1), false);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("is a partition"), r.err.constData());
}

void TestSectorProbe::refusesDiskInUse()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    // One partition filling the disk, mounted: no room left outside it.
    const QString img = image(QStringLiteral("full.img"), QStringLiteral("label: gpt\n,,linux\n"));
    const QByteArray before = fileSha256(img);
    const QString mnt = m_dir.filePath(QStringLiteral("full-mnt"));
    QDir().mkpath(mnt);
    {
        LoopDevice loop(img);
        QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
        QVERIFY(runTool(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), loop.partitionNode(1)})
                    .ok());
        const QByteArray formatted = fileSha256(img);
        QVERIFY(runTool(QStringLiteral("mount"),
                        {QStringLiteral("-o"), QStringLiteral("ro"), loop.partitionNode(1), mnt})
                    .ok());
        const CliResult r = probe(loop.path());
        runTool(QStringLiteral("umount"), {mnt});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("Nothing on") && r.err.contains("is mounted on"),
                 r.err.constData());
        QCOMPARE(fileSha256(img), formatted);
    }
    Q_UNUSED(before);
    // A filesystem on the whole disk, mounted: in use as a whole.
    const QString whole = m_dir.filePath(QStringLiteral("whole.img"));
    QVERIFY(
        runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("16M"), whole})
            .ok());
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), whole}).ok());
    LoopDevice loop(whole);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(runTool(QStringLiteral("mount"),
                    {QStringLiteral("-o"), QStringLiteral("ro"), loop.path(), mnt})
                .ok());
    const CliResult r = probe(loop.path(), false);
    runTool(QStringLiteral("umount"), {mnt});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("is in use as a whole"), r.err.constData());
}

void TestSectorProbe::asksBeforeWriting()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = image(QStringLiteral("ask.img"));
    const QByteArray before = fileSha256(img);
    {
        LoopDevice loop(img);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        // No terminal to answer on: not confirmed, nothing written.
        const CliResult r = runCli({QStringLiteral("probe"), loop.path()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("not confirmed"), r.err.constData());
    }
    QCOMPARE(fileSha256(img), before);
}

QTEST_GUILESS_MAIN(TestSectorProbe)
#include "tst_sectorprobe.moc"
