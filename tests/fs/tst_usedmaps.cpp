// Used-block maps from partclone (core/fs/partclonemap, through core/fs/usedblocks) on real
// filesystems: a map that misses one used block would lose data silently, so each filesystem is
// aged (many small files, deletions, a large file, files grown in turns), only the mapped bytes
// are copied onto zeros, and every file read from the copy must match the files the test wrote,
// and the filesystem's own checker must pass. Then a map with a used range taken out must be
// caught. The parser is also fed malformed and huge maps. ext4 made lazily: what the group
// descriptors say was never written stays out of the map, the rest covers all e2image -ra copies,
// and a realignment by it keeps every file; a descriptor whose checksum fails is not believed.

#include "buildsetting.h"
#include "fs/fatmap.h"
#include "fs/partclonemap.h"
#include "fs/usedblocks.h"
#include "move/moveplan.h"

#include "clirun.h"
#include "filetree.h"
#include "fsaging.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "mappedcopy.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

using namespace partwise;

using partwise::move::Extent;

namespace {

constexpr qint64 kKiB = 1024;
constexpr qint64 kMiB = 1024 * kKiB;
constexpr qint64 kOffset = 63 * 512; // MBR sector 63: the filesystem starts off any block

QByteArray header(std::uint64_t total)
{
    return QByteArray("# Domain logfile created by unset_name v0.3.23\n# Source: /dev/loop0\n"
                      "# Offset: 0x00000000\n# current_pos  current_status\n") +
           QByteArray("0x") + QByteArray::number(qulonglong(total), 16).toUpper() +
           "     ?\n#      pos        size  status\n";
}

QByteArray run(std::uint64_t pos, std::uint64_t size, char status)
{
    return QStringLiteral("0x%1  0x%2  %3\n")
        .arg(pos, 8, 16, QLatin1Char('0'))
        .arg(size, 8, 16, QLatin1Char('0'))
        .arg(QLatin1Char(status))
        .toLatin1()
        .toUpper()
        .replace("0X", "0x");
}

bool covered(const std::vector<Extent> &extents, std::uint64_t offset, std::uint64_t length)
{
    for (const Extent &e : extents) {
        if (offset >= e.offset && offset + length <= e.offset + e.length)
            return true;
    }
    return false;
}

// Sorted, disjoint, non-empty, inside [0, size).
QString wellFormed(const std::vector<Extent> &extents, std::uint64_t size)
{
    std::uint64_t end = 0;
    for (std::size_t i = 0; i < extents.size(); ++i) {
        const Extent &e = extents[i];
        if (e.length == 0 || (i > 0 && e.offset <= end) || e.offset + e.length > size)
            return QStringLiteral("extent %1 (%2+%3) is empty, out of order or outside %4")
                .arg(i)
                .arg(e.offset)
                .arg(e.length)
                .arg(size);
        end = e.offset + e.length;
    }
    return {};
}

std::vector<Extent> without(const std::vector<Extent> &extents, std::uint64_t cut,
                            std::uint64_t length)
{
    std::vector<Extent> out;
    for (const Extent &e : extents) {
        const std::uint64_t end = e.offset + e.length;
        if (end <= cut || e.offset >= cut + length) {
            out.push_back(e);
            continue;
        }
        if (e.offset < cut)
            out.push_back({e.offset, cut - e.offset});
        if (end > cut + length)
            out.push_back({cut + length, end - cut - length});
    }
    return out;
}

bool overlaps(const std::vector<Extent> &extents, std::uint64_t offset, std::uint64_t length)
{
    for (const Extent &e : extents) {
        if (offset < e.offset + e.length && e.offset < offset + length)
            return true;
    }
    return false;
}

// An ext2/3/4 filesystem's groups as dumpe2fs lists them (block numbers).
struct ExtGroup
{
    qint64 blockBitmap = 0;
    qint64 inodeBitmap = 0;
    qint64 tableFirst = 0;
    qint64 tableLast = 0;
    qint64 unusedInodes = 0;
    bool inodeUninit = false;
    bool blockUninit = false;
    bool checksumBad = false; // dumpe2fs: "csum 0x... (EXPECTED 0x...)"
};

struct ExtLayout
{
    qint64 blockSize = 0;
    qint64 inodesPerGroup = 0;
    qint64 inodeSize = 0;
    qint64 descriptorSize = 32;
    std::vector<ExtGroup> groups;
};

ExtLayout dumpe2fs(const QString &image, qint64 offset)
{
    ExtLayout layout;
    const pwtest::ToolResult r = pwtest::runTool(
        QStringLiteral("dumpe2fs"), {image + QStringLiteral("?offset=%1").arg(offset)});
    static const QRegularExpression number(QStringLiteral("(\\d+)"));
    for (const QString &line : QString::fromUtf8(r.out).split(QLatin1Char('\n'))) {
        const QString value = line.section(QLatin1Char(':'), 1).trimmed();
        if (line.startsWith(QLatin1String("Block size:")))
            layout.blockSize = value.toLongLong();
        else if (line.startsWith(QLatin1String("Inodes per group:")))
            layout.inodesPerGroup = value.toLongLong();
        else if (line.startsWith(QLatin1String("Inode size:")))
            layout.inodeSize = value.toLongLong();
        else if (line.startsWith(QLatin1String("Group descriptor size:")))
            layout.descriptorSize = value.toLongLong();
        else if (line.startsWith(QLatin1String("Group "))) {
            ExtGroup group;
            group.inodeUninit = line.contains(QLatin1String("INODE_UNINIT"));
            group.blockUninit = line.contains(QLatin1String("BLOCK_UNINIT"));
            group.checksumBad = line.contains(QLatin1String("EXPECTED"));
            layout.groups.push_back(group);
        } else if (!layout.groups.empty()) {
            ExtGroup &group = layout.groups.back();
            const QString trimmed = line.trimmed();
            const QString first = number.match(trimmed).captured(1);
            if (trimmed.startsWith(QLatin1String("Block bitmap at ")))
                group.blockBitmap = first.toLongLong();
            else if (trimmed.startsWith(QLatin1String("Inode bitmap at ")))
                group.inodeBitmap = first.toLongLong();
            else if (trimmed.startsWith(QLatin1String("Inode table at "))) {
                const QString range = trimmed.section(QLatin1Char(' '), 3, 3);
                group.tableFirst = range.section(QLatin1Char('-'), 0, 0).toLongLong();
                group.tableLast = range.section(QLatin1Char('-'), 1, 1).toLongLong();
            } else if (trimmed.endsWith(QLatin1String(" unused inodes")))
                group.unusedInodes = trimmed.section(QLatin1Char(','), -1)
                                         .trimmed()
                                         .section(QLatin1Char(' '), 0, 0)
                                         .toLongLong();
        }
    }
    return layout;
}

// A sparse image of `imageBytes` with one GPT partition from sector 34 to the end, holding an
// ext4 made lazily (as mkfs.ext4 does on large disks) from the files in `tree`. Returns the
// partition's size in bytes, 0 on failure.
qint64 makeLazyExt4(const QString &image, qint64 imageBytes, const QString &tree,
                    const QStringList &features, QString *error)
{
    QFile::remove(image);
    {
        QFile file(image);
        if (!file.open(QIODevice::WriteOnly) || !file.resize(imageBytes)) {
            *error = file.errorString();
            return 0;
        }
    }
    const pwtest::ToolResult table =
        pwtest::runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                        "label: gpt\nfirst-lba: 34\nstart=34, type=linux\n");
    // sfdisk ends the partition on its grain: its size as sfdisk reports it.
    const pwtest::ToolResult listed =
        pwtest::runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), image});
    const QJsonObject partition = QJsonDocument::fromJson(listed.out)
                                      .object()
                                      .value(QStringLiteral("partitiontable"))
                                      .toObject()
                                      .value(QStringLiteral("partitions"))
                                      .toArray()
                                      .at(0)
                                      .toObject();
    const qint64 partitionBytes = partition.value(QStringLiteral("size")).toInteger() * 512;
    if (partition.value(QStringLiteral("start")).toInteger() != 34 || partitionBytes <= 0) {
        *error = QStringLiteral("sfdisk made no partition at sector 34: ") + listed.describe();
        return 0;
    }
    QStringList args{QStringLiteral("-q"), QStringLiteral("-F"),
                     QStringLiteral("-t"), QStringLiteral("ext4"),
                     QStringLiteral("-b"), QStringLiteral("4096"),
                     QStringLiteral("-E"), QStringLiteral("lazy_itable_init=1,offset=17408"),
                     QStringLiteral("-J"), QStringLiteral("size=8"),
                     QStringLiteral("-d"), tree};
    for (const QString &feature : features)
        args << QStringLiteral("-O") << feature;
    const pwtest::ToolResult mkfs =
        pwtest::runTool(QStringLiteral("mke2fs"),
                        args << image << QStringLiteral("%1k").arg(partitionBytes / 4096 * 4));
    if (!table.ok() || !mkfs.ok()) {
        *error = table.describe() + mkfs.describe();
        return 0;
    }
    return partitionBytes;
}

} // namespace

