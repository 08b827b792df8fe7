// Every filesystem Partwise meets, misaligned at MBR sector 63 right before an aligned ext4
// partition, with the free space in each place it can be: right after it, only beyond its
// neighbour, only before it, or nowhere. `partwise-cli realign` must put every partition on the
// grain with every file of every partition intact (shrinking the filesystem when it can,
// shifting the neighbour when it cannot; for XFS and exFAT with no free space anywhere, the
// ext4 neighbour at the disk's end gives up the room). A FAT32 too small for libparted to shrink
// stops the job with nothing written, names the next way, and --prefer move takes it. Also: an
// extended partition that
// shifts with its logical partitions, and logical partitions filling their container, on the
// image and on a loop device. Verdicts come from sfdisk, blkid, each filesystem's own check and
// the SHA-256 of every file (TemplateShelf).
#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "realignfixtures.h"
#include "templateshelf.h"

#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace pwtest;

namespace {

const QStringList kFilesystems{QStringLiteral("ext4"),  QStringLiteral("xfs"),
                               QStringLiteral("btrfs"), QStringLiteral("fat16"),
                               QStringLiteral("fat32"), QStringLiteral("ntfs"),
                               QStringLiteral("exfat"), QStringLiteral("swap")};
const Room kRooms[] = {Room::After, Room::Beyond, Room::Before, Room::None};

// On a loop device (partition nodes, the kernel's rescan, tools on the nodes) each filesystem
// runs once and each room twice; the plans themselves, the same on both media, run in every
// room on the image. The two no-room rows are those where the ext4 neighbour gives up room.
Room loopRoom(const QString &fs)
{
    static const QMap<QString, Room> rooms{
        {QStringLiteral("xfs"), Room::None},     {QStringLiteral("exfat"), Room::None},
        {QStringLiteral("btrfs"), Room::After},  {QStringLiteral("swap"), Room::After},
        {QStringLiteral("fat16"), Room::Beyond}, {QStringLiteral("ntfs"), Room::Beyond},
        {QStringLiteral("ext4"), Room::Before},  {QStringLiteral("fat32"), Room::Before}};
    return rooms.value(fs, Room::None);
}

} // namespace

class TestRealignMatrix : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void realign_data();
    void realign();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<TemplateShelf> m_shelf;
    QMap<QString, Layout> m_layouts;
};

void TestRealignMatrix::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(m_dir.isValid());
    QString error;
    const QString source = m_dir.filePath(QStringLiteral("source"));
    QVERIFY2(makeFileTree(source, 150, 8 << 20, 11, &error), qPrintable(error));
    const QMap<QString, QByteArray> expected = treeSha256(source, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_shelf = std::make_unique<TemplateShelf>(m_dir.path(), source, expected);
    QList<Layout> layouts{mbrExtendedMoves(), mbrTightLogicals(), smallFat32Beyond()};
    for (const QString &fs : kFilesystems)
        for (Room room : kRooms)
            layouts << matrixLayout(fs, room);
    for (const Layout &l : layouts) {
        QVERIFY2(m_shelf->build(l, &error), qPrintable(l.name + QStringLiteral(": ") + error));
        m_layouts.insert(l.name, l);
    }
}

void TestRealignMatrix::cleanup()
{
    forgetBtrfsDevices();
}

void TestRealignMatrix::realign_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<bool>("onLoop");
    for (const bool onLoop : {false, true}) {
        const char *medium = onLoop ? "loop" : "image";
        for (const QString &fs : kFilesystems)
            for (Room room : kRooms) {
                if (onLoop && room != loopRoom(fs))
                    continue;
                const Layout l = matrixLayout(fs, room);
                QTest::addRow("%s-%s", qPrintable(l.name), medium) << l.name << onLoop;
            }
        QTest::addRow("extended-moves-%s", medium)
            << QStringLiteral("mbr-extended-moves") << onLoop;
        QTest::addRow("tight-logicals-%s", medium)
            << QStringLiteral("mbr-tight-logicals") << onLoop;
        QTest::addRow("small-fat32-beyond-%s", medium)
            << QStringLiteral("small-fat32-beyond") << onLoop;
    }
}

void TestRealignMatrix::realign()
{
    QFETCH(QString, layout);
    QFETCH(bool, onLoop);
    const QString name = QString::fromLatin1(QTest::currentDataTag());
    const QString image = m_shelf->freshCopy(layout, name);
    QVERIFY(!image.isEmpty());
    // Only a run that must change nothing compares the whole image (the FAT32 libparted refuses
    // to shrink); the others are judged partition by partition below.
    const bool refused = layout == QLatin1String("small-fat32-beyond");
    const QByteArray before = refused ? fileSha256(image) : QByteArray();
    const QStringList args{QStringLiteral("realign"),      QStringLiteral("--yes"),
                           QStringLiteral("--backup-dir"), m_dir.filePath("backups"),
                           QStringLiteral("--journal"),    m_dir.filePath(name + ".journal")};
    auto realignWith = [&](const QStringList &extra) {
        CliResult r;
        if (onLoop) {
            LoopDevice loop(image);
            if (!loop.ok() || !loop.addPartitions())
                r.err = loop.error().toUtf8();
            else
                r = runCli(args + extra + QStringList{loop.path()}, 300000);
        } else {
            r = runCli(args + extra + QStringList{image}, 300000);
        }
        detachLoopsOf(image);
        return r;
    };
    CliResult r = realignWith({});
    // libparted's refusal is only found by trying: the job stops there with nothing written,
    // names the next way and how to take it, and taking it realigns.
    if (refused) {
        const QString said = QString::fromUtf8(r.out + r.err);
        QVERIFY2(r.exitCode == 1 && said.contains(QLatin1String("Nothing was changed.")) &&
                     said.contains(QLatin1String("The next way for partition 1 is "
                                                 "shift-following")) &&
                     said.contains(QLatin1String("--prefer move")),
                 qPrintable(r.describe() + said));
        QCOMPARE(fileSha256(image), before);
        r = realignWith({QStringLiteral("--prefer"), QStringLiteral("move")});
    }
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
    const QStringList problems = m_shelf->verify((*m_shelf)[layout], image);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    QFile::remove(image);
}

QTEST_GUILESS_MAIN(TestRealignMatrix)
#include "tst_realignmatrix.moc"
