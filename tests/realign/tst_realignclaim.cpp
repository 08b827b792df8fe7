// A partition mounted while a realignment moves it (device/exclusiveclaim.h). The busy check
// says what held the disk when it looked; a second root helper of the same user, udisks or a
// person at a shell may mount the partition a moment later. While the move's data is copied the
// disk is claimed, so the kernel refuses the mount; a mount that came before the claim (after the
// check) stops the job before it writes, resumably, and `resume` finishes once it is gone.

#include "loopdevice.h"
#include "ops/jobresume.h"
#include "ops/realignrunner.h"
#include "partitioncontents.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

namespace {

// A read-only mount without journal replay: it must not change the filesystem if it succeeds.
pwtest::ToolResult mountReadOnly(const QString &node, const QString &folder)
{
    return pwtest::runTool(QStringLiteral("mount"),
                           {QStringLiteral("-o"), QStringLiteral("ro,noload"), node, folder});
}

bool mounted(const QString &folder)
{
    return pwtest::runTool(QStringLiteral("mountpoint"), {QStringLiteral("-q"), folder}).ok();
}

} // namespace

class TestRealignClaim : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void aMountDuringTheMoveIsRefused();
    void aMountBeforeTheMoveStopsItResumably();

private:
    // A 96 MiB disk with a 64 MiB ext4 at sector 63 holding files, attached with its partition.
    void makeDisk();
    PreparedRealign prepare();
    // The partition on the grain (sfdisk), every file as it was before.
    void verifyRealignedIntact();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<pwtest::LoopDevice> m_loop;
    QString m_image, m_node, m_folder;
    RealignOptions m_options;
    QMap<int, pwtest::PartitionContents> m_before;
};

void TestRealignClaim::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestRealignClaim::cleanup()
{
    if (!m_folder.isEmpty() && mounted(m_folder))
        pwtest::runTool(QStringLiteral("umount"), {m_folder});
    m_loop.reset();
    m_dir.reset();
}

void TestRealignClaim::makeDisk()
{
    const QString tree = m_dir->filePath(QStringLiteral("tree"));
    QVERIFY(QDir().mkpath(tree));
    for (int i = 0; i < 6; ++i) {
        QFile f(QStringLiteral("%1/file%2.bin").arg(tree).arg(i));
        QByteArray bytes((i + 1) << 20, Qt::Uninitialized);
        QRandomGenerator(i).fillRange(reinterpret_cast<quint32 *>(bytes.data()), bytes.size() / 4);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
    }
    m_image = m_dir->filePath(QStringLiteral("disk.img"));
    QString error;
    QVERIFY2(pwtest::SfdiskTable::writeImage(
                 m_image, 96 << 20, "label: dos\nstart=63, size=131072, type=83\n", &error),
             qPrintable(error));
    QVERIFY(pwtest::runTool(QStringLiteral("mkfs.ext4"),
                            {QStringLiteral("-q"), QStringLiteral("-E"),
                             QStringLiteral("offset=%1").arg(63 * 512), QStringLiteral("-d"), tree,
                             m_image, QStringLiteral("65536k")})
                .ok());
    QStringList problems;
    m_before =
        pwtest::partitionContents(m_image, 512, pwtest::SfdiskTable::read(m_image), &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    m_loop = std::make_unique<pwtest::LoopDevice>(m_image);
    QVERIFY2(m_loop->ok(), qPrintable(m_loop->error()));
    QVERIFY(m_loop->addPartitions());
    m_node = m_loop->partitionNode(1);
    m_folder = m_dir->filePath(QStringLiteral("mnt"));
    QVERIFY(QDir().mkpath(m_folder));
    m_options.backupRoot = m_dir->filePath(QStringLiteral("backups"));
    m_options.journalFolder = m_dir->path();
}

PreparedRealign TestRealignClaim::prepare()
{
    RealignRequest request;
    request.partitions = {1};
    return prepareRealignment(m_loop->path(), m_options, request);
}

void TestRealignClaim::verifyRealignedIntact()
{
    const pwtest::SfdiskTable table = pwtest::SfdiskTable::read(m_image);
    QVERIFY(table.ok && !table.partitions.isEmpty());
    QCOMPARE(table.partitions[0].start % 2048, 0);
    QStringList problems;
    const auto after = pwtest::partitionContents(m_image, 512, table, &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    const QStringList diff = pwtest::contentsDiffer(m_before, after);
    QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
}

void TestRealignClaim::aMountDuringTheMoveIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    makeDisk();
    const PreparedRealign prepared = prepare();
    QVERIFY2(prepared.ok, qPrintable(prepared.error));
    QCOMPARE(prepared.plan.moves.size(), 1);
    std::optional<pwtest::ToolResult> attempt;
    RealignCallbacks callbacks;
    callbacks.progress = [&](const RealignProgress &p) {
        if (!attempt && p.stepKind == RealignProgress::Step::Moving)
            attempt = mountReadOnly(m_node, m_folder);
    };
    const RealignResult result = runRealignment(m_loop->path(), prepared, m_options, callbacks);
    QVERIFY2(attempt.has_value(), "no progress while moving");
    QVERIFY2(!attempt->ok() && !mounted(m_folder),
             qPrintable(QStringLiteral("the partition was mounted while it moved: ") +
                        attempt->describe()));
    QVERIFY2(result.ok, qPrintable(result.error));
    verifyRealignedIntact();
}

void TestRealignClaim::aMountBeforeTheMoveStopsItResumably()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    makeDisk();
    const PreparedRealign prepared = prepare();
    QVERIFY2(prepared.ok, qPrintable(prepared.error));
    // Mounted after the busy check and the table backup, before the first write.
    std::optional<pwtest::ToolResult> attempt;
    RealignCallbacks callbacks;
    callbacks.log = [&](const QString &line) {
        if (!attempt && line.startsWith(QLatin1String("Partition table backed up")))
            attempt = mountReadOnly(m_node, m_folder);
    };
    const QByteArray diskBefore = pwtest::runTool(QStringLiteral("sha256sum"), {m_image}).out;
    const RealignResult stopped = runRealignment(m_loop->path(), prepared, m_options, callbacks);
    QVERIFY2(attempt && attempt->ok(), attempt ? qPrintable(attempt->describe()) : "no backup");
    QVERIFY2(!stopped.ok && stopped.resumable, qPrintable(stopped.error));
    QVERIFY2(stopped.error.contains(QLatin1String("is in use")), qPrintable(stopped.error));
    QVERIFY2(stopped.error.contains(QLatin1String("resume")), qPrintable(stopped.error));
    QCOMPARE(pwtest::runTool(QStringLiteral("umount"), {m_folder}).ok(), true);
    // Nothing of the disk was written.
    QCOMPARE(pwtest::runTool(QStringLiteral("sha256sum"), {m_image}).out, diskBefore);

    const RealignResult resumed = resumeWriteJob(m_loop->path(), stopped.journalPath);
    QVERIFY2(resumed.ok, qPrintable(resumed.error));
    verifyRealignedIntact();
}

QTEST_GUILESS_MAIN(TestRealignClaim)
#include "tst_realignclaim.moc"
