// One answer to "what can this session do with this filesystem": for every filesystem Partwise
// knows, Resize/Move, Help → Filesystem Support and the realignment planner must agree on
// whether it shrinks and whether it grows with its partition. What they must say is worked out
// here from the machine, not from Partwise: which resizing programs are installed (looked up in
// PATH and the sbin folders), whether this process is root, and whether a plain user could serve
// a partition through FUSE (/dev/fuse open to them and fusermount3 installed).
#include "align/alignmentgeometry.h"
#include "align/realignplan.h"
#include "diskimagebuilder.h"
#include "editing/resizepartitiondialog.h"
#include "editingtestsupport.h"
#include "filesystemsupportdialog.h"
#include "fs/sessionabilities.h"
#include "table/diskreader.h"

#include <QLabel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <optional>
#include <unistd.h>

using namespace partwise;
using namespace pwtest;

namespace {

bool installed(const QString &program)
{
    return !QStandardPaths::findExecutable(program).isEmpty() ||
           !QStandardPaths::findExecutable(program,
                                           {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")})
                .isEmpty();
}

bool allInstalled(const QStringList &programs)
{
    return std::all_of(programs.cbegin(), programs.cend(), installed);
}

// A tool that writes inside an image file reaches it through a loop device (root) or the
// partition as a file through FUSE.
bool writableNodeInImages()
{
    return ::geteuid() == 0 ||
           (::access("/dev/fuse", R_OK | W_OK) == 0 && installed(QStringLiteral("fusermount3")));
}

// What Partwise runs to shrink and to grow each filesystem, as its README and the tools' manuals
// say: nothing (std::nullopt) where no unmounted tool exists. FAT shrinks inside Partwise
// through libparted (its check, fsck.fat, runs first); btrfs resizes only mounted, as root.
struct Expected
{
    QString fs;
    std::optional<QStringList> shrink;
    std::optional<QStringList> grow;
    bool resizeNeedsRoot = false;
};

QList<Expected> expectations()
{
    const QStringList ext{QStringLiteral("resize2fs"), QStringLiteral("e2fsck")};
    const QStringList ntfs{QStringLiteral("ntfsresize"), QStringLiteral("ntfsfix")};
    const QStringList swap{QStringLiteral("mkswap")};
    return {
        {QStringLiteral("ext4"), ext, ext},
        {QStringLiteral("ext3"), ext, ext},
        {QStringLiteral("ext2"), ext, ext},
        {QStringLiteral("xfs"), std::nullopt, std::nullopt},
        {QStringLiteral("btrfs"), QStringList{QStringLiteral("btrfs")}, std::nullopt, true},
        {QStringLiteral("vfat"), QStringList{QStringLiteral("fsck.fat")}, std::nullopt},
        {QStringLiteral("ntfs"), ntfs, ntfs},
        {QStringLiteral("exfat"), std::nullopt, std::nullopt},
        {QStringLiteral("f2fs"),
         QStringList{QStringLiteral("resize.f2fs"), QStringLiteral("fsck.f2fs")}, std::nullopt},
        {QStringLiteral("swap"), swap, swap},
    };
}

// Whether the tools can do it on a disk (written as root) and inside an image file here.
struct Where
{
    bool disk = false, image = false;
};

Where expectedShrink(const Expected &e)
{
    if (!e.shrink || !allInstalled(*e.shrink))
        return {};
    const bool swap = e.fs == QLatin1String("swap"); // recreated, no node needed
    return {true, swap || (writableNodeInImages() && (!e.resizeNeedsRoot || ::geteuid() == 0))};
}

Where expectedGrow(const Expected &e)
{
    if (!e.grow || !allInstalled(*e.grow))
        return {};
    return {true, e.fs == QLatin1String("swap") || writableNodeInImages()};
}

// The Filesystem Support cell the answer must show.
QString expectedCell(const std::optional<QStringList> &tools, const Where &where)
{
    if (!tools)
        return QStringLiteral("no");
    if (!allInstalled(*tools))
        return QStringLiteral("install");
    return where.image ? QStringLiteral("yes") : QStringLiteral("disks only");
}

} // namespace

class AbilitiesTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyPartAgrees_data();
    void everyPartAgrees();

private:
    QTemporaryDir m_dir;
    DiskLayout m_base;
};

void AbilitiesTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    DiskImageBuilder b(m_dir.path());
    QString error;
    const QString img = b.createSparse(QStringLiteral("abilities"), 400 * kMiB, &error);
    QVERIFY2(!img.isEmpty(), qPrintable(error));
    // 100 MiB at 20 MiB with free space on both sides: the dialog could shrink or grow it.
    QVERIFY2(DiskImageBuilder::fdiskScript(
                 img, 512, QStringLiteral("label: gpt\nstart=40960, size=204800\n"), &error),
             qPrintable(error));
    const DiskReadResult read = readDisk(img);
    QVERIFY2(read.ok, qPrintable(read.error));
    m_base = read.layout;
    QVERIFY(m_base.device.isImage);
}

