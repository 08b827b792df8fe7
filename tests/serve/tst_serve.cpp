// `partwise-cli serve`, the helper the window will talk to, driven as a client would: every
// method round trip checked against sfdisk and the filesystems' own tools, a job cancelled and
// one whose connection drops, both finished by `resume`. The realignment's plan as the helper
// sends and takes it is in tst_serverealignplan.cpp; hostile input in tst_serveguard.cpp and
// tst_servehostile.cpp.
#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "lyingdrivefixture.h"
#include "ops/realignjson.h"
#include "report/layoutjson.h"
#include "serveclient.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <unistd.h>

using namespace partwise;

using namespace pwtest;

namespace {

constexpr qint64 MiB = 1 << 20;

} // namespace

class TestServe : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void versionAndDisks();
    void readDiskAgreesWithSfdisk();
    void previewWritesNothing();
    void filesystemMinimumIsResize2fsEstimate();
    void applyCreatesAPartition();
    void realignKeepsEveryFile();
    void cancelThenResume();
    void probeReportsProgressAndCancels();
    void droppedConnectionThenResume();
    void libpartedAsksTheClient();
    void oneGrainRuleForCliAndHelper_data();
    void oneGrainRuleForCliAndHelper();

private:
    // 384 MiB from GPT sector 34 holding 64 MiB of random bytes (no filesystem: copied whole).
    QString rawImage(const QString &name, QByteArray *data);
    void checkRawMoved(const QString &image, const QByteArray &data);

    QTemporaryDir m_dir;
};

void TestServe::initTestCase()
{
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
}

QString TestServe::rawImage(const QString &name, QByteArray *data)
{
    const QString image = m_dir.filePath(name);
    QFile file(image);
    if (!file.open(QIODevice::WriteOnly) || !file.resize(400 * MiB))
        return {};
    data->resize(64 * MiB);
    QRandomGenerator(7).fillRange(reinterpret_cast<quint32 *>(data->data()), data->size() / 4);
    if (!file.seek(34 * 512) || file.write(*data) != data->size())
        return {};
    file.close();
    const ToolResult table = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                                     "label: gpt\nfirst-lba: 34\nstart=34, size=786432\n");
    return table.ok() ? image : QString();
}

void TestServe::checkRawMoved(const QString &image, const QByteArray &data)
{
    const SfdiskTable table = SfdiskTable::read(image);
    QVERIFY2(table.ok, qPrintable(table.error));
    QCOMPARE(table.partitions.first().start, 2048); // the next MiB boundary after 34
    QFile file(image);
    QVERIFY(file.open(QIODevice::ReadOnly) && file.seek(2048 * 512));
    QVERIFY2(file.read(data.size()) == data, "the partition's bytes differ after the move");
}

void TestServe::versionAndDisks()
{
    ServeClient client;
    QVERIFY(client.started());
    const QJsonObject version = resultOf(client.call(QStringLiteral("version")));
    QCOMPARE(version.value(QStringLiteral("protocol")).toInt(), 1);
    QVERIFY(!version.value(QStringLiteral("partwise")).toString().isEmpty());
    const QJsonObject disks = client.call(QStringLiteral("list-disks"));
    QVERIFY2(resultOf(disks).value(QStringLiteral("disks")).isArray(), qPrintable(describe(disks)));
}

