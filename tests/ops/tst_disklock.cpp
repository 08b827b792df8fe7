// One write job per disk: while another program holds the disk's lock (util-linux `flock`, as
// `sfdisk --lock` would), realign and apply refuse with a clear message and change no byte; and
// a second Partwise, a resume started while a realignment is still moving the same disk (a
// reconnecting window, a second terminal), is refused while the first finishes untouched.
// Without the lock the resume would move the same data beside the running job.
#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include "ops/writejournal.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>

using namespace partwise;

using namespace pwtest;

namespace {

constexpr qint64 kSector = 512;

} // namespace

class TestDiskLock : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void lockedDiskIsLeftAlone();
    void secondPartwiseIsRefusedWhileTheFirstMoves();

private:
    // `dataMiB` of random bytes in one GPT partition at sector 34 (copied whole: no filesystem).
    QString rawImage(const QString &name, int dataMiB, QByteArray *data);
    void checkMoved(const QString &image, const QByteArray &data);

    QTemporaryDir m_dir;
};

void TestDiskLock::initTestCase()
{
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
}

QString TestDiskLock::rawImage(const QString &name, int dataMiB, QByteArray *data)
{
    const QString image = m_dir.filePath(name);
    QFile file(image);
    const qint64 sectors = (qint64(dataMiB) << 20) / kSector;
    if (!file.open(QIODevice::WriteOnly) || !file.resize((qint64(dataMiB) + 8) << 20))
        return {};
    data->resize(qsizetype(dataMiB) << 20);
    QRandomGenerator(11).fillRange(reinterpret_cast<quint32 *>(data->data()), data->size() / 4);
    if (!file.seek(34 * kSector) || file.write(*data) != data->size())
        return {};
    file.close();
    const ToolResult table =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                "label: gpt\nfirst-lba: 34\nstart=34, size=" + QByteArray::number(sectors) + "\n");
    return table.ok() ? image : QString();
}

void TestDiskLock::checkMoved(const QString &image, const QByteArray &data)
{
    const SfdiskTable table = SfdiskTable::read(image);
    QVERIFY2(table.ok, qPrintable(table.error));
    QCOMPARE(table.partitions.first().start, 2048);
    QFile file(image);
    QVERIFY(file.open(QIODevice::ReadOnly) && file.seek(2048 * kSector));
    QVERIFY2(file.read(data.size()) == data, "the partition's bytes differ after the move");
}

void TestDiskLock::lockedDiskIsLeftAlone()
{
    QByteArray data;
    const QString image = rawImage(QStringLiteral("locked.img"), 16, &data);
    QVERIFY(!image.isEmpty());
    const QString plan = m_dir.filePath(QStringLiteral("plan.json"));
    {
        QFile f(plan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"operations":[{"op":"name","number":1,"name":"locked"}]})");
    }
    // util-linux's flock holds the lock as another partitioning program would.
    QProcess holder;
    holder.start(QStringLiteral("flock"), {QStringLiteral("-x"), QStringLiteral("-o"), image,
                                           QStringLiteral("sleep"), QStringLiteral("120")});
    QVERIFY(holder.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(
        !runTool(QStringLiteral("flock"),
                 {QStringLiteral("-n"), QStringLiteral("-x"), image, QStringLiteral("true")})
             .ok(),
        10000);
    const QByteArray before = fileSha256(image);
    for (const QStringList &args :
         {QStringList{QStringLiteral("realign"), QStringLiteral("--yes"), image},
          QStringList{QStringLiteral("apply"), QStringLiteral("--yes"), plan, image}}) {
        const CliResult refused = runCli(args);
        QVERIFY2(refused.exitCode != 0, qPrintable(refused.describe()));
        QVERIFY2(refused.err.contains("holds the disk's lock") &&
                     refused.err.contains("Nothing was changed"),
                 qPrintable(refused.describe()));
    }
    QCOMPARE(fileSha256(image), before);
    QVERIFY(!QFile::exists(WriteJournal::defaultPath(image)));

    holder.kill();
    holder.waitForFinished();
    const CliResult done =
        runCli({QStringLiteral("realign"), QStringLiteral("--yes"), image}, 300000);
    QVERIFY2(done.exitCode == 0, qPrintable(done.describe()));
    checkMoved(image, data);
}

void TestDiskLock::secondPartwiseIsRefusedWhileTheFirstMoves()
{
    QByteArray data;
    const QString image = rawImage(QStringLiteral("busy.img"), 64, &data);
    QVERIFY(!image.isEmpty());
    const QString journal = WriteJournal::defaultPath(image);
    QProcess first;
    first.setProcessChannelMode(QProcess::ForwardedChannels);
    first.start(cliPath(), {QStringLiteral("realign"), QStringLiteral("--yes"), image});
    QVERIFY(first.waitForStarted());
    QElapsedTimer timer;
    timer.start();
    auto moving = [&] {
        QFile f(journal);
        return f.open(QIODevice::ReadOnly) && f.readAll().contains("\"moving\"");
    };
    while (!moving() && first.state() == QProcess::Running && timer.elapsed() < 180000)
        QThread::msleep(1);
    QVERIFY2(moving() && first.state() == QProcess::Running,
             "the first realignment was not caught moving");

    // Paused mid-move (as a job still stopping after its connection dropped), so the resume
    // meets it there however fast this machine moves data.
    QCOMPARE(::kill(pid_t(first.processId()), SIGSTOP), 0);
    const CliResult second = runCli({QStringLiteral("resume"), image}, 300000);
    QCOMPARE(::kill(pid_t(first.processId()), SIGCONT), 0);
    QVERIFY2(second.exitCode != 0 && second.err.contains("holds the disk's lock"),
             qPrintable(second.describe()));
    QVERIFY(QFile::exists(journal)); // the first job's, left to it

    QVERIFY(first.waitForFinished(300000));
    QCOMPARE(first.exitCode(), 0);
    checkMoved(image, data);
    QVERIFY(!QFile::exists(journal));
}

QTEST_MAIN(TestDiskLock)
#include "tst_disklock.moc"
