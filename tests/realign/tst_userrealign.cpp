// Realigning an image as a plain user, as the README's first command runs Partwise: no root,
// so no loop device. Every filesystem is still checked by its own tool before it moves (on a
// scratch copy of the partition), what the dry run planned is what runs, the NTFS of the
// Windows XP practice disk passes ntfsfix afterwards with every file intact, and the sparse
// image stays small on disk. The same for every practice preset with partitions to move: the
// places `realign --dry-run` printed are the places sfdisk reads afterwards, and every file of
// every partition and every filesystem's own check are as before (read as root on a loop device).
// And a plan `apply` cannot run as a user without FUSE (an ext4 shrink inside an image) is
// refused before anything is written, saying why.
#include "buildsetting.h"
#include "clirun.h"
#include "fsfixture.h"
#include "fuseaccess.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <list>
#include <optional>

#include <sys/stat.h>
#include <unistd.h>

using namespace pwtest;

namespace {

constexpr uid_t kNobody = 65534;

// The partitions' starts, as sfdisk reads them.
QList<qint64> startsOf(const QString &image)
{
    const ToolResult r = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), image});
    QList<qint64> starts;
    for (const QJsonValue &p : QJsonDocument::fromJson(r.out)
                                   .object()
                                   .value(QStringLiteral("partitiontable"))
                                   .toObject()
                                   .value(QStringLiteral("partitions"))
                                   .toArray())
        starts << p.toObject().value(QStringLiteral("start")).toInteger();
    return starts;
}

struct Place
{
    qint64 start = 0, end = 0;
};

// Where `realign --dry-run` says each partition goes: "partition 5 (ext4): sectors A–B → C–D"
// (an extended partition may be listed twice: first grown, then moved; the last line counts).
QMap<int, Place> plannedPlaces(const QByteArray &out)
{
    static const QRegularExpression line(
        QStringLiteral("partition (\\d+)[^:]*: sectors \\d+–\\d+ → (\\d+)–(\\d+)"));
    QMap<int, Place> places;
    for (auto it = line.globalMatch(QString::fromUtf8(out)); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        places.insert(m.captured(1).toInt(),
                      Place{m.captured(2).toLongLong(), m.captured(3).toLongLong()});
    }
    return places;
}

} // namespace

class TestUserRealign : public QObject
{
    Q_OBJECT

private slots:
    void windowsXpAsAUser();
    void presetsAsAUser_data();
    void presetsAsAUser();
    void shrinkWithoutFuseRefusedUpFront();
    void foreignLoopDevicesLeaveTheUsersImageFree();

private:
    ToolResult asNobody(const QStringList &command) const;
    QTemporaryDir m_dir; // nobody's home for this test: its backups and settings go here
};

ToolResult TestUserRealign::asNobody(const QStringList &command) const
{
    return runTool(
        QStringLiteral("setpriv"),
        QStringList{QStringLiteral("--reuid=%1").arg(kNobody),
                    QStringLiteral("--regid=%1").arg(kNobody), QStringLiteral("--clear-groups"),
                    QStringLiteral("env"), QStringLiteral("HOME=") + m_dir.path(),
                    QStringLiteral("XDG_DATA_HOME=") + m_dir.filePath(QStringLiteral("data")),
                    pwtest::buildSetting("PARTWISE_CLI")} +
            command);
}