void TestServe::readDiskAgreesWithSfdisk()
{
    const QString image = makePracticeImage(m_dir.path(), QStringLiteral("read.img"));
    QVERIFY(!image.isEmpty());
    const SfdiskTable table = SfdiskTable::read(image);
    QVERIFY2(table.ok, qPrintable(table.error));
    ServeClient client;
    const QJsonObject answer = client.call(QStringLiteral("read-disk"), {{"path", image}});
    const QJsonObject device = resultOf(answer);
    QVERIFY2(!device.isEmpty(), qPrintable(describe(answer)));
    const QJsonArray partitions = device.value(QStringLiteral("partitions")).toArray();
    QCOMPARE(partitions.size(), table.partitions.size());
    const QJsonObject first = partitions.first().toObject();
    QCOMPARE(first.value(QStringLiteral("start_sector")).toInteger(),
             table.partitions.first().start);
    QCOMPARE(first.value(QStringLiteral("end_sector")).toInteger(), table.partitions.first().end());
    QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("misaligned"));
    // The free space behind it runs to the disk's last sector (128 MiB of 512-byte sectors).
    const QJsonArray free = device.value(QStringLiteral("free_space")).toArray();
    QVERIFY(!free.isEmpty());
    QCOMPARE(free.last().toObject().value(QStringLiteral("start_sector")).toInteger(),
             table.partitions.first().end() + 1);
    QCOMPARE(free.last().toObject().value(QStringLiteral("end_sector")).toInteger(),
             128 * MiB / 512 - 1);
    // The whole layout, for a window: read back, it holds sfdisk's partition and the NTFS.
    DiskLayout layout;
    QString error;
    QVERIFY2(layoutFromJson(device.value(QStringLiteral("layout")).toObject(), &layout, &error),
             qPrintable(error));
    const PartitionInfo *p1 = layout.partitionByNumber(1);
    QVERIFY(p1);
    QCOMPARE(p1->startSector, table.partitions.first().start);
    QCOMPARE(p1->endSector, table.partitions.first().end());
    QCOMPARE(p1->filesystem, QStringLiteral("ntfs"));
    QCOMPARE(layout.device.path, image);
}

void TestServe::previewWritesNothing()
{
    const QString image = makePracticeImage(m_dir.path(), QStringLiteral("preview.img"));
    QVERIFY(!image.isEmpty());
    const QByteArray before = fileSha256(image);
    ServeClient client;
    const QJsonObject plan{
        {"operations", QJsonArray{QJsonObject{{"op", "create"}, {"size", "8MiB"}}}}};
    const QJsonObject answer =
        client.call(QStringLiteral("preview"), {{"path", image}, {"plan", plan}});
    const QJsonObject result = resultOf(answer);
    QVERIFY2(result.value(QStringLiteral("ok")).toBool(), qPrintable(describe(answer)));
    const QJsonArray partitions = result.value(QStringLiteral("device"))
                                      .toObject()
                                      .value(QStringLiteral("partitions"))
                                      .toArray();
    QCOMPARE(partitions.size(), 2);
    QCOMPARE(partitions.last().toObject().value(QStringLiteral("start_sector")).toInteger() % 2048,
             0);
    QCOMPARE(fileSha256(image), before);
    QCOMPARE(SfdiskTable::read(image).partitions.size(), 1);
}

