// Every filesystem Partwise meets, misaligned at MBR sector 63 right before an aligned ext4
// partition, with the free space in each place it can be: right after it, only beyond its
// neighbour, only before it, or nowhere. `partwise-cli realign` must put every partition on the
// grain with every file of every partition intact (shrinking the filesystem when it can,
// shifting the neighbour when it cannot), or, for XFS and exFAT with no free space anywhere,
// say which partition needs how many MiB and change nothing. A FAT32 too small for libparted to
// shrink takes the next way instead. Also: an extended partition that
// shifts with its logical partitions, and logical partitions filling their container, on the
// image and on a loop device. Verdicts come from sfdisk, blkid, each filesystem's own check and
// the SHA-256 of every file (TemplateShelf).
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

bool staysMisaligned(const QString &fs, Room room)
{
    return room == Room::None && (fs == QLatin1String("xfs") || fs == QLatin1String("exfat"));
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
    setCliPath(QStringLiteral(PARTWISE_CLI));
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
    QTest::addColumn<bool>("stays");
    for (const bool onLoop : {false, true}) {
        const char *medium = onLoop ? "loop" : "image";
        for (const QString &fs : kFilesystems)
            for (Room room : kRooms) {
                const Layout l = matrixLayout(fs, room);
                QTest::addRow("%s-%s", qPrintable(l.name), medium)
                    << l.name << onLoop << staysMisaligned(fs, room);
            }
        QTest::addRow("extended-moves-%s", medium)
            << QStringLiteral("mbr-extended-moves") << onLoop << false;
        QTest::addRow("tight-logicals-%s", medium)
            << QStringLiteral("mbr-tight-logicals") << onLoop << false;
        QTest::addRow("small-fat32-beyond-%s", medium)
            << QStringLiteral("small-fat32-beyond") << onLoop << false;
    }
}

void TestRealignMatrix::realign()
{
    QFETCH(QString, layout);
    QFETCH(bool, onLoop);
    QFETCH(bool, stays);
    const QString name = QString::fromLatin1(QTest::currentDataTag());
    const QString image = m_shelf->freshCopy(layout, name);
    QVERIFY(!image.isEmpty());
    // Only a run that must change nothing compares the whole image; the others are judged
    // partition by partition below.
    const QByteArray before = stays ? fileSha256(image) : QByteArray();
    const QStringList args{QStringLiteral("realign"),      QStringLiteral("--yes"),
                           QStringLiteral("--backup-dir"), m_dir.filePath("backups"),
                           QStringLiteral("--journal"),    m_dir.filePath(name + ".journal")};
    CliResult r;
    if (onLoop) {
        LoopDevice loop(image);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        QVERIFY2(loop.addPartitions(), qPrintable(loop.error()));
        r = runCli(args + QStringList{loop.path()}, 300000);
    } else {
        r = runCli(args + QStringList{image}, 300000);
    }
    detachLoopsOf(image);
    if (stays) {
        // Nothing fits: exit 1, the partition and the MiB to free are named, nothing written.
        QCOMPARE(r.exitCode, 1);
        const QString said = QString::fromUtf8(r.out + r.err);
        QVERIFY2(said.contains(QLatin1String("partition 1 (")) &&
                     said.contains(QLatin1String("Free at least 1 MiB")),
                 qPrintable(said));
        QCOMPARE(fileSha256(image), before);
        QVERIFY(!QFile::exists(m_dir.filePath(name + ".journal")));
    } else {
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        // libparted's refusal is only found by trying; the run then takes the next way.
        if (layout == QLatin1String("small-fat32-beyond"))
            QVERIFY2((r.out + r.err)
                         .contains("Planning partition 1 again, the next way: shift-following"),
                     qPrintable(QString::fromUtf8(r.out + r.err)));
        const QStringList problems = m_shelf->verify((*m_shelf)[layout], image);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
    QFile::remove(image);
}

QTEST_GUILESS_MAIN(TestRealignMatrix)
#include "tst_realignmatrix.moc"