void AbilitiesTest::everyPartAgrees_data()
{
    QTest::addColumn<int>("index");
    const QList<Expected> all = expectations();
    // Every filesystem Filesystem Support lists has a row here, and no other.
    QStringList names;
    for (const Expected &e : all)
        names << e.fs;
    QCOMPARE(names, supportedFilesystemNames());
    for (int i = 0; i < all.size(); ++i)
        QTest::newRow(qPrintable(all[i].fs)) << i;
}

void AbilitiesTest::everyPartAgrees()
{
    QFETCH(int, index);
    const Expected e = expectations().at(index);
    const Where shrink = expectedShrink(e), grow = expectedGrow(e);

    // Resize/Move on a partition of an image file holding it (as the queue might leave it).
    PartitionInfo p = m_base.regions.at(rowOf(m_base, 1));
    p.filesystem = e.fs;
    ResizePartitionDialog dialog(m_base, {}, m_base, p, AlignmentPolicy());
    QTRY_VERIFY(dialog.isMinimumKnown());
    auto *size = dialog.findChild<QSpinBox *>(QStringLiteral("size"));
    QVERIFY(size);
    QCOMPARE(size->minimum() < 100, shrink.image);
    const QString limit = dialog.findChild<QLabel *>(QStringLiteral("resizeLimit"))->text();
    const QString note = dialog.findChild<QLabel *>(QStringLiteral("filesystemNote"))->text();
    // Not shrinking says why, in the dialog itself.
    QCOMPARE(limit.contains(QLatin1String("shrinking")), !shrink.image);
    if (e.fs != QLatin1String("swap")) {
        QCOMPARE(note.contains(QLatin1String("shrinks before the partition")), shrink.image);
        QCOMPARE(note.contains(QLatin1String("grows after")), grow.image);
    }

    // Help → Filesystem Support, its Grow and Shrink columns.
    FilesystemSupportDialog support;
    QTableWidget *t = support.table();
    QStringList rows, columns;
    for (int r = 0; r < t->rowCount(); ++r)
        rows << t->verticalHeaderItem(r)->text();
    for (int c = 0; c < t->columnCount(); ++c)
        columns << t->horizontalHeaderItem(c)->text();
    const int row = rows.indexOf(e.fs);
    QVERIFY(row >= 0);
    const QString shrinkCell = t->item(row, columns.indexOf(QStringLiteral("Shrink")))->text();
    const QString growCell = t->item(row, columns.indexOf(QStringLiteral("Grow")))->text();
    QVERIFY2(shrinkCell.startsWith(expectedCell(e.shrink, shrink)), qPrintable(shrinkCell));
    QVERIFY2(growCell.startsWith(expectedCell(e.grow, grow)), qPrintable(growCell));

    // The planner, asked as a realignment in an image asks it: partition 1 (600 MiB, above
    // btrfs's 256 MiB floor) at the classic sector 63, an XFS partition right behind it and free
    // space after that. Shrinking partition 1 by its 1985 sectors is the cheapest way; without
    // it partition 2 has to move.
    DiskLayout d = m_base;
    d.tableType = QStringLiteral("msdos");
    d.device.lengthSectors = qint64(1) << 23;
    d.firstUsableSector = 1;
    d.lastUsableSector = d.device.lengthSectors - 1;
    PartitionInfo one, two;
    one.number = 1;
    one.startSector = 63;
    one.endSector = 1228800;
    one.filesystem = e.fs;
    two.number = 2;
    two.startSector = 1228801;
    two.endSector = 2457600;
    two.filesystem = QStringLiteral("xfs");
    d.regions = {one, two};
    RealignRequest request;
    request.partitions = {1};
    request.canShrink = [](const PartitionInfo &p, qint64 newBytes) {
        return whyCannotShrinkHere(p.filesystem, newBytes, FilesystemPlace::Image).isEmpty();
    };
    const RealignPlan plan =
        planRealignment(d, resolveAlignmentGeometry(d.device.topology, {}), request);
    QCOMPARE(plan.choices.size(), 1);
    const bool shrunk = plan.choices[0].taken().way == RealignWay::Shrink;
    QCOMPARE(shrunk, shrink.image);
}

QTEST_MAIN(AbilitiesTest)
#include "tst_abilities.moc"