void TestServe::filesystemMinimumIsResize2fsEstimate()
{
    const QString image = m_dir.filePath(QStringLiteral("minimum.img"));
    const CliResult made = runCli({QStringLiteral("practice"), QStringLiteral("modern"), image,
                                   QStringLiteral("--size"), QStringLiteral("128M")});
    QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
    const QByteArray before = fileSha256(image);
    // Partition 2 is ext4: e2fsprogs, reading it at its offset, says how far it shrinks.
    const SfdiskTable table = SfdiskTable::read(image);
    const SfdiskPartition *root = table.find(2);
    QVERIFY(root && table.find(3));
    const QString name = QStringLiteral("%1?offset=%2").arg(image).arg(root->start * 512);
    const ToolResult estimate = runTool(QStringLiteral("resize2fs"), {QStringLiteral("-P"), name});
    const ToolResult header = runTool(QStringLiteral("dumpe2fs"), {QStringLiteral("-h"), name});
    const auto number = [](const QByteArray &text, const char *pattern) {
        return QRegularExpression(QLatin1String(pattern), QRegularExpression::MultilineOption)
            .match(QString::fromUtf8(text))
            .captured(1)
            .toLongLong();
    };
    const qint64 expected = number(estimate.out, "minimum size of the filesystem:\\s*(\\d+)") *
                            number(header.out, "^Block size:\\s+(\\d+)");
    QVERIFY2(expected > 0, qPrintable(estimate.describe() + header.describe()));

    ServeClient client;
    const QJsonObject answer =
        client.call(QStringLiteral("filesystem-minimum"), {{"path", image}, {"partition", 2}});
    const QJsonObject result = resultOf(answer);
    QCOMPARE(result.value(QStringLiteral("filesystem")).toString(), QStringLiteral("ext4"));
    QCOMPARE(result.value(QStringLiteral("minimum_bytes")).toInteger(), expected);
    // Swap cannot shrink unmounted: its own size is the limit. No such partition: an error.
    const QJsonObject swap = resultOf(
        client.call(QStringLiteral("filesystem-minimum"), {{"path", image}, {"partition", 3}}));
    QVERIFY2(swap.value(QStringLiteral("minimum_bytes")).isNull() ||
                 swap.value(QStringLiteral("minimum_bytes")).toInteger() ==
                     table.find(3)->size * 512,
             qPrintable(describe(swap)));
    QCOMPARE(errorCodeOf(client.call(QStringLiteral("filesystem-minimum"),
                                     {{"path", image}, {"partition", 9}})),
             -32003);
    QCOMPARE(errorCodeOf(client.call(QStringLiteral("filesystem-minimum"), {{"path", image}})),
             -32602);
    QCOMPARE(fileSha256(image), before); // measuring writes nothing
}

void TestServe::applyCreatesAPartition()
{
    const QString image = makePracticeImage(m_dir.path(), QStringLiteral("apply.img"));
    QVERIFY(!image.isEmpty());
    ServeClient client;
    const QJsonObject plan{
        {"operations", QJsonArray{QJsonObject{{"op", "create"}, {"size", "8MiB"}}}}};
    const int id = client.send(QStringLiteral("apply"), {{"path", image}, {"plan", plan}});
    const QJsonObject answer = client.answer(id);
    QVERIFY2(resultOf(answer).value(QStringLiteral("ok")).toBool(), qPrintable(describe(answer)));
    QVERIFY(client.waitForNotification(QStringLiteral("progress"), id, 1000));
    const SfdiskTable table = SfdiskTable::read(image);
    QVERIFY2(table.ok, qPrintable(table.error));
    QCOMPARE(table.partitions.size(), 2);
    QCOMPARE(table.partitions.last().start % 2048, 0);
    QCOMPARE(table.partitions.last().size, 8 * MiB / 512);
}

void TestServe::realignKeepsEveryFile()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString image = makePracticeImage(m_dir.path(), QStringLiteral("realign.img"));
    QVERIFY(!image.isEmpty());
    QMap<QString, QByteArray> files;
    {
        LoopDevice loop(image);
        QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
        QString error;
        files = filesystemTreeSha256(loop.partitionNode(1), QStringLiteral("ntfs"), &error);
        QVERIFY2(error.isEmpty() && !files.isEmpty(), qPrintable(error));
    }
    ServeClient client;
    const QJsonObject plan =
        resultOf(client.call(QStringLiteral("realign-plan"), {{"path", image}}));
    const QJsonArray moves = plan.value(QStringLiteral("moves")).toArray();
    QCOMPARE(moves.size(), 1);
    QCOMPARE(moves.first().toObject().value(QStringLiteral("new_start")).toInteger(), 2048);
    const int id = client.send(QStringLiteral("realign"), {{"path", image}});
    const QJsonObject answer = client.answer(id, 300000);
    QVERIFY2(resultOf(answer).value(QStringLiteral("ok")).toBool(), qPrintable(describe(answer)));
    QVERIFY(client.waitForNotification(QStringLiteral("log"), id, 1000));
    QCOMPARE(SfdiskTable::read(image).partitions.first().start, 2048);
    LoopDevice loop(image);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    QString error;
    const QStringList diff = compareTrees(
        files, filesystemTreeSha256(loop.partitionNode(1), QStringLiteral("ntfs"), &error));
    QVERIFY2(diff.isEmpty() && error.isEmpty(), qPrintable(diff.join(QLatin1Char(' ')) + error));
    const ToolResult fsck = checkFilesystemReadOnly(loop.partitionNode(1), QStringLiteral("ntfs"));
    QVERIFY2(fsck.ok(), qPrintable(fsck.describe()));
}

