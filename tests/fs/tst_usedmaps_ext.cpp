// Used-block maps of ext4 (core/fs/usedblocks) made lazily, as on a big disk: the inode tables
// and bitmaps the group descriptors say were never written stay out of the map, the rest covers
// every block e2image -ra copies, and a realignment by the map (partwise-cli) keeps every file
// (e2fsck, debugfs). A group descriptor whose checksum fails is not believed: its table is copied.

#include "buildsetting.h"
#include "fs/usedblocks.h"

#include "clirun.h"
#include "filetree.h"
#include "toolrun.h"
#include "usedmapsfixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

using namespace partwise;
using namespace usedmaps;

class TestUsedMapsExt : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

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
};

QTEST_GUILESS_MAIN(TestUsedMapsExt)
#include "tst_usedmaps_ext.moc"
