// What a paste carries and how small it may be (`{"op":"paste"}` plans through `partwise-cli
// apply`): the source's flags, GPT name and type on the new entry (sfdisk -J, sgdisk -i), a paste
// smaller than its source shrunk on the way as far as the filesystem's tool allows (sfdisk,
// e2fsck, every file's SHA-256, the source untouched), swap made anew at any size (blkid), and
// XFS refused smaller with the reason and nothing written.

#include "blkidprobe.h"
#include "buildsetting.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "pastefixture.h"

#include <QJsonObject>
#include <QRegularExpression>

using namespace pwtest;
using namespace pastetest;

namespace {

// Partition `number` of `image` as `sfdisk -J` writes it (type, name, attrs, bootable, uuid).
QJsonObject sfdiskEntry(const QString &image, int number)
{
    const SfdiskTable table = SfdiskTable::read(image);
    const SfdiskPartition *p = table.find(number);
    return p ? p->entry : QJsonObject();
}

// What `sgdisk -i N` says of a GPT entry: its type GUID code, attribute flags and name lines.
QStringList sgdiskInfo(const QString &image, int number)
{
    const ToolResult r =
        runTool(QStringLiteral("sgdisk"), {QStringLiteral("-i"), QString::number(number), image});
    QStringList lines;
    for (const QString &line : QString::fromUtf8(r.out).split(QLatin1Char('\n')))
        if (line.startsWith(QLatin1String("Partition GUID code:")) ||
            line.startsWith(QLatin1String("Attribute flags:")) ||
            line.startsWith(QLatin1String("Partition name:")))
            lines << line.trimmed();
    return lines;
}

} // namespace