class TestUsedMaps : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void parserReadsPartcloneMaps()
    {
        // As partclone.ntfs writes it for a 64 MiB NTFS (the last sector lies past the map).
        const QByteArray map = header(0x3FFF000) + run(0, 0x3000, '+') + run(0x3000, 0x1000, '?') +
                               run(0x4000, 0x7000, '+') + run(0xB000, 0x7F8000, '?') +
                               run(0x803000, 0x66000, '+') + run(0x869000, 0x3796000, '?');
        QString error;
        const auto extents = parsePartcloneDomain(map, 64 * kMiB, &error);
        QVERIFY2(extents, qPrintable(error));
        QCOMPARE(extents->size(), std::size_t(3));
        QCOMPARE(extents->at(0).offset, 0u);
        QCOMPARE(extents->at(0).length, 0x3000u);
        QCOMPARE(extents->at(1).offset, 0x4000u);
        QCOMPARE(extents->at(2).length, 0x66000u);
        QVERIFY(wellFormed(*extents, 64 * kMiB).isEmpty());

        // Adjacent used runs become one; no trailing newline is needed.
        const QByteArray joined = header(0x3000) + run(0, 0x1000, '+') + run(0x1000, 0x1000, '+') +
                                  run(0x2000, 0x1000, '?').trimmed();
        const auto one = parsePartcloneDomain(joined, 0x3000, &error);
        QVERIFY2(one, qPrintable(error));
        QCOMPARE(one->size(), std::size_t(1));
        QCOMPARE(one->at(0).length, 0x2000u);
    }

    void parserRejectsMalformedMaps_data()
    {
        QTest::addColumn<QByteArray>("map");
        const QByteArray ok = run(0, 0x1000, '+') + run(0x1000, 0x1000, '?');
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("comments only") << QByteArray("# Domain logfile\n# nothing\n");
        QTest::newRow("no status line") << ok;
        QTest::newRow("truncated") << header(0x3000) + ok;
        QTest::newRow("gap") << header(0x2000) + run(0, 0x800, '+') + run(0x1000, 0x1000, '?');
        QTest::newRow("overlap") << header(0x2000) + run(0, 0x1800, '+') + run(0x1000, 0x1000, '?');
        QTest::newRow("past the end") << header(0x1000) + ok;
        QTest::newRow("not from 0") << header(0x2000) + run(0x1000, 0x1000, '+');
        QTest::newRow("empty run") << header(0x1000) + run(0, 0, '+') + run(0, 0x1000, '+');
        QTest::newRow("bad-sector status")
            << header(0x2000) + run(0, 0x1000, '+') + run(0x1000, 0x1000, '-');
        QTest::newRow("two-letter status") << header(0x1000) + "0x00000000  0x00001000  ++\n";
        QTest::newRow("decimal") << header(0x1000) + "0  4096  +\n";
        QTest::newRow("not hex") << header(0x1000) + "0x0000000G  0x00001000  +\n";
        QTest::newRow("bare 0x") << header(0x1000) + "0x  0x00001000  +\n";
        QTest::newRow("too long") << header(0x1000) + "0x00000000000000000  0x00001000  +\n";
        QTest::newRow("missing size") << header(0x1000) + "0x00000000  +\n";
        QTest::newRow("extra field") << header(0x1000) + "0x00000000  0x00001000  +  x\n";
        QTest::newRow("garbage line") << header(0x2000) + run(0, 0x1000, '+') +
                                             "partclone: error\n" + run(0x1000, 0x1000, '?');
        QTest::newRow("overflow") << header(0x2000) + run(0, 0x1000, '+') +
                                         "0x00001000  0xFFFFFFFFFFFFFFFF  +\n";
        QTest::newRow("larger than the partition") << header(0x10000000) + run(0, 0x10000000, '+');
        QTest::newRow("describes nothing") << header(0);
    }

    void parserRejectsMalformedMaps()
    {
        QFETCH(QByteArray, map);
        QString error;
        const auto extents = parsePartcloneDomain(map, 0x100000, &error);
        QVERIFY2(!extents, "a malformed map must never give extents");
        QVERIFY(!error.isEmpty());
    }

    void parserStaysSmall()
    {
        // Every other 4 KiB block used: past the budget the smallest gaps are filled in, and
        // every used block stays covered.
        QByteArray map = header(2 * 4096 * 1000);
        for (std::uint64_t i = 0; i < 1000; ++i)
            map += run(2 * 4096 * i, 4096, '+') + run(2 * 4096 * i + 4096, 4096, '?');
        QString error;
        auto extents = parsePartcloneDomain(map, 1 << 30, &error, 100);
        QVERIFY2(extents, qPrintable(error));
        QVERIFY(extents->size() <= 100);
        QVERIFY(wellFormed(*extents, 1 << 30).isEmpty());
        for (std::uint64_t i = 0; i < 1000; ++i)
            QVERIFY(covered(*extents, 2 * 4096 * i, 4096));

        // A 2 TiB filesystem with 300 000 used runs spread over it, at the default budget.
        const std::uint64_t total = 2ULL << 40;
        const std::uint64_t stride = total / 300000 / 4096 * 4096;
        PartcloneDomainParser parser(total);
        const QList<QByteArray> lines = header(total).split('\n');
        for (const QByteArray &line : lines)
            QVERIFY(parser.addLine(line));
        std::uint64_t position = 0;
        for (int i = 0; i < 300000; ++i) {
            QVERIFY(parser.addLine(run(position, 4096, '+')));
            QVERIFY(parser.addLine(run(position + 4096, stride - 4096, '?')));
            position += stride;
        }
        QVERIFY(parser.addLine(run(position, total - position, '?')));
        extents = parser.finish(&error);
        QVERIFY2(extents, qPrintable(error));
        QVERIFY(extents->size() <= kMaxPartcloneExtents);
        QVERIFY(wellFormed(*extents, total).isEmpty());
        for (int i = 0; i < 300000; i += 997)
            QVERIFY(covered(*extents, std::uint64_t(i) * stride, 4096));
    }

    void partcloneProgressIsRead()
    {
        // partclone 0.3.23's stderr while it maps a 2 TiB NTFS (--UI-fresh=1), cut into pieces
        // anywhere: first the bitmap is read, then ("done!") the blocks are listed.
        const QByteArray text =
            "Partclone v0.3.23 http://partclone.org\nStarting to map device (ntfs.img) to domain "
            "log (-)\nCalculating bitmap... Please wait... \n\rElapsed: 00:00:01, Remaining: "
            "00:01:39, Completed:   1.00%\r    \rElapsed: 00:00:17, Remaining: 00:00:16, "
            "Completed:  51.25%\rTotal Time: 00:00:34, 100.00% completed!\ndone!\nFile system:  "
            "NTFS\n\rElapsed: 00:00:05, Remaining: 00:00:05, Completed:  50.00%, Rate: "
            "808.06MB/min,\n\rcurrent block:  536870912, total block:  536870911, Complete: "
            "100.00%\nTotal Time: 00:00:10, Ave. Rate:  808.1MB/min, 100.00% completed!\n";
        for (const int piece : {1, 7, 4096}) {
            QStringList heard;
            PartcloneProgressReader reader([&](const QString &step, double fraction) {
                heard << QStringLiteral("%1 %2").arg(step).arg(fraction);
            });
            for (qsizetype i = 0; i < text.size(); i += piece)
                reader.add(text.mid(i, piece));
            QCOMPARE(heard, QStringList({QStringLiteral("reading the allocation bitmap 0.01"),
                                         QStringLiteral("reading the allocation bitmap 0.5125"),
                                         QStringLiteral("listing the blocks in use 0.5")}));
        }
    }

    void typesWithAndWithoutMaps()
    {
        for (const char *type :
             {"ext2", "ext3", "ext4", "ntfs", "vfat", "exfat", "xfs", "btrfs", "f2fs", "hfsplus"})
            QVERIFY2(usedExtentsSupported(QLatin1String(type)), type);
        for (const char *type : {"swap", "crypto_LUKS", "hfs", "jfs", "reiserfs", "", "zfs_member"})
            QVERIFY2(!usedExtentsSupported(QLatin1String(type)), type);
        QCOMPARE(partcloneProgram(QStringLiteral("vfat")), QStringLiteral("partclone.fat"));
        QCOMPARE(partcloneProgram(QStringLiteral("hfsplus")), QStringLiteral("partclone.hfsp"));
        QString error = QStringLiteral("stale");
        QVERIFY(!usedExtents(QStringLiteral("/dev/null"), 0, kMiB, QStringLiteral("swap"), &error));
        QVERIFY(error.isEmpty()); // simply no map: the caller copies everything
    }

    void garbageHasNoMap_data()
    {
        QTest::addColumn<QString>("type");
        for (const char *type : {"ntfs", "vfat", "exfat", "xfs", "btrfs", "f2fs", "hfsplus"})
            QTest::newRow(type) << QString::fromLatin1(type);
    }

    void garbageHasNoMap()
    {
        // A file that starts with the filesystem needs no loop device, so no root.
        QFETCH(QString, type);
        const QString image = m_dir.filePath(QStringLiteral("garbage.img"));
        QFile file(image);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QByteArray junk(kMiB, '\0');
        for (int i = 0; i < junk.size(); ++i)
            junk[i] = char((i * 7919) >> 3);
        for (int i = 0; i < 16; ++i)
            file.write(junk);
        file.close();
        QString error;
        QVERIFY(!usedExtents(image, 0, 16 * kMiB, type, &error));
        QVERIFY2(!error.isEmpty(), qPrintable(type));
    }

    void fat12HasNoMap()
    {
        // FAT12 (fewer than 4085 clusters) gets no map: partclone.fat's map of it is wrong.
        const QString image = m_dir.filePath(QStringLiteral("fat12.img"));
        QFile::remove(image);
        {
            QFile file(image);
            QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(8 * kMiB));
        }
        QVERIFY(pwtest::runTool(QStringLiteral("mkfs.vfat"),
                                {QStringLiteral("-F"), QStringLiteral("12"), image})
                    .ok());
        const QString files = m_dir.filePath(QStringLiteral("fat12-files"));
        QString error;
        QVERIFY2(pwtest::makeFileTree(files, 60, 2 * kMiB, 7, &error), qPrintable(error));
        QStringList args{QStringLiteral("-s"), QStringLiteral("-Q"), QStringLiteral("-i"), image};
        for (const QString &entry : QDir(files).entryList(QDir::AllEntries | QDir::NoDotAndDotDot))
            args << QDir(files).filePath(entry);
        QVERIFY(pwtest::mtools(QStringLiteral("mcopy"), args << QStringLiteral("::/")).ok());

        QVERIFY(!usedExtents(image, 0, 8 * kMiB, QStringLiteral("vfat"), &error));
        QVERIFY2(error.contains(QStringLiteral("FAT12")), qPrintable(error));

        // Why: partclone's own map of it, copied onto zeros, loses files. Reported, not
        // required, so a fixed partclone shows up here rather than as a failure.
        const pwtest::ToolResult map = pwtest::runTool(
            QStringLiteral("partclone.fat"),
            {QStringLiteral("-q"), QStringLiteral("--UI-fresh=0"), QStringLiteral("-D"),
             QStringLiteral("-s"), image, QStringLiteral("-o"), QStringLiteral("-"),
             QStringLiteral("-L"), m_dir.filePath(QStringLiteral("fat12.log"))});
        const auto extents = parsePartcloneDomain(map.out, 8 * kMiB, &error);
        if (!map.ok() || !extents) {
            qInfo("partclone.fat gives no FAT12 map: %s", qPrintable(error + map.describe()));
            return;
        }
        std::vector<Extent> withStart = *extents;
        withStart.insert(withStart.begin(), Extent{0, 64 * kKiB});
        const QString copy = m_dir.filePath(QStringLiteral("fat12-copy.img"));
        QFile in(image);
        QFile out(copy);
        QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly) &&
                out.resize(8 * kMiB));
        for (const Extent &e : withStart) {
            in.seek(qint64(e.offset));
            out.seek(qint64(e.offset));
            out.write(in.read(qint64(e.length)));
        }
        out.close();
        QTemporaryDir read;
        pwtest::mtools(QStringLiteral("mcopy"),
                       {QStringLiteral("-s"), QStringLiteral("-Q"), QStringLiteral("-i"), copy,
                        QStringLiteral("::/*"), read.path() + QLatin1Char('/')});
        const QStringList lost =
            pwtest::compareTrees(pwtest::treeSha256(files), pwtest::treeSha256(read.path()));
        qInfo("partclone.fat's FAT12 map loses %lld files%s", qlonglong(lost.size()),
              lost.isEmpty() ? " (it may be fixed: the refusal could go)" : "");
    }

    void uncleanLogsHaveNoMap()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        // btrfs with a log tree to replay: its blocks are in no extent tree.
        const QString image = m_dir.filePath(QStringLiteral("btrfs-log.img"));
        QFile::remove(image);
        QFile file(image);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(128 * kMiB));
        file.close();
        QVERIFY(pwtest::runTool(QStringLiteral("mkfs.btrfs"), {QStringLiteral("-q"), image}).ok());
        QString error;
        QVERIFY2(usedExtents(image, 0, 128 * kMiB, QStringLiteral("btrfs"), &error),
                 qPrintable(error));
        QVERIFY(file.open(QIODevice::ReadWrite) && file.seek(64 * kKiB + 96));
        file.write(QByteArray("\x01\x00\x00\x01\x00\x00\x00\x00", 8));
        file.close();
        QVERIFY(!usedExtents(image, 0, 128 * kMiB, QStringLiteral("btrfs"), &error));
        QVERIFY2(error.contains(QStringLiteral("log tree")), qPrintable(error));

        // XFS shut down with changes only in its log: partclone would map without them.
        const QString xfs = m_dir.filePath(QStringLiteral("xfs-log.img"));
        QFile::remove(xfs);
        QFile xfsFile(xfs);
        QVERIFY(xfsFile.open(QIODevice::WriteOnly) && xfsFile.resize(kOffset + 160 * kMiB));
        xfsFile.close();
        {
            pwtest::LoopRange loop(xfs, kOffset, 160 * kMiB);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            QVERIFY2(pwtest::makeFilesystem(loop.path(), QStringLiteral("xfs"), QStringLiteral("L"),
                                            63, &error),
                     qPrintable(error));
            QTemporaryDir mnt;
            QVERIFY2(pwtest::mountFilesystem(loop.path(), QStringLiteral("xfs"), mnt.path(), false,
                                             &error),
                     qPrintable(error));
            QFile data(mnt.filePath(QStringLiteral("data.bin")));
            QVERIFY(data.open(QIODevice::WriteOnly));
            data.write(QByteArray(4 * kMiB, 'x'));
            data.close();
            pwtest::runTool(QStringLiteral("sync"), {});
            QFile more(mnt.filePath(QStringLiteral("more.bin")));
            QVERIFY(more.open(QIODevice::WriteOnly));
            more.write(QByteArray(kMiB, 'y'));
            more.close();
            // -f: the log reaches the disk, the metadata it describes does not.
            const pwtest::ToolResult down = pwtest::runTool(
                QStringLiteral("xfs_io"), {QStringLiteral("-x"), QStringLiteral("-c"),
                                           QStringLiteral("shutdown -f"), mnt.path()});
            QVERIFY2(pwtest::unmountFilesystem(loop.path(), mnt.path(), &error) && down.ok(),
                     qPrintable(error + down.describe()));
        }
        QVERIFY(!usedExtents(xfs, kOffset, 160 * kMiB, QStringLiteral("xfs"), &error));
        QVERIFY2(error.contains(QStringLiteral("log")), qPrintable(error));
    }

    void extLazyInodeTablesStayBehind()
    {
        // A lazily made 16 GiB ext4 at GPT sector 34 (as on a big disk): its groups are flagged
        // INODE_UNINIT and BLOCK_UNINIT, and group 0 records how much of its inode table was
        // never used. Those blocks hold nothing: they are left out of the map, everything
        // e2image -ra copies is in it, and the filesystem moved by the map keeps every file and
        // passes e2fsck even with garbage in the blocks left out.
        QElapsedTimer timer;
        timer.start();
        const QString tree = m_dir.filePath(QStringLiteral("lazy-tree"));
        QString error;
        QVERIFY2(pwtest::makeFileTree(tree, 400, 3 * kMiB, 17, &error), qPrintable(error));
        const QString image = m_dir.filePath(QStringLiteral("lazy.img"));
        constexpr qint64 kStart = 34 * 512;
        const qint64 partition = makeLazyExt4(image, 16LL << 30, tree, {}, &error);
        QVERIFY2(partition > 0, qPrintable(error));
        const ExtLayout layout = dumpe2fs(image, kStart);
        QVERIFY(layout.blockSize == 4096 && layout.groups.size() == 128);

        const auto map = usedExtents(image, kStart, partition, QStringLiteral("ext4"), &error);
        QVERIFY2(map, qPrintable(error));
        QVERIFY(wellFormed(*map, std::uint64_t(partition)).isEmpty());
        const std::uint64_t bs = std::uint64_t(layout.blockSize);
        // Less than half of what the inode tables alone take (256 MiB; the old map had all of
        // them): the files, the journal, the reserved GDT blocks of 11 backups are the rest.
        std::uint64_t tables = 0;
        for (const ExtGroup &g : layout.groups)
            tables += std::uint64_t(g.tableLast - g.tableFirst + 1) * bs;
        QVERIFY2(extentBytes(*map) < tables / 2,
                 qPrintable(QStringLiteral("%1 of %2").arg(extentBytes(*map)).arg(tables)));

        // What dumpe2fs says is unused is out; the used part of group 0's table is in.
        std::vector<std::pair<qint64, qint64>> leftOut; // blocks, first and count
        int uninit = 0;
        for (const ExtGroup &g : layout.groups) {
            const qint64 tableBlocks = g.tableLast - g.tableFirst + 1;
            qint64 firstUnused = g.tableFirst;
            if (g.inodeUninit) {
                ++uninit;
                leftOut.push_back({g.inodeBitmap, 1});
            } else {
                const qint64 usedInodes = layout.inodesPerGroup - g.unusedInodes;
                firstUnused +=
                    (usedInodes * layout.inodeSize + layout.blockSize - 1) / layout.blockSize;
                QVERIFY(covered(*map, std::uint64_t(g.tableFirst) * bs,
                                std::uint64_t(firstUnused - g.tableFirst) * bs));
            }
            if (g.blockUninit)
                leftOut.push_back({g.blockBitmap, 1});
            if (firstUnused <= g.tableLast)
                leftOut.push_back({firstUnused, g.tableFirst + tableBlocks - firstUnused});
        }
        QVERIFY(uninit > 100);
        for (const auto &[first, count] : leftOut)
            QVERIFY2(!overlaps(*map, std::uint64_t(first) * bs, std::uint64_t(count) * bs),
                     qPrintable(QStringLiteral("blocks %1+%2").arg(first).arg(count)));

        // Every non-zero block e2image -ra copies (metadata and data) is in the map.
        const QString raw = m_dir.filePath(QStringLiteral("lazy.e2i"));
        QFile::remove(raw);
        const pwtest::ToolResult e2image =
            pwtest::runTool(QStringLiteral("e2image"), {QStringLiteral("-ra"), QStringLiteral("-o"),
                                                        QString::number(kStart), image, raw});
        QVERIFY2(e2image.ok(), qPrintable(e2image.describe()));
        {
            QFile in(raw);
            QVERIFY(in.open(QIODevice::ReadOnly));
            const int fd = in.handle();
            qint64 blocks = 0;
            off_t at = 0;
            while ((at = lseek(fd, at, SEEK_DATA)) >= 0) {
                const off_t end = lseek(fd, at, SEEK_HOLE);
                for (off_t block = at / off_t(bs) * off_t(bs); block < end; block += off_t(bs)) {
                    QVERIFY(in.seek(block));
                    const QByteArray data = in.read(qint64(bs));
                    if (data.count('\0') == data.size())
                        continue;
                    ++blocks;
                    QVERIFY2(covered(*map, std::uint64_t(block), bs),
                             qPrintable(
                                 QStringLiteral("e2image copies block %1").arg(block / off_t(bs))));
                }
                at = end;
            }
            QVERIFY(blocks > 3 * kMiB / 4096);
        }
        QFile::remove(raw);

        // Garbage where the map leaves blocks out: the filesystem itself never reads them.
        {
            QFile out(image);
            QVERIFY(out.open(QIODevice::ReadWrite));
            QByteArray junk(int(bs), '\0');
            for (int i = 0; i < junk.size(); ++i)
                junk[i] = char(0x5A ^ (i * 131));
            for (const auto &[first, count] : leftOut) {
                for (const qint64 block : {first, first + count - 1}) {
                    QVERIFY(out.seek(kStart + block * qint64(bs)));
                    QCOMPARE(out.write(junk), qint64(bs));
                }
            }
        }
        const pwtest::ToolResult before = pwtest::runTool(
            QStringLiteral("e2fsck"),
            {QStringLiteral("-fn"), image + QStringLiteral("?offset=%1").arg(kStart)});
        QVERIFY2(before.ok(), qPrintable(before.describe() + QString::fromUtf8(before.out)));

        // Realigned by the map (partwise-cli, as a user would), every file and the check.
        pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
        const pwtest::CliResult realign = pwtest::runCli(
            {QStringLiteral("realign"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
             m_dir.filePath(QStringLiteral("lazy-backups")), image},
            300000);
        QVERIFY2(realign.exitCode == 0,
                 qPrintable(realign.describe() + QString::fromUtf8(realign.out)));
        QVERIFY2(realign.out.contains("bytes in use"), realign.out.constData()); // by the map
        const pwtest::ToolResult sfdisk =
            pwtest::runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), image});
        const QJsonArray parts = QJsonDocument::fromJson(sfdisk.out)
                                     .object()
                                     .value(QStringLiteral("partitiontable"))
                                     .toObject()
                                     .value(QStringLiteral("partitions"))
                                     .toArray();
        QCOMPARE(parts.size(), 1);
        const qint64 newStart = parts.at(0).toObject().value(QStringLiteral("start")).toInteger();
        QCOMPARE(newStart, 2048);
        const QString moved = image + QStringLiteral("?offset=%1").arg(newStart * 512);
        const pwtest::ToolResult after =
            pwtest::runTool(QStringLiteral("e2fsck"), {QStringLiteral("-fn"), moved});
        QVERIFY2(after.ok(), qPrintable(after.describe() + QString::fromUtf8(after.out)));
        const QString dump = m_dir.filePath(QStringLiteral("lazy-read"));
        QDir().mkpath(dump);
        const pwtest::ToolResult rdump =
            pwtest::runTool(QStringLiteral("debugfs"),
                            {QStringLiteral("-R"), QStringLiteral("rdump / ") + dump, moved});
        QVERIFY2(rdump.ok(), qPrintable(rdump.describe()));
        QDir(dump).rmdir(QStringLiteral("lost+found"));
        const QStringList differences =
            pwtest::compareTrees(pwtest::treeSha256(tree), pwtest::treeSha256(dump));
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join(QLatin1Char('\n'))));
        qInfo("lazy ext4: %llu bytes mapped of %lld; realigned and checked in %lld ms",
              static_cast<unsigned long long>(extentBytes(*map)), partition, timer.elapsed());
        QFile::remove(image);
    }

    void extBadDescriptorChecksumIsCopied()
    {
        // A group descriptor whose checksum fails is not believed: its group's inode table and
        // bitmaps are copied. (uninit_bg: no bitmap checksums, so libext2fs still reads the
        // bitmaps; with metadata_csum the bitmaps' own checksums fail too and the map is refused
        // whole.)
        const QString tree = m_dir.filePath(QStringLiteral("csum-tree"));
        QString error;
        QVERIFY2(pwtest::makeFileTree(tree, 20, kMiB, 5, &error), qPrintable(error));
        constexpr qint64 kStart = 34 * 512;
        for (const QString &features :
             {QStringLiteral("^metadata_csum,uninit_bg"), QStringLiteral("metadata_csum")}) {
            const QString image = m_dir.filePath(QStringLiteral("csum.img"));
            const qint64 partition = makeLazyExt4(image, 1LL << 30, tree, {features}, &error);
            QVERIFY2(partition > 0, qPrintable(error));
            ExtLayout layout = dumpe2fs(image, kStart);
            QVERIFY(layout.groups.size() == 8);
            constexpr int kGroup = 3;
            const ExtGroup g = layout.groups[kGroup];
            QVERIFY(g.inodeUninit && !g.checksumBad);
            const std::uint64_t bs = std::uint64_t(layout.blockSize);
            const std::uint64_t table = std::uint64_t(g.tableFirst) * bs;
            const std::uint64_t tableBytes = std::uint64_t(g.tableLast - g.tableFirst + 1) * bs;
            const auto trusted =
                usedExtents(image, kStart, partition, QStringLiteral("ext4"), &error);
            QVERIFY2(trusted, qPrintable(error));
            QVERIFY(!overlaps(*trusted, table, tableBytes));

            // bg_checksum is the 16 bits at byte 0x1E of the descriptor; the descriptors start
            // in block 1.
            QFile file(image);
            QVERIFY(file.open(QIODevice::ReadWrite));
            const qint64 at = kStart + qint64(bs) + kGroup * layout.descriptorSize + 0x1E;
            QVERIFY(file.seek(at));
            const QByteArray old = file.read(1);
            QVERIFY(file.seek(at));
            file.write(QByteArray(1, char(old.at(0) ^ 0x5A)));
            file.close();
            layout = dumpe2fs(image, kStart);
            QVERIFY2(layout.groups[kGroup].checksumBad, "dumpe2fs should see the bad checksum");

            const auto distrusted =
                usedExtents(image, kStart, partition, QStringLiteral("ext4"), &error);
            if (features == QLatin1String("metadata_csum")) {
                QVERIFY2(!distrusted && !error.isEmpty(), "refused whole, so copied whole");
                qInfo("metadata_csum: %s", qPrintable(error));
                continue;
            }
            QVERIFY2(distrusted, qPrintable(error));
            QVERIFY2(covered(*distrusted, table, tableBytes),
                     "a group with a bad descriptor checksum must have its inode table copied");
            QVERIFY(covered(*distrusted, std::uint64_t(g.inodeBitmap) * bs, bs));
            // The other groups are still believed.
            const ExtGroup &next = layout.groups[kGroup + 1];
            QVERIFY(next.inodeUninit);
            QVERIFY(!overlaps(*distrusted, std::uint64_t(next.tableFirst) * bs, bs));
        }
    }

    void fatReaderRefusesWhatItDoesNotKnow()
    {
        // The FAT reader's map is only as good as its understanding: a boot sector out of range,
        // FAT copies that disagree, a dirty flag or a FAT entry pointing nowhere make it refuse,
        // and the map then comes from partclone (or nowhere).
        constexpr qint64 kSize = 64 * kMiB;
        const QString clean = m_dir.filePath(QStringLiteral("fat-clean.img"));
        QFile::remove(clean);
        {
            QFile file(clean);
            QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(kSize));
        }
        QVERIFY(pwtest::runTool(QStringLiteral("mkfs.vfat"),
                                {QStringLiteral("-F"), QStringLiteral("32"), QStringLiteral("-s"),
                                 QStringLiteral("1"), clean})
                    .ok());
        QFile data(m_dir.filePath(QStringLiteral("fat-data.bin")));
        QVERIFY(data.open(QIODevice::WriteOnly));
        data.write(QByteArray(3 * kMiB, 'd'));
        data.close();
        QVERIFY(pwtest::mtools(QStringLiteral("mcopy"), {QStringLiteral("-i"), clean,
                                                         data.fileName(), QStringLiteral("::/")})
                    .ok());
        QString error;
        const auto map = fatUsedExtents(clean, 0, kSize, &error);
        QVERIFY2(map, qPrintable(error));
        QVERIFY(extentBytes(*map) > quint64(3 * kMiB) && extentBytes(*map) < quint64(8 * kMiB));

        // Where the FATs are, from the boot sector as fsck.fat -v reports it.
        const pwtest::ToolResult info = pwtest::runTool(
            QStringLiteral("fsck.fat"), {QStringLiteral("-n"), QStringLiteral("-v"), clean});
        const QRegularExpressionMatch fatAt =
            QRegularExpression(QStringLiteral("First FAT starts at byte (\\d+)"))
                .match(QString::fromUtf8(info.out));
        const QRegularExpressionMatch fatBytes =
            QRegularExpression(QStringLiteral("(\\d+) bytes per FAT"))
                .match(QString::fromUtf8(info.out));
        QVERIFY2(fatAt.hasMatch() && fatBytes.hasMatch(), info.out.constData());
        const qint64 firstFat = fatAt.captured(1).toLongLong();
        const qint64 secondFat = firstFat + fatBytes.captured(1).toLongLong();

        struct Damage
        {
            const char *name;
            qint64 at;
            QByteArray bytes;
            const char *why;
        };
        const Damage damages[] = {
            {"bytes per sector", 11, QByteArray("\x00\x03", 2), "out of range"},
            {"second FAT differs", secondFat + 4 * 2000, QByteArray("\x07\x00\x00\x00", 4),
             "copies differ"},
            {"marked dirty", 65, QByteArray("\x01", 1), "dirty"},
            {"entry past the end", firstFat + 4 * 3, QByteArray("\x00\x00\x00\x01", 4),
             "not a valid one"},
        };
        for (const Damage &damage : damages) {
            const QString image = m_dir.filePath(QStringLiteral("fat-damaged.img"));
            QFile::remove(image);
            QVERIFY(QFile::copy(clean, image));
            QFile file(image);
            QVERIFY(file.open(QIODevice::ReadWrite) && file.seek(damage.at));
            file.write(damage.bytes);
            if (QByteArray(damage.name).startsWith("entry")) { // in both copies, or they differ
                QVERIFY(file.seek(damage.at - firstFat + secondFat));
                file.write(damage.bytes);
            }
            file.close();
            QVERIFY2(!fatUsedExtents(image, 0, kSize, &error), damage.name);
            QVERIFY2(error.contains(QLatin1String(damage.why)), qPrintable(error));
        }
        QFile::remove(clean);
    }

    void mapCarriesEveryFile_data()
    {
        QTest::addColumn<QString>("fs");
        QTest::addColumn<qint64>("size");
        QTest::newRow("ntfs") << QStringLiteral("ntfs") << 64 * kMiB;
        QTest::newRow("fat16") << QStringLiteral("fat16") << 64 * kMiB;
        QTest::newRow("fat32") << QStringLiteral("fat32") << 96 * kMiB;
        QTest::newRow("exfat") << QStringLiteral("exfat") << 64 * kMiB;
        QTest::newRow("xfs") << QStringLiteral("xfs") << 160 * kMiB;
        QTest::newRow("btrfs") << QStringLiteral("btrfs") << 128 * kMiB;
        QTest::newRow("f2fs") << QStringLiteral("f2fs") << 128 * kMiB;
    }

    void mapCarriesEveryFile()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        QFETCH(QString, fs);
        QFETCH(qint64, size);
        QElapsedTimer timer;
        timer.start();
        const QString type = pwtest::blkidTypeOf(fs);
        const QString image = m_dir.filePath(fs + QStringLiteral(".img"));
        const qint64 imageSize = kOffset + size + kMiB;
        QFile::remove(image);
        {
            QFile file(image);
            QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(imageSize));
        }
        const QString expectedDir = m_dir.filePath(fs + QStringLiteral("-files"));
        QString error;
        {
            pwtest::LoopRange loop(image, kOffset, size);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            if (fs == QLatin1String("f2fs"))
                QVERIFY(pwtest::runTool(QStringLiteral("mkfs.f2fs"),
                                        {QStringLiteral("-q"), QStringLiteral("-f"), loop.path()})
                            .ok());
            else
                QVERIFY2(
                    pwtest::makeFilesystem(loop.path(), fs, QStringLiteral("MAPS"), 63, &error),
                    qPrintable(error));
            QVERIFY2(pwtest::ageFilesystem(loop.path(), fs, expectedDir, 300, 6 * kMiB, 13, &error),
                     qPrintable(error));
        }
        const QMap<QString, QByteArray> expected = pwtest::treeSha256(expectedDir, &error);
        QVERIFY2(expected.size() > 200, qPrintable(error));

        QElapsedTimer mapTimer;
        mapTimer.start();
        const auto extents = usedExtents(image, kOffset, size, type, &error);
        const qint64 mapMs = mapTimer.elapsed();
        QVERIFY2(extents, qPrintable(error));
        QVERIFY2(wellFormed(*extents, std::uint64_t(size)).isEmpty(),
                 qPrintable(wellFormed(*extents, std::uint64_t(size))));
        QVERIFY(covered(*extents, 0, 64 * kKiB));
        if (type == QLatin1String("vfat")) {
            // Read from the FAT itself, and covering every cluster partclone.fat marks used.
            QVERIFY2(fatUsedExtents(image, kOffset, size, &error), qPrintable(error));
            QElapsedTimer partcloneTimer;
            partcloneTimer.start();
            const auto partclone = partcloneUsedExtents(image, kOffset, size, type, &error);
            QVERIFY2(partclone, qPrintable(error));
            for (const Extent &e : *partclone)
                QVERIFY2(
                    covered(*extents, e.offset, e.length),
                    qPrintable(QStringLiteral("partclone's %1+%2").arg(e.offset).arg(e.length)));
            qInfo("%s: partclone's map %llu bytes in %lld ms", qPrintable(fs),
                  static_cast<unsigned long long>(extentBytes(*partclone)),
                  partcloneTimer.elapsed());
        }
        const quint64 used = extentBytes(*extents);
        qInfo("%s: %zu extents, %llu of %lld bytes (%.0f %%), mapped in %lld ms", qPrintable(fs),
              extents->size(), static_cast<unsigned long long>(used), size,
              100.0 * double(used) / double(size), mapMs);
        // Mostly empty: far less than the partition, but at least the files.
        QVERIFY(used < quint64(size) / 2);
        QVERIFY(used > quint64(6 * kMiB));

        // Only the mapped bytes, onto zeros: every file and the filesystem's check must pass.
        QFile largeFile(expectedDir + QStringLiteral("/large.bin"));
        QVERIFY(largeFile.open(QIODevice::ReadOnly));
        const QByteArray large = largeFile.readAll();
        const qint64 largeAt = locate(image, kOffset, size, large);
        QVERIFY(largeAt >= 0);
        const QString copy = m_dir.filePath(fs + QStringLiteral("-copy.img"));
        QList<QPair<qint64, QByteArray>> f2fsBlocks;
        auto verdict = [&](const std::vector<Extent> &map, QStringList *differences,
                           pwtest::ToolResult *check) {
            QString why;
            if (!copyExtents(image, copy, kOffset, imageSize, map, &why)) {
                *differences << why;
                return;
            }
            pwtest::LoopRange loop(copy, kOffset, size);
            if (!loop.ok()) {
                *differences << loop.error();
                return;
            }
            if (fs == QLatin1String("f2fs")) {
                // No f2fs driver here: every located block of every file must be in the copy.
                QFile in(copy);
                in.open(QIODevice::ReadOnly);
                for (const auto &[at, block] : std::as_const(f2fsBlocks)) {
                    in.seek(kOffset + at);
                    if (in.read(4096) != block) {
                        *differences << QStringLiteral("the block at %1 differs").arg(at);
                        break;
                    }
                }
                *check = pwtest::runTool(QStringLiteral("fsck.f2fs"),
                                         {QStringLiteral("--dry-run"), loop.path()});
                return;
            }
            QString readError;
            const QMap<QString, QByteArray> actual =
                pwtest::filesystemTreeSha256(loop.path(), fs, &readError);
            *differences << pwtest::compareTrees(expected, actual);
            if (!readError.isEmpty())
                *differences << readError;
            *check = pwtest::checkFilesystemReadOnly(loop.path(), fs);
        };
        if (fs == QLatin1String("f2fs")) {
            QVERIFY2(locateFileBlocks(image, kOffset, size, expectedDir,
                                      {QStringLiteral("large.bin"), QStringLiteral("FRAGA.BIN"),
                                       QStringLiteral("FRAGB.BIN")},
                                      &f2fsBlocks, &error),
                     qPrintable(error));
            QVERIFY(f2fsBlocks.size() > 6 * kMiB / 4096);
        }

        QStringList differences;
        pwtest::ToolResult check;
        verdict(*extents, &differences, &check);
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join(QLatin1Char('\n'))));
        QVERIFY2(check.ok(), qPrintable(check.describe()));

        // The same map without the used range that holds the start of large.bin: caught. The
        // range is wider than the gaps the mover copies anyway (kExtentMergeGap), or the mover
        // would make up for the damage.
        const std::vector<Extent> bad = without(*extents, std::uint64_t(largeAt) / 4096 * 4096,
                                                2 * partwise::move::kExtentMergeGap);
        QVERIFY(extentBytes(bad) < used);
        differences.clear();
        check = {};
        verdict(bad, &differences, &check);
        QVERIFY2(!differences.isEmpty() || !check.ok(),
                 "a map missing part of large.bin went unnoticed");
        qInfo("%s: the damaged map was caught (%s); %lld ms in all", qPrintable(fs),
              qPrintable(differences.value(0, check.describe()).left(120)), timer.elapsed());
        QFile::remove(copy);
        QFile::remove(image);
    }
};

QTEST_GUILESS_MAIN(TestUsedMaps)
#include "tst_usedmaps.moc"