// realign-plan sends the whole plan the wizard shows ("prepared", read back checked) and what
// holds the partitions it moves ("busy"); sfdisk says where they start.

void TestServe::cancelThenResume()
{
    QByteArray data;
    const QString image = rawImage(QStringLiteral("cancel.img"), &data);
    QVERIFY(!image.isEmpty());
    ServeClient client;
    const int id = client.send(QStringLiteral("realign"), {{"path", image}});
    QVERIFY(client.waitForNotification(QStringLiteral("progress"), id));
    const QJsonObject cancel = client.call(QStringLiteral("cancel"));
    QVERIFY2(resultOf(cancel).value(QStringLiteral("cancelling")).toBool(),
             qPrintable(describe(cancel)));
    // A job that stops short is an error whose data says it can be resumed.
    const QJsonObject stopped = client.answer(id, 300000);
    QCOMPARE(errorCodeOf(stopped), -32003);
    QVERIFY2(stopped.value(QStringLiteral("error"))
                 .toObject()
                 .value(QStringLiteral("data"))
                 .toObject()
                 .value(QStringLiteral("resumable"))
                 .toBool(),
             qPrintable(describe(stopped)));
    // The disk says so when it is read again (a window that reconnects learns it this way).
    const QString journal = stopped.value(QStringLiteral("error"))
                                .toObject()
                                .value(QStringLiteral("data"))
                                .toObject()
                                .value(QStringLiteral("journal"))
                                .toString();
    QVERIFY(QFile::exists(journal));
    const QJsonObject interrupted = client.call(QStringLiteral("read-disk"), {{"path", image}});
    QCOMPARE(resultOf(interrupted).value(QStringLiteral("interrupted_journal")).toString(),
             journal);
    const QJsonObject resumed = client.call(QStringLiteral("resume"), {{"path", image}}, 300000);
    QVERIFY2(resultOf(resumed).value(QStringLiteral("ok")).toBool(), qPrintable(describe(resumed)));
    checkRawMoved(image, data);
    const QJsonObject finished = client.call(QStringLiteral("read-disk"), {{"path", image}});
    QVERIFY(!resultOf(finished).contains(QStringLiteral("interrupted_journal")));
}

