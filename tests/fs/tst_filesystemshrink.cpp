// Shrinking FAT16, FAT32, btrfs and F2FS by a few MiB through resizeFilesystem, as the
// realignment planner does for a partition that is missing a few MiB. Each filesystem sits in
// a partition at the classic misaligned GPT start (sector 34), inside an image file and on a loop
// device with a partition node. Every result is judged by independent tools: the filesystem's
// own check (fsck.fat -n, btrfs check --readonly, fsck.f2fs), the size its own tool reports
// (fsck.fat -v, btrfs inspect-internal dump-super, dump.f2fs) and the SHA-256 of every file read
// back through mtools, a read-only mount or dump.f2fs.
#include "fs/filesystemresize.h"
#include "fs/sessionabilities.h"

#include "diskimagebuilder.h"
#include "filechecksum.h"
#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "shrinkfixtures.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace partwise;

using namespace shrinktest;

namespace {

// Rows for a filesystem in a partition inside an image and on a loop device's partition node.
void addPlaceRows()
{
    QTest::addColumn<bool>("onLoop");
    QTest::newRow("in an image") << false;
    QTest::newRow("on a loop partition") << true;
}

// One line of a report from a child process: the error resizeFilesystem gives.
QByteArray errorLine(const FilesystemLocation &where, qint64 partBytes, const QString &fs,
                     qint64 newBytes)
{
    return resizeFilesystem(where, partBytes, fs, newBytes).error.toUtf8() + '\n';
}

// Each filesystem's mkfs with its defaults, on a bare range.
pwtest::ToolResult mkfsDefaults(const QString &node, const QString &fs)
{
    if (fs.startsWith(QLatin1String("fat")))
        return pwtest::runTool(QStringLiteral("mkfs.fat"), {QStringLiteral("-F"), fs.mid(3), node});
    return pwtest::runTool(fs == QLatin1String("btrfs") ? QStringLiteral("mkfs.btrfs")
                                                        : QStringLiteral("mkfs.f2fs"),
                           {QStringLiteral("-q"), QStringLiteral("-f"), node});
}

// Writes `bytes` at `offset` inside the partition.
bool writeInPartition(const QString &image, qint64 offset, const QByteArray &bytes, QString *error)
{
    return pwtest::DiskImageBuilder::writeAt(image, kOffset + offset, bytes, error);
}

// Damage that libblkid still accepts but the filesystem's own check does not.
bool damage(const QString &image, qint64 partBytes, const QString &fs, QString *error)
{
    if (fs == QLatin1String("fat16")) { // the first FAT no longer matches the second
        pwtest::LoopRange range(image, kOffset, partBytes, true);
        const QString layout = out(fsckFatVerbose(range.path()));
        const qint64 fat = number(layout, QStringLiteral("First FAT starts at byte (\\d+)"));
        if (fat <= 0)
            *error = layout;
        return fat > 0 && writeInPartition(image, fat + 6, QByteArray("\x55\x55", 2), error);
    }
    if (fs == QLatin1String("fat32")) // sectors per FAT: 1, no longer the backup's value
        return writeInPartition(image, 36, QByteArray("\x01\x00\x00\x00", 4), error);
    if (fs == QLatin1String("btrfs")) // a superblock field: its checksum no longer matches
        return writeInPartition(image, 65536 + 0x50, QByteArray("\x77\x77\x77\x77", 4), error);
    // both F2FS superblocks' magic
    return writeInPartition(image, 0x400, QByteArray(4, '\xff'), error) &&
           writeInPartition(image, 0x1400, QByteArray(4, '\xff'), error);
}

// In a child process: a private mount namespace with empty folders over the program folders,
// so no filesystem tool can be found. An error sentence, or empty.
QByteArray hideProgramFolders()
{
    if (::unshare(CLONE_NEWNS) != 0 ||
        ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return "cannot make a private mount namespace";
    for (const char *dir :
         {"/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/sbin", "/usr/local/bin"}) {
        struct stat st = {};
        if (::lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
            ::mount("tmpfs", dir, "tmpfs", 0, nullptr) != 0)
            return QByteArray("cannot hide ") + dir;
    }
    ::setenv("PATH", "/nonexistent", 1);
    return {};
}

} // namespace

class TestFilesystemShrink : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void canShrink();
    void fat_data();
    void fat();
    void btrfs_data();
    void btrfs();
    void f2fs_data();
    void f2fs();
    void fat12IsRefused();
    void damagedIsRefused_data();
    void damagedIsRefused();
    void missingToolNamesPackage();
    void withoutRootSaysSo();

private:
    QTemporaryDir m_dir;
};