class TestPasteEntry : public QObject, protected PasteFixture
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    }

    // The entry comes along: GPT → GPT an ESP's type, flags and name and another partition's
    // own type GUID, legacy_boot attribute and name (sfdisk -J, sgdisk -i); MBR → MBR the
    // active flag and the type byte. The partition GUIDs are new.
    void carriesTheEntry()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = path(QStringLiteral("entry-source.img"));
        const QString target = path(QStringLiteral("entry-target.img"));
        QString error;
        // Partition 2: Linux root (x86-64), which libparted sets by no flag of its own.
        QVERIFY2(SfdiskTable::writeImage(
                     source, 40 * kMiB,
                     "label: gpt\nstart=2048, size=16384, type=U, name=\"EFI system\"\n"
                     "start=18432, size=16384, type=4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709, "
                     "name=\"boot stuff\", attrs=\"LegacyBIOSBootable\"\n",
                     &error),
                 qPrintable(error));
        QVERIFY2(SfdiskTable::writeImage(target, 40 * kMiB, "label: gpt\n", &error),
                 qPrintable(error));
        QVERIFY(runTool(QStringLiteral("mkfs.vfat"),
                        {QStringLiteral("--offset"), QStringLiteral("2048"), QStringLiteral("-n"),
                         QStringLiteral("ESP"), source, QStringLiteral("8192")})
                    .ok());
        QVERIFY(runTool(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), QStringLiteral("-E"),
                                                      QStringLiteral("offset=%1").arg(18432 * 512),
                                                      source, QStringLiteral("8M")})
                    .ok());
        const QString plan = writePlan(
            QStringLiteral("entry.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1},"
                           "{\"op\":\"paste\",\"source\":\"%1\",\"number\":2}]}")
                .arg(source)
                .toUtf8());
        const CliResult r = apply(plan, target);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        for (int n : {1, 2}) {
            const QJsonObject from = sfdiskEntry(source, n), to = sfdiskEntry(target, n);
            QVERIFY2(!to.isEmpty(), qPrintable(QStringLiteral("no partition %1").arg(n)));
            for (const char *key : {"type", "name", "attrs"})
                QCOMPARE(to.value(QLatin1String(key)), from.value(QLatin1String(key)));
            QVERIFY(to.value(QStringLiteral("uuid")) != from.value(QStringLiteral("uuid")));
            const QStringList fromInfo = sgdiskInfo(source, n);
            QCOMPARE(fromInfo.size(), 3);
            QCOMPARE(sgdiskInfo(target, n), fromInfo);
        }
        QCOMPARE(sfdiskEntry(target, 1).value(QStringLiteral("name")).toString(),
                 QStringLiteral("EFI system"));
        QCOMPARE(sfdiskEntry(target, 2).value(QStringLiteral("attrs")).toString(),
                 QStringLiteral("LegacyBIOSBootable"));

        // MBR → MBR: active, and the FAT32 (LBA) type byte.
        const QString mbr = path(QStringLiteral("entry-mbr.img"));
        const QString mbrTarget = path(QStringLiteral("entry-mbr-target.img"));
        QVERIFY2(SfdiskTable::writeImage(mbr, 24 * kMiB,
                                         "label: dos\nstart=2048, size=16384, type=c, bootable\n",
                                         &error),
                 qPrintable(error));
        QVERIFY2(SfdiskTable::writeImage(mbrTarget, 24 * kMiB, "label: dos\n", &error),
                 qPrintable(error));
        QVERIFY(runTool(QStringLiteral("mkfs.vfat"),
                        {QStringLiteral("--offset"), QStringLiteral("2048"), mbr,
                         QStringLiteral("8192")})
                    .ok());
        const QString mbrPlan = writePlan(
            QStringLiteral("entry-mbr.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1}]}")
                .arg(mbr)
                .toUtf8());
        const CliResult m = apply(mbrPlan, mbrTarget);
        QVERIFY2(m.exitCode == 0, qPrintable(m.describe() + QString::fromUtf8(m.out)));
        const QJsonObject active = sfdiskEntry(mbrTarget, 1);
        QVERIFY2(active.value(QStringLiteral("bootable")).toBool(),
                 QJsonDocument(active).toJson().constData());
        QCOMPARE(active.value(QStringLiteral("type")).toString(), QStringLiteral("c"));

        // GPT → MBR: the ESP stays an ESP (type ef), as the disk copy converts it.
        const QString espTarget = path(QStringLiteral("entry-esp-mbr.img"));
        QVERIFY2(SfdiskTable::writeImage(espTarget, 24 * kMiB, "label: dos\n", &error),
                 qPrintable(error));
        const QString espPlan = writePlan(
            QStringLiteral("entry-esp.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1}]}")
                .arg(source)
                .toUtf8());
        const CliResult e = apply(espPlan, espTarget);
        QVERIFY2(e.exitCode == 0, qPrintable(e.describe() + QString::fromUtf8(e.out)));
        QCOMPARE(sfdiskEntry(espTarget, 1).value(QStringLiteral("type")).toString(),
                 QStringLiteral("ef"));
    }

    // Smaller than its source: the ext4 filesystem is shrunk on the way (in a copy: the source
    // is never written), every file the same and its check clean.
    void smallerThanTheSource()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = makeSource(QStringLiteral("shrink-source.img"), 48, 2 * kMiB);
        QVERIFY(!source.isEmpty());
        const QString target = path(QStringLiteral("shrink-target.img"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(target, 32 * kMiB, "label: gpt\n", &error),
                 qPrintable(error));
        const QByteArray sourceSum = sha256Of(source);
        const auto before = contents(source);
        // 14 MiB: about 60 % of the 24 MiB partition.
        const QString plan = writePlan(
            QStringLiteral("shrink.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1,"
                           "\"size\":\"14MiB\"}]}")
                .arg(source)
                .toUtf8());
        const CliResult r = apply(plan, target);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        QCOMPARE(sha256Of(source), sourceSum);
        const SfdiskTable table = SfdiskTable::read(target);
        QVERIFY2(table.ok, qPrintable(table.error));
        QCOMPARE(table.partitions.size(), 1);
        QCOMPARE(table.find(1)->size * 512, 14 * kMiB);
        QCOMPARE(table.find(1)->start * 512 % kMiB, 0);
        const qint64 start = table.find(1)->start * 512;
        const ToolResult fsck =
            runTool(QStringLiteral("e2fsck"),
                    {QStringLiteral("-fn"), target + QStringLiteral("?offset=%1").arg(start)});
        QVERIFY2(fsck.ok(), qPrintable(fsck.describe()));
        verifySame(before, 1, contents(target), 1);
        const ToolResult dump =
            runTool(QStringLiteral("dumpe2fs"),
                    {QStringLiteral("-h"), target + QStringLiteral("?offset=%1").arg(start)});
        const auto field = [&](const char *name) {
            return QRegularExpression(QLatin1String(name) + QStringLiteral(":\\s+(\\d+)"))
                .match(QString::fromUtf8(dump.out))
                .captured(1)
                .toLongLong();
        };
        QVERIFY2(field("Block count") * field("Block size") <= 14 * kMiB, dump.out.constData());
        QVERIFY(!QDir(path(QStringLiteral("shrink-target.img.partwise-move.realign.scratch")))
                     .exists());
    }

    // Swap is made anew, so it may be pasted at any size: a 16 MiB swap into 4 MiB is a swap area
    // there with the source's label and, as every paste, a UUID of its own (blkid).
    void smallerSwapMadeAnew()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = path(QStringLiteral("swap-source.img"));
        const QString target = path(QStringLiteral("swap-target.img"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(source, 24 * kMiB,
                                         "label: gpt\nstart=2048, size=32768, type=S\n", &error),
                 qPrintable(error));
        QVERIFY2(SfdiskTable::writeImage(target, 12 * kMiB, "label: gpt\n", &error),
                 qPrintable(error));
        const QString uuid = QStringLiteral("6a1c2a9e-3c55-4b53-9d59-0123456789ab");
        // Made in a file of its own (Debian 12's mkswap has no --offset), then put at 1 MiB.
        const QString area = path(QStringLiteral("swap-area"));
        QVERIFY(writeFile(area, {}) && QFile::resize(area, 16 * kMiB));
        const ToolResult made =
            runTool(QStringLiteral("mkswap"), {QStringLiteral("-L"), QStringLiteral("pwswap"),
                                               QStringLiteral("-U"), uuid, area});
        QVERIFY2(made.ok(), qPrintable(made.describe()));
        {
            QFile in(area);
            QFile out(source);
            QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::ReadWrite));
            QVERIFY(out.seek(kMiB) && out.write(in.readAll()) == 16 * kMiB);
        }
        const QString plan = writePlan(
            QStringLiteral("swap.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1,"
                           "\"size\":\"4MiB\"}]}")
                .arg(source)
                .toUtf8());
        const CliResult r = apply(plan, target);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        const SfdiskTable table = SfdiskTable::read(target);
        QVERIFY2(table.ok && table.find(1), qPrintable(table.error));
        QCOMPARE(table.find(1)->size * 512, 4 * kMiB);
        const qint64 start = table.find(1)->start * 512;
        const BlkidInfo swap = blkidProbe(target, start);
        QCOMPARE(swap.type, QStringLiteral("swap"));
        QVERIFY2(!swap.uuid.isEmpty() && swap.uuid != uuid, qPrintable(swap.uuid)); // beside it
        QCOMPARE(swap.label, QStringLiteral("pwswap"));
    }

    // XFS cannot shrink: a smaller paste is refused with the reason before anything is written.
    void smallerXfsRefused()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = path(QStringLiteral("xfs-source.img"));
        const QString target = path(QStringLiteral("xfs-target.img"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(source, 48 * kMiB,
                                         "label: gpt\nstart=2048, size=65536, type=L\n", &error),
                 qPrintable(error));
        QVERIFY2(SfdiskTable::writeImage(target, 48 * kMiB, "label: gpt\n", &error),
                 qPrintable(error));
        {
            LoopDevice loop(source);
            QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
            QVERIFY2(makeFilesystem(loop.partitionNode(1), QStringLiteral("xfs"),
                                    QStringLiteral("XFSSRC"), 2048, &error),
                     qPrintable(error));
        }
        const QByteArray sum = sha256Of(target);
        const QString plan = writePlan(
            QStringLiteral("xfs.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1,"
                           "\"size\":\"20MiB\"}]}")
                .arg(source)
                .toUtf8());
        const CliResult r = apply(plan, target);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("xfs cannot be shrunk"), r.err.constData());
        QCOMPARE(sha256Of(target), sum);
    }
};

QTEST_GUILESS_MAIN(TestPasteEntry)
#include "tst_pasteentry.moc"