// The probe is a job like the others: its progress comes as fractions, `cancel` stops it
// between two writes with the drive as it was, and its answer is probe --json's object (for a
// refused target, its errors) as a failed job's data.
void TestServe::probeReportsProgressAndCancels()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QByteArray data;
    const QString image = rawImage(QStringLiteral("probe.img"), &data);
    QVERIFY(!image.isEmpty());
    const QByteArray before = fileSha256(image);
    {
        // The drive holds every write after the first while the hold file exists: the probe is
        // still running when it is cancelled, however fast this machine writes.
        const QString hold = m_dir.filePath(QStringLiteral("probe.hold"));
        QFile holdFile(hold);
        QVERIFY(holdFile.open(QIODevice::WriteOnly));
        holdFile.close();
        LyingDriveSpec spec;
        spec.hold = hold;
        LyingDrive loop(pwtest::buildSetting("LYING_DRIVE"), image,
                        m_dir.filePath(QStringLiteral("probe-drive")), spec);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        const auto release = qScopeGuard([&] { QFile::remove(hold); }); // before the drive goes
        ServeClient client;
        const int id = client.send(QStringLiteral("probe"), {{"path", loop.device()}});
        QDeadlineTimer held(30000);
        while (!QFile::exists(hold + QStringLiteral(".held")) && !held.hasExpired())
            QThread::msleep(20);
        QVERIFY2(QFile::exists(hold + QStringLiteral(".held")), "the probe never wrote twice");
        QVERIFY(resultOf(client.call(QStringLiteral("cancel")))
                    .value(QStringLiteral("cancelling"))
                    .toBool());
        QVERIFY(QFile::remove(hold)); // the held write goes through; the probe sees the cancel
        const QJsonObject stopped = client.answer(id, 30000);
        QCOMPARE(errorCodeOf(stopped), -32003);
        // It said how far it was, for this request, as it went.
        const auto progress = std::find_if(
            client.notifications().cbegin(), client.notifications().cend(),
            [id](const QJsonObject &n) {
                return n.value(QStringLiteral("method")) == QLatin1String("progress") &&
                       n.value(QStringLiteral("params"))
                               .toObject()
                               .value(QStringLiteral("id"))
                               .toInt() == id;
            });
        QVERIFY(progress != client.notifications().cend());
        const QJsonObject device = stopped.value(QStringLiteral("error"))
                                       .toObject()
                                       .value(QStringLiteral("data"))
                                       .toObject()
                                       .value(QStringLiteral("devices"))
                                       .toArray()
                                       .first()
                                       .toObject();
        QCOMPARE(device.value(QStringLiteral("path")).toString(), loop.device());
        QCOMPARE(device.value(QStringLiteral("probe"))
                     .toObject()
                     .value(QStringLiteral("outcome"))
                     .toString(),
                 QStringLiteral("cancelled"));
        // A file is not a drive: refused before anything is written, the reason in errors.
        const QJsonObject refused = client.call(QStringLiteral("probe"), {{"path", image}});
        QCOMPARE(errorCodeOf(refused), -32003);
        QVERIFY2(describe(refused).contains(QStringLiteral("not a block device")),
                 qPrintable(describe(refused)));
        QVERIFY(client.running());
    }
    QCOMPARE(fileSha256(image), before);
}

void TestServe::droppedConnectionThenResume()
{
    QByteArray data;
    const QString image = rawImage(QStringLiteral("dropped.img"), &data);
    QVERIFY(!image.isEmpty());
    {
        ServeClient client;
        const int id = client.send(QStringLiteral("realign"), {{"path", image}});
        QVERIFY(client.waitForNotification(QStringLiteral("progress"), id));
        QVERIFY(client.closeAndWait()); // the helper stops the move where resume can finish it
    }
    ServeClient again;
    const QJsonObject resumed = again.call(QStringLiteral("resume"), {{"path", image}}, 300000);
    QVERIFY2(resultOf(resumed).value(QStringLiteral("ok")).toBool(), qPrintable(describe(resumed)));
    checkRawMoved(image, data);
}