void TestFilesystemShrink::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestFilesystemShrink::canShrink()
{
    for (const char *fs : {"ext2", "ext3", "ext4", "ntfs", "vfat", "btrfs", "f2fs", "swap", ""})
        QVERIFY2(filesystemCanShrink(QLatin1String(fs)), fs);
    for (const char *fs : {"xfs", "exfat", "hfsplus", "crypto_LUKS"})
        QVERIFY2(!filesystemCanShrink(QLatin1String(fs)), fs);
    // The resize dialog and apply keep their old answers.
    QVERIFY(!canShrinkUnmounted(QStringLiteral("vfat")));
    QVERIFY(canShrinkUnmounted(QStringLiteral("ext4")));
    // What a plan may offer here: limits known in advance are never planned and refused later.
    constexpr qint64 kMiB = 1 << 20;
    const QString btrfsSmall =
        whyCannotShrinkHere(QStringLiteral("btrfs"), 250 * kMiB, FilesystemPlace::Disk);
    QVERIFY2(btrfsSmall.contains(QLatin1String("256 MiB")), qPrintable(btrfsSmall));
    QVERIFY(whyCannotShrinkHere(QStringLiteral("xfs"), 100 * kMiB, FilesystemPlace::Disk)
                .contains(QLatin1String("XFS")));
    if (::geteuid() == 0) { // root resizes anything it has the tools for, in images too
        QCOMPARE(whyCannotShrinkHere(QStringLiteral("btrfs"), 300 * kMiB, FilesystemPlace::Image),
                 QString());
        QCOMPARE(whyCannotShrinkHere(QStringLiteral("ext4"), 10 * kMiB, FilesystemPlace::Image),
                 QString());
    }
    QCOMPARE(whyCannotShrinkHere(QStringLiteral("swap"), kMiB, FilesystemPlace::Image), QString());
}

void TestFilesystemShrink::fat_data()
{
    QTest::addColumn<int>("bits");
    QTest::addColumn<bool>("onLoop");
    QTest::newRow("FAT16 in an image") << 16 << false;
    QTest::newRow("FAT16 on a loop partition") << 16 << true;
    QTest::newRow("FAT32 in an image") << 32 << false;
    QTest::newRow("FAT32 on a loop partition") << 32 << true;
}

