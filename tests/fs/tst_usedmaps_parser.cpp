// The partclone domain-map parser (core/fs/partclonemap): real maps are read, malformed ones
// are refused whole, and huge ones stay within the extent budget while every used block stays
// covered. Also partclone's progress text read in pieces of any size, and which filesystem
// types have a used-block map at all (core/fs/usedblocks). No tool runs, no file is written.

#include "fs/partclonemap.h"
#include "fs/usedblocks.h"

#include "usedmapsfixture.h"

#include <QtTest>

using namespace partwise;
using namespace usedmaps;

class TestUsedMapsParser : public QObject
{
    Q_OBJECT

private slots:
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
};

QTEST_GUILESS_MAIN(TestUsedMapsParser)
#include "tst_usedmaps_parser.moc"