void TestServe::libpartedAsksTheClient()
{
    // A GPT made for 64 MiB on a disk grown to 96 MiB: libparted offers to fix it.
    const QString image = m_dir.filePath(QStringLiteral("grown.img"));
    QFile file(image);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(64 * MiB));
    file.close();
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                    "label: gpt\nstart=2048, size=16384\n")
                .ok());
    QVERIFY(QFile(image).resize(96 * MiB));

    ServeClient client;
    const QJsonObject plan{
        {"operations", QJsonArray{QJsonObject{{"op", "create"}, {"size", "8MiB"}}}}};
    const int id = client.send(QStringLiteral("apply"), {{"path", image}, {"plan", plan}});
    QVERIFY(client.waitForNotification(QStringLiteral("question"), id));
    QJsonObject question;
    for (const QJsonObject &n : client.notifications())
        if (n.value(QStringLiteral("method")).toString() == QLatin1String("question"))
            question = n.value(QStringLiteral("params")).toObject();
    QVERIFY(question.value(QStringLiteral("choices")).toArray().contains(QStringLiteral("Fix")));
    QCOMPARE(question.value(QStringLiteral("default")).toString(), QStringLiteral("Ignore"));
    const int number = question.value(QStringLiteral("question")).toInt();
    // Only an offered choice is taken; the job keeps waiting for one.
    const QJsonObject wrong =
        client.call(QStringLiteral("answer"), {{"question", number}, {"choice", "Erase"}});
    QCOMPARE(errorCodeOf(wrong), -32602);
    const QJsonObject right =
        client.call(QStringLiteral("answer"), {{"question", number}, {"choice", "Fix"}});
    QVERIFY2(resultOf(right).value(QStringLiteral("accepted")).toBool(),
             qPrintable(describe(right)));
    const QJsonObject done = client.answer(id);
    QVERIFY2(resultOf(done).value(QStringLiteral("ok")).toBool(), qPrintable(describe(done)));
    // sfdisk sees the GPT reach the grown disk's end: 96 MiB of sectors less the backup's 33.
    const ToolResult json = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), image});
    QVERIFY(json.ok());
    const QJsonObject table = QJsonDocument::fromJson(json.out)
                                  .object()
                                  .value(QStringLiteral("partitiontable"))
                                  .toObject();
    QCOMPARE(table.value(QStringLiteral("lastlba")).toInteger(), 96 * MiB / 512 - 34);
    QCOMPARE(table.value(QStringLiteral("partitions")).toArray().size(), 2);
}

void TestServe::oneGrainRuleForCliAndHelper_data()
{
    QTest::addColumn<QString>("cli");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("256 bytes") << QStringLiteral("256") << qint64(256) << false;
    QTest::newRow("1000 bytes") << QStringLiteral("1000") << qint64(1000) << false;
    QTest::newRow("4k+1") << QStringLiteral("4097") << qint64(4097) << false;
    QTest::newRow("2 GiB") << QStringLiteral("2g") << qint64(2) * 1024 * MiB << false;
    QTest::newRow("512 bytes") << QStringLiteral("512") << qint64(512) << true;
    QTest::newRow("1 GiB") << QStringLiteral("1g") << qint64(1024) * MiB << true;
}

// The same grain is refused by `check --grain` and by the helper's read-disk, in the same
// words, and the same grain is taken by both: one rule, not one per front end.
void TestServe::oneGrainRuleForCliAndHelper()
{
    QFETCH(QString, cli);
    QFETCH(qint64, bytes);
    QFETCH(bool, accepted);
    // One image for every row: only the grain differs.
    static const QString image = makePracticeImage(m_dir.path(), QStringLiteral("grain.img"));
    QVERIFY(!image.isEmpty());
    const CliResult r = runCli({QStringLiteral("check"), QStringLiteral("--grain"), cli, image});
    QVERIFY2(r.started && !r.crashed, qPrintable(r.describe()));
    ServeClient client;
    const QJsonObject answer =
        client.call(QStringLiteral("read-disk"), {{"path", image}, {"grain", double(bytes)}});
    if (accepted) {
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(r.describe()));
        QVERIFY2(!resultOf(answer).isEmpty(), qPrintable(describe(answer)));
        return;
    }
    QCOMPARE(r.exitCode, 2);
    const QString err = QString::fromUtf8(r.err);
    const qsizetype at = err.indexOf(QLatin1String("--grain: "));
    QVERIFY2(at >= 0, qPrintable(err));
    const QString cliWords = err.mid(at + 9, err.indexOf(QLatin1Char('\n'), at) - at - 9);
    QVERIFY2(cliWords.contains(QString::number(bytes)), qPrintable(cliWords));
    QCOMPARE(errorCodeOf(answer), -32602);
    const QString helperWords = answer.value(QStringLiteral("error"))
                                    .toObject()
                                    .value(QStringLiteral("message"))
                                    .toString();
    QCOMPARE(helperWords, QStringLiteral("\"grain\": ") + cliWords);
}

QTEST_GUILESS_MAIN(TestServe)
#include "tst_serve.moc"