void TestFilesystemShrink::fat()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // fsck.fat needs a device node: a loop device over the image
    QFETCH(int, bits);
    QFETCH(bool, onLoop);
    // libparted keeps FAT32 at 65520 clusters of 4 KiB or more: 300 MiB with 4 KiB clusters.
    // The 64 MiB FAT16's 2 KiB clusters fall below its 32760-cluster floor, so it halves them.
    const qint64 partBytes = (bits == 16 ? 64 : 300) * kMiB;
    const QString image =
        makeDisk(m_dir.path(), QStringLiteral("fat%1-%2").arg(bits).arg(onLoop), partBytes);
    QVERIFY(!image.isEmpty());
    Place place(image, partBytes, onLoop);
    QVERIFY(place.ok());
    // mtools addresses the partition inside the image directly.
    const QString mt =
        onLoop ? place.location().path : QStringLiteral("%1@@%2").arg(image).arg(kOffset);

    const QString node = place.node();
    // -I: the node is a loop device over the partition's range, which mkfs.fat takes for a whole
    // disk and refuses while sysfs shows it partitions or holders (seen once in a full run, on a
    // loop device the suite before had just let go).
    auto mkfs = pwtest::runTool(
        QStringLiteral("mkfs.fat"),
        {QStringLiteral("-I"), QStringLiteral("-F"), QString::number(bits), QStringLiteral("-s"),
         bits == 16 ? QStringLiteral("4") : QStringLiteral("8"), QStringLiteral("-h"),
         QString::number(kStartSector), QStringLiteral("-n"), QStringLiteral("SHRINK"), node});
    QVERIFY2(mkfs.ok(), qPrintable(mkfs.describe()));
    place.release();

    // A filler first, so the tree lands near the end; deleting the filler then leaves files
    // past the new end that the resizer has to move.
    QTemporaryDir src;
    const QStringList doomed = makeTree(src.path(), 1000 + bits);
    QVERIFY(!doomed.isEmpty());
    QString error;
    QVERIFY2(fillFatWithHoles(mt, partBytes - 8 * kMiB, src.path(), doomed, &error),
             qPrintable(error));
    removeFromTree(src.path(), doomed);
    const QMap<QString, QByteArray> expected = pwtest::treeSha256(src.path());
    const QByteArray outside = place.outside();

    const qint64 newBytes = partBytes - kShrink;
    {
        // large.bin went in last: its last cluster lies past the new end, so the resizer must
        // move data, not just cut free space off.
        const QString layout = out(fsckFatVerbose(place.node(true)));
        place.release();
        QString chain;
        const qint64 end = fatFileEnd(mt, layout, QStringLiteral("large.bin"), &chain);
        QVERIFY2(end > newBytes, qPrintable(chain + layout));
    }
    const ToolResult shrunk =
        resizeFilesystem(place.location(), partBytes, QStringLiteral("vfat"), newBytes);
    QVERIFY2(shrunk.ok, qPrintable(shrunk.error));

    const pwtest::ToolResult check = fsckFatVerbose(place.node(true));
    QVERIFY2(check.ok(), qPrintable(check.describe() + out(check)));
    const QString report = out(check);
    QCOMPARE(number(report, QStringLiteral("^\\s*(\\d+) sectors total")) *
                 number(report, QStringLiteral("^\\s*(\\d+) bytes per logical sector")),
             newBytes);
    QCOMPARE(number(report, QStringLiteral("(\\d+) bit entries")), qint64(bits));
    // Boot code finds the partition by the hidden sectors: still the partition's start.
    QCOMPARE(number(report, QStringLiteral("^\\s*(\\d+) hidden sectors")), kStartSector);
    place.release();

    const QMap<QString, QByteArray> actual =
        pwtest::filesystemTreeSha256(mt, QStringLiteral("vfat"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList diff = pwtest::compareTrees(expected, actual);
    QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    QCOMPARE(place.outside(), outside);
}

void TestFilesystemShrink::btrfs_data()
{
    addPlaceRows();
}

void TestFilesystemShrink::btrfs()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // btrfs shrinks only while mounted
    QFETCH(bool, onLoop);
    const qint64 partBytes = 512 * kMiB; // the kernel resizes btrfs down to 256 MiB only
    const QString image = makeDisk(m_dir.path(), QStringLiteral("btrfs-%1").arg(onLoop), partBytes);
    QVERIFY(!image.isEmpty());
    Place place(image, partBytes, onLoop);
    QVERIFY(place.ok());

    QTemporaryDir src;
    const QStringList doomed = makeTree(src.path(), 2000 + onLoop);
    QVERIFY(!doomed.isEmpty());
    QString error;
    QVERIFY2(makeBtrfsWithHoles(place.node(), src.path(), doomed, &error), qPrintable(error));
    place.release();
    pwtest::forgetBtrfsDevices();
    removeFromTree(src.path(), doomed);
    const QMap<QString, QByteArray> expected = pwtest::treeSha256(src.path());
    const QByteArray outside = place.outside();

    const qint64 newBytes = partBytes - kShrink;
    const ToolResult shrunk =
        resizeFilesystem(place.location(), partBytes, QStringLiteral("btrfs"), newBytes);
    QVERIFY2(shrunk.ok, qPrintable(shrunk.error));
    // Nothing left mounted under /run by Partwise.
    QFile mounts(QStringLiteral("/proc/self/mountinfo"));
    QVERIFY(mounts.open(QIODevice::ReadOnly));
    QVERIFY(!mounts.readAll().contains("partwise-btrfs"));

    const QString node = place.node(true);
    const pwtest::ToolResult check = pwtest::checkFilesystemReadOnly(node, QStringLiteral("btrfs"));
    QVERIFY2(check.ok(), qPrintable(check.describe()));
    const pwtest::ToolResult super =
        pwtest::runTool(QStringLiteral("btrfs"),
                        {QStringLiteral("inspect-internal"), QStringLiteral("dump-super"), node});
    QCOMPARE(number(out(super), QStringLiteral("^total_bytes\\s+(\\d+)")), newBytes);
    QCOMPARE(number(out(super), QStringLiteral("^dev_item.total_bytes\\s+(\\d+)")), newBytes);
    const QMap<QString, QByteArray> actual =
        pwtest::filesystemTreeSha256(node, QStringLiteral("btrfs"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList diff = pwtest::compareTrees(expected, actual);
    QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    place.release();
    pwtest::forgetBtrfsDevices();
    QCOMPARE(place.outside(), outside);
}

void TestFilesystemShrink::f2fs_data()
{
    addPlaceRows();
}

void TestFilesystemShrink::f2fs()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // resize.f2fs needs a device node: a loop device over the image
    QFETCH(bool, onLoop);
    const qint64 partBytes = 200 * kMiB;
    const QString image = makeDisk(m_dir.path(), QStringLiteral("f2fs-%1").arg(onLoop), partBytes);
    QVERIFY(!image.isEmpty());
    Place place(image, partBytes, onLoop);
    QVERIFY(place.ok());

    // No F2FS driver in this kernel: files go in with sload.f2fs, which cannot delete, so this
    // tree keeps all its files.
    QTemporaryDir src;
    QVERIFY(!makeTree(src.path(), 3000 + onLoop).isEmpty());
    QString error;
    QVERIFY2(makeLoadedF2fs(place.node(), src.path(), &error), qPrintable(error));
    place.release();
    const QMap<QString, QByteArray> expected = pwtest::treeSha256(src.path());
    const QByteArray outside = place.outside();

    const qint64 newBytes = partBytes - kShrink;
    const ToolResult shrunk =
        resizeFilesystem(place.location(), partBytes, QStringLiteral("f2fs"), newBytes);
    QVERIFY2(shrunk.ok, qPrintable(shrunk.error));

    const QString node = place.node(true);
    const pwtest::ToolResult check = pwtest::runTool(
        QStringLiteral("fsck.f2fs"), {QStringLiteral("--dry-run"), QStringLiteral("-f"), node});
    QVERIFY2(check.ok(), qPrintable(check.describe() + out(check)));
    const F2fsSize size = f2fsSize(node);
    // F2FS keeps whole segments: at most the new size, and less than a segment below it.
    QVERIFY2(size.bytes <= newBytes && size.bytes > newBytes - size.segmentBytes,
             qPrintable(QStringLiteral("%1 bytes for %2").arg(size.bytes).arg(newBytes)));
    const QMap<QString, QByteArray> actual = f2fsTreeSha256(node, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList diff = pwtest::compareTrees(expected, actual);
    QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    place.release();
    QCOMPARE(place.outside(), outside);
}

void TestFilesystemShrink::fat12IsRefused()
{
    // libblkid tells FAT12 apart before anything else runs: no root needed.
    const qint64 partBytes = 4 * kMiB;
    const QString image = makeDisk(m_dir.path(), QStringLiteral("fat12"), partBytes);
    QVERIFY(!image.isEmpty());
    const auto mkfs =
        pwtest::runTool(QStringLiteral("mkfs.fat"),
                        {QStringLiteral("-F"), QStringLiteral("12"), QStringLiteral("--offset"),
                         QString::number(kStartSector), image, QString::number(partBytes / 1024)});
    QVERIFY2(mkfs.ok(), qPrintable(mkfs.describe()));
    const QByteArray before = pwtest::fileSha256(image);
    FilesystemLocation where;
    where.path = image;
    where.offset = kOffset;
    where.isImage = true;
    const ToolResult r =
        resizeFilesystem(where, partBytes, QStringLiteral("vfat"), partBytes - kMiB);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("FAT12")), qPrintable(r.error));
    QCOMPARE(pwtest::fileSha256(image), before);
}