void TestUserRealign::windowsXpAsAUser()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // to become another user, and to check the result on a loop device
    QTemporaryDir &dir = m_dir;
    QVERIFY(dir.isValid());
    QVERIFY(::chown(QFile::encodeName(dir.path()).constData(), kNobody, kNobody) == 0);
    const QString image = dir.filePath(QStringLiteral("xp.img"));
    const ToolResult made = asNobody({QStringLiteral("practice"), QStringLiteral("--size"),
                                      QStringLiteral("256M"), QStringLiteral("windows-xp"), image});
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    QCOMPARE(startsOf(image), QList<qint64>{63});
    const qint64 allocatedBefore = allocatedBytes(image);

    const ToolResult planned = asNobody(
        {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--dry-run"), image});
    QVERIFY2(planned.exitCode == 0, qPrintable(planned.describe()));
    QVERIFY2(planned.out.contains("2048"), planned.out.constData());
    const ToolResult ran = asNobody(
        {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"), image});
    QVERIFY2(ran.ok(), qPrintable(ran.describe()));
    const QByteArray log = ran.out + ran.err;
    // Checked by ntfsfix before it moved, without root.
    QVERIFY2(QRegularExpression(QStringLiteral("Partition 1 \\(ntfs\\): clean"))
                 .match(QString::fromUtf8(log))
                 .hasMatch(),
             log.constData());
    QVERIFY2(!log.contains("not checked"), log.constData());
    // What the dry run planned ran: partition 1 at sector 2048, as sfdisk reads it.
    QCOMPARE(startsOf(image), QList<qint64>{2048});
    // Sparse stays sparse: a few MiB of data moved, not the 256 MiB partition written out.
    const qint64 allocatedAfter = allocatedBytes(image);
    QVERIFY2(
        allocatedAfter <= allocatedBefore + 8 * 1024 * 1024,
        qPrintable(
            QStringLiteral("%1 -> %2 bytes on disk").arg(allocatedBefore).arg(allocatedAfter)));
    // The filesystem is whole, with its files.
    LoopDevice loop(image);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    const ToolResult fix =
        runTool(QStringLiteral("ntfsfix"), {QStringLiteral("--no-action"), loop.partitionNode(1)});
    QVERIFY2(fix.ok(), qPrintable(fix.describe()));
    const ToolResult files =
        runTool(QStringLiteral("ntfsls"), {QStringLiteral("-R"), loop.partitionNode(1)});
    QVERIFY2(files.ok() && !files.out.trimmed().isEmpty(), qPrintable(files.describe()));
}

void TestUserRealign::presetsAsAUser_data()
{
    // "desktop": /dev/fuse open to users as Debian's udev leaves it, so the tools reach the
    // partitions as files and a filesystem may shrink; else only the scratch copies.
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("sectorSize");
    QTest::addColumn<bool>("desktop");
    QTest::newRow("demo") << QStringLiteral("demo") << 512 << false;
    QTest::newRow("demo-desktop") << QStringLiteral("demo") << 512 << true;
    QTest::newRow("old-fdisk-desktop") << QStringLiteral("old-fdisk") << 512 << true;
    QTest::newRow("gpt-34") << QStringLiteral("gpt-34") << 512 << false;
    QTest::newRow("4kn") << QStringLiteral("4kn") << 4096 << false;
}

void TestUserRealign::presetsAsAUser()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // to become another user, and to read the result on a loop device
    QFETCH(QString, preset);
    QFETCH(int, sectorSize);
    QFETCH(bool, desktop);
    // Set either way: a desktop's udev leaves /dev/fuse open, a bare machine closed.
    const FuseModeWhileTesting fuse(desktop ? 0666 : 0600);
    QVERIFY2(fuse.ok(), qPrintable(fuse.error()));
    QVERIFY(m_dir.isValid());
    QVERIFY(::chown(QFile::encodeName(m_dir.path()).constData(), kNobody, kNobody) == 0);
    const QString image =
        m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()) + QStringLiteral(".img"));
    const ToolResult made = asNobody({QStringLiteral("practice"), QStringLiteral("--size"),
                                      QStringLiteral("256M"), preset, image});
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    const SfdiskTable before = tableWithSectorSize(image, sectorSize);
    QVERIFY2(before.ok, qPrintable(before.error));
    QStringList problems;
    const QMap<int, PartitionContents> contents =
        partitionContents(image, sectorSize, before, &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    const qint64 allocatedBefore = allocatedBytes(image);

    const ToolResult planned = asNobody(
        {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--dry-run"), image});
    QVERIFY2(planned.exitCode == 0, qPrintable(planned.describe()));
    const QMap<int, Place> places = plannedPlaces(planned.out);
    QVERIFY2(!places.isEmpty(), planned.out.constData());
    // On a desktop a filesystem shrinks where that copies least; without FUSE none may.
    QCOMPARE(planned.out.contains("shrunk by"), desktop);
    const ToolResult ran = asNobody(
        {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"), image});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.describe()));
    const QString log = QString::fromUtf8(ran.out + ran.err);
    QVERIFY2(!log.contains(QLatin1String("not checked")), qPrintable(log));

    // The plan printed is what ran: every partition where it said, the others where they were.
    const SfdiskTable after = tableWithSectorSize(image, sectorSize);
    QVERIFY2(after.ok, qPrintable(after.error));
    QCOMPARE(after.partitions.size(), before.partitions.size());
    for (const SfdiskPartition &p : before.partitions) {
        const SfdiskPartition *now = after.find(p.number);
        QVERIFY(now);
        const Place want = places.value(p.number, Place{p.start, p.start + p.size - 1});
        QVERIFY2(now->start == want.start && now->end() == want.end,
                 qPrintable(QStringLiteral("partition %1 is at %2–%3, the plan said %4–%5")
                                .arg(p.number)
                                .arg(now->start)
                                .arg(now->end())
                                .arg(want.start)
                                .arg(want.end)));
        // Each filesystem that moved was checked by its own tool before, without root.
        const QString fs = contents.value(p.number).fs;
        if (places.contains(p.number) && !fs.isEmpty() && fs != QLatin1String("swap"))
            QVERIFY2(log.contains(QStringLiteral("Partition %1 (%2): clean").arg(p.number).arg(fs)),
                     qPrintable(log));
    }
    // Every file of every partition, and every filesystem's own check, as before.
    const QMap<int, PartitionContents> now = partitionContents(image, sectorSize, after, &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    const QStringList differ = contentsDiffer(contents, now);
    QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));
    // Sparse stays sparse: it grew by no more than the data the plan moved (+ 4 MiB of tables).
    static const QRegularExpression toMove(QStringLiteral("([0-9.]+) (KiB|MiB) to move;"));
    const QRegularExpressionMatch m = toMove.match(QString::fromUtf8(planned.out));
    QVERIFY2(m.hasMatch(), planned.out.constData());
    const qint64 moved = qint64(m.captured(1).toDouble() *
                                (m.captured(2) == QLatin1String("MiB") ? 1 << 20 : 1 << 10));
    QVERIFY2(allocatedBytes(image) <= allocatedBefore + moved + (4 << 20),
             qPrintable(QStringLiteral("%1 -> %2 bytes on disk, %3 moved")
                            .arg(allocatedBefore)
                            .arg(allocatedBytes(image))
                            .arg(moved)));
    QFile::remove(image);
}

// Without root and without FUSE nothing can resize a filesystem inside an image: `apply` of a
// plan shrinking the demo disk's ext4 says so and why before it writes, and the image is as it
// was, byte for byte (sha256sum).
void TestUserRealign::shrinkWithoutFuseRefusedUpFront()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // to become another user
    const FuseClosedToUsers closed;
    QVERIFY2(closed.ok(), qPrintable(closed.error()));
    QVERIFY(m_dir.isValid());
    QVERIFY(::chown(QFile::encodeName(m_dir.path()).constData(), kNobody, kNobody) == 0);
    const QString image = m_dir.filePath(QStringLiteral("shrink.img"));
    const ToolResult made = asNobody({QStringLiteral("practice"), QStringLiteral("--size"),
                                      QStringLiteral("256M"), QStringLiteral("demo"), image});
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    const QString plan = m_dir.filePath(QStringLiteral("shrink.json"));
    QFile planFile(plan);
    QVERIFY(planFile.open(QIODevice::WriteOnly));
    planFile.write(R"({"operations":[{"op":"resize","number":2,"size":"40MiB"}]})");
    planFile.close();
    QVERIFY(::chown(QFile::encodeName(plan).constData(), kNobody, kNobody) == 0);
    const auto sha256 = [&] { return runTool(QStringLiteral("sha256sum"), {image}).out.left(64); };
    const QByteArray before = sha256();
    QCOMPARE(before.size(), 64);

    const ToolResult ran =
        asNobody({QStringLiteral("apply"), QStringLiteral("--yes"), plan, image});
    QVERIFY2(ran.exitCode != 0, qPrintable(ran.describe()));
    const QString said = QString::fromUtf8(ran.err);
    QVERIFY2(said.contains(QLatin1String("Partition 2 cannot be shrunk here")) &&
                 said.contains(QLatin1String("loop device")) &&
                 said.contains(QLatin1String("FUSE")) &&
                 said.contains(QLatin1String("Nothing was changed")),
             qPrintable(ran.describe()));
    QCOMPARE(sha256(), before);
    const SfdiskTable table = SfdiskTable::read(image);
    QVERIFY2(table.ok, qPrintable(table.error));
    QCOMPARE(table.find(2)->size, 102400);
    QFile::remove(image);
}

// A desktop keeps loop devices the user may not open (a snap's squashfs, read-only, root's): a
// plain user's realignment of their own image works beside them, and one that a loop device
// shows (attached as udisks' loop-setup attaches it) is refused, naming it, with nothing written.
void TestUserRealign::foreignLoopDevicesLeaveTheUsersImageFree()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // to attach root's loop devices and become another user
    QVERIFY(m_dir.isValid());
    QVERIFY(::chown(QFile::encodeName(m_dir.path()).constData(), kNobody, kNobody) == 0);
    QTemporaryDir rootOnly;
    QVERIFY(rootOnly.isValid());
    std::list<LoopDevice> snaps;
    for (int i = 0; i < 3; ++i) {
        const QString file = rootOnly.filePath(QStringLiteral("snap%1.img").arg(i));
        QVERIFY(
            runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("4M"), file})
                .ok());
        snaps.emplace_back(file, 0, true);
        QVERIFY2(snaps.back().ok(), qPrintable(snaps.back().error()));
    }
    const QString image = m_dir.filePath(QStringLiteral("foreign.img"));
    const ToolResult made = asNobody({QStringLiteral("practice"), QStringLiteral("--size"),
                                      QStringLiteral("256M"), QStringLiteral("gpt-34"), image});
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    const auto sha256 = [&] { return runTool(QStringLiteral("sha256sum"), {image}).out.left(64); };
    {
        LoopDevice shown(image); // the user's image behind a loop device: in use
        QVERIFY2(shown.ok(), qPrintable(shown.error()));
        const QByteArray before = sha256();
        const ToolResult refused = asNobody(
            {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"), image});
        QVERIFY2(refused.exitCode != 0, qPrintable(refused.describe()));
        QVERIFY2(refused.err.contains(shown.path().toUtf8()), qPrintable(refused.describe()));
        QCOMPARE(sha256(), before);
    }
    const ToolResult ran = asNobody(
        {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"), image});
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.describe()));
    for (const qint64 start : startsOf(image))
        QCOMPARE(start % 2048, 0);
    QFile::remove(image);
}

QTEST_GUILESS_MAIN(TestUserRealign)
#include "tst_userrealign.moc"