void TestFilesystemShrink::damagedIsRefused_data()
{
    QTest::addColumn<QString>("fs");
    QTest::addColumn<bool>("onLoop");
    QTest::addColumn<QString>("tool");
    QTest::newRow("FAT16, FATs differ, image") << "fat16" << false << "fsck.fat";
    QTest::newRow("FAT32, sectors per FAT, loop") << "fat32" << true << "fsck.fat";
    QTest::newRow("btrfs superblock, image") << "btrfs" << false << "btrfs check";
    QTest::newRow("btrfs superblock, loop") << "btrfs" << true << "btrfs check";
    QTest::newRow("F2FS superblocks, image") << "f2fs" << false << "fsck.f2fs";
}

void TestFilesystemShrink::damagedIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QFETCH(QString, fs);
    QFETCH(bool, onLoop);
    QFETCH(QString, tool);
    const qint64 partBytes = (fs == QLatin1String("btrfs") ? 272 : 128) * kMiB;
    const QString image =
        makeDisk(m_dir.path(), QStringLiteral("damaged-%1-%2").arg(fs).arg(onLoop), partBytes);
    QVERIFY(!image.isEmpty());
    {
        pwtest::LoopRange range(image, kOffset, partBytes);
        QVERIFY(range.ok());
        const pwtest::ToolResult r = mkfsDefaults(range.path(), fs);
        QVERIFY2(r.ok(), qPrintable(r.describe()));
    }
    pwtest::forgetBtrfsDevices();
    QString error;
    QVERIFY2(damage(image, partBytes, fs, &error), qPrintable(error));

    const QByteArray before = sparseSha256(image);
    {
        Place place(image, partBytes, onLoop);
        QVERIFY(place.ok());
        const QString name = fs.startsWith(QLatin1String("fat")) ? QStringLiteral("vfat") : fs;
        const ToolResult r =
            resizeFilesystem(place.location(), partBytes, name, partBytes - kShrink);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(tool), qPrintable(r.error));
    }
    QCOMPARE(sparseSha256(image), before);
}

// Without the tools (hidden by empty folders over the program folders, in a private mount
// namespace of a child process) the error names the Debian package to install.
void TestFilesystemShrink::missingToolNamesPackage()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // unshare(CLONE_NEWNS)
    const QString fat = QDir(m_dir.path()).filePath(QStringLiteral("bare-fat.img"));
    {
        QFile f(fat);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(32 * kMiB));
    }
    const auto mkfs = pwtest::runTool(QStringLiteral("mkfs.fat"),
                                      {QStringLiteral("-F"), QStringLiteral("16"), fat});
    QVERIFY2(mkfs.ok(), qPrintable(mkfs.describe()));

    const QByteArray report = inChild([&] {
        QByteArray report = hideProgramFolders();
        if (report.isEmpty()) {
            FilesystemLocation where;
            where.path = fat;
            report += errorLine(where, 32 * kMiB, QStringLiteral("vfat"), 30 * kMiB);
            where.path = QStringLiteral("/dev/null");
            report += errorLine(where, 512 * kMiB, QStringLiteral("btrfs"), 500 * kMiB);
            report += errorLine(where, 32 * kMiB, QStringLiteral("f2fs"), 30 * kMiB);
        }
        return report;
    });
    const QStringList lines = QString::fromUtf8(report).split(QLatin1Char('\n'));
    QVERIFY2(lines.size() >= 3, report.constData());
    QVERIFY2(lines[0].contains(QLatin1String("fsck.fat")) &&
                 lines[0].contains(QLatin1String("dosfstools")),
             qPrintable(lines[0]));
    QVERIFY2(lines[1].contains(QLatin1String("btrfs-progs")), qPrintable(lines[1]));
    QVERIFY2(lines[2].contains(QLatin1String("fsck.f2fs")) &&
                 lines[2].contains(QLatin1String("f2fs-tools")),
             qPrintable(lines[2]));
}

// Run as an ordinary user (a child process that dropped root), btrfs and F2FS inside an image
// say that they need root instead of failing somewhere in mount or losetup.
void TestFilesystemShrink::withoutRootSaysSo()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // to become someone else
    const QByteArray report = inChild([&] {
        if (::setgid(65534) != 0 || ::setuid(65534) != 0)
            return QByteArray("cannot become nobody");
        FilesystemLocation where;
        where.path = QStringLiteral("/dev/null");
        QByteArray report = errorLine(where, 512 * kMiB, QStringLiteral("btrfs"), 500 * kMiB);
        where.path = QStringLiteral("/nonexistent.img");
        where.offset = kOffset;
        where.isImage = true;
        return report + errorLine(where, 512 * kMiB, QStringLiteral("f2fs"), 500 * kMiB);
    });
    const QStringList lines = QString::fromUtf8(report).split(QLatin1Char('\n'));
    QVERIFY2(lines.size() >= 2, report.constData());
    QVERIFY2(lines[0].contains(QLatin1String("root")), qPrintable(lines[0]));
    QVERIFY2(lines[1].contains(QLatin1String("root")), qPrintable(lines[1]));
}

QTEST_GUILESS_MAIN(TestFilesystemShrink)
#include "tst_filesystemshrink.moc"
