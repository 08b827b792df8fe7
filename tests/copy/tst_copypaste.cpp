// Paste of one partition into free space (`{"op":"paste"}` in a plan, `partwise-cli apply`),
// judged by independent tools: sfdisk -J for where the new partition lies, blkid for its UUID,
// each filesystem's own check and every file's SHA-256 (tests/support/partitioncontents) against
// the source partition's.

#include "blkidprobe.h"
#include "buildsetting.h"
#include "clirun.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;
constexpr qint64 kExtStart = 2048, kExtSectors = 24 * 2048; // partition 1: ext4, 24 MiB
constexpr qint64 kFatStart = kExtStart + kExtSectors, kFatSectors = 16 * 2048; // 2: FAT

QByteArray sha256Of(const QString &path)
{
    QFile f(path);
    QCryptographicHash h(QCryptographicHash::Sha256);
    return f.open(QIODevice::ReadOnly) && h.addData(&f) ? h.result().toHex() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

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

QByteArray randomBytes(qint64 n)
{
    QByteArray bytes(n, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), n / 4);
    return bytes;
}

} // namespace

class TestCopyPaste : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // A GPT image of `mib` MiB with an ext4 partition (files from mkfs.ext4 -d, `extData` bytes
    // of random data among them) and a FAT one (files by mcopy), the rest free.
    QString makeSource(const QString &name, qint64 mib, qint64 extData)
    {
        const QString image = path(name);
        QString error;
        const QByteArray script =
            QStringLiteral("label: gpt\nstart=%1, size=%2, type=L\nstart=%3, size=%4, "
                           "type=EBD0A0A2-B9E5-4433-87C0-68B6B7264699\n")
                .arg(kExtStart)
                .arg(kExtSectors)
                .arg(kFatStart)
                .arg(kFatSectors)
                .toUtf8();
        if (!SfdiskTable::writeImage(image, mib * kMiB, script, &error)) {
            qWarning("%s", qPrintable(error));
            return {};
        }
        QTemporaryDir tree;
        QDir(tree.path()).mkpath(QStringLiteral("docs/deep"));
        writeFile(tree.filePath(QStringLiteral("hello.txt")), "pasted with Partwise\n");
        writeFile(tree.filePath(QStringLiteral("docs/deep/notes.txt")), QByteArray(5000, 'n'));
        writeFile(tree.filePath(QStringLiteral("docs/data.bin")), randomBytes(extData));
        const ToolResult ext =
            runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("-L"), QStringLiteral("pasteme"),
                     QStringLiteral("-d"), tree.path(), QStringLiteral("-E"),
                     QStringLiteral("offset=%1").arg(kExtStart * 512), image,
                     QStringLiteral("%1k").arg(kExtSectors / 2)});
        const QString fat = image + QStringLiteral("@@%1").arg(kFatStart * 512);
        const ToolResult vfat =
            runTool(QStringLiteral("mkfs.vfat"),
                    {QStringLiteral("--offset"), QString::number(kFatStart), QStringLiteral("-n"),
                     QStringLiteral("FATSRC"), image, QString::number(kFatSectors / 2)});
        writeFile(tree.filePath(QStringLiteral("fat.bin")), randomBytes(300 * 1024));
        const ToolResult copied =
            runTool(QStringLiteral("mcopy"),
                    {QStringLiteral("-i"), fat, tree.filePath(QStringLiteral("fat.bin")),
                     tree.filePath(QStringLiteral("hello.txt")), QStringLiteral("::")});
        if (!ext.ok() || !vfat.ok() || !copied.ok()) {
            qWarning("%s %s %s", qPrintable(ext.describe()), qPrintable(vfat.describe()),
                     qPrintable(copied.describe()));
            return {};
        }
        return image;
    }

    QString writePlan(const QString &name, const QByteArray &json)
    {
        const QString plan = path(name);
        writeFile(plan, json);
        return plan;
    }

    CliResult apply(const QString &plan, const QString &target)
    {
        return runCli({QStringLiteral("apply"), QStringLiteral("--yes"),
                       QStringLiteral("--backup-dir"), path(QStringLiteral("backups")), plan,
                       target},
                      300000);
    }

    static QMap<int, PartitionContents> contents(const QString &disk)
    {
        QStringList problems;
        const auto c = partitionContents(disk, 512, SfdiskTable::read(disk), &problems);
        if (!problems.isEmpty())
            qWarning("%s", qPrintable(problems.join(QLatin1Char('\n'))));
        return problems.isEmpty() ? c : QMap<int, PartitionContents>{};
    }

    // Partition `copy` of `after` holds what partition `original` of `before` holds: the same
    // filesystem type and every file with the same SHA-256 (its check already ran clean).
    static void verifySame(const QMap<int, PartitionContents> &before, int original,
                           const QMap<int, PartitionContents> &after, int copy)
    {
        QVERIFY2(before.contains(original), "the source partition was not read");
        QVERIFY2(after.contains(copy), qPrintable(QStringLiteral("no partition %1").arg(copy)));
        QCOMPARE(after[copy].fs, before[original].fs);
        QVERIFY(!before[original].files.isEmpty());
        QCOMPARE(after[copy].files, before[original].files);
    }

    // The new partition as sfdisk reads it: on the 1 MiB grain, at least `minBytes` long.
    static void verifyOnGrain(const SfdiskTable &table, int number, qint64 minBytes)
    {
        const SfdiskPartition *p = table.find(number);
        QVERIFY2(p, qPrintable(QStringLiteral("sfdisk finds no partition %1").arg(number)));
        QCOMPARE(p->start * 512 % kMiB, 0);
        QVERIFY2(
            p->size * 512 >= minBytes,
            qPrintable(QStringLiteral("partition %1 has %2 sectors").arg(number).arg(p->size)));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    }

    // Both partitions pasted into the free space of their own image, the ext4 one grown.
    void withinOneImage()
    {
        PW_REQUIRE_ROOT_OR_SKIP(); // files and checks are read through loop devices
        const QString image = makeSource(QStringLiteral("within.img"), 112, 2 * kMiB);
        QVERIFY(!image.isEmpty());
        const auto before = contents(image);
        const QString plan = writePlan(
            QStringLiteral("within.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1,"
                           "\"size\":\"32MiB\"},{\"op\":\"paste\",\"source\":\"%1\",\"number\":2,"
                           "\"align\":\"mib\"}]}")
                .arg(image)
                .toUtf8());
        const CliResult r = apply(plan, image);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        const SfdiskTable table = SfdiskTable::read(image);
        QVERIFY2(table.ok, qPrintable(table.error));
        QCOMPARE(table.partitions.size(), 4);
        verifyOnGrain(table, 3, 32 * kMiB);
        verifyOnGrain(table, 4, kFatSectors * 512);
        const auto after = contents(image);
        verifySame(before, 1, after, 1);
        verifySame(before, 2, after, 2);
        verifySame(before, 1, after, 3);
        verifySame(before, 2, after, 4);
        // New filesystem ids beside the old ones; labels kept; ext4 grown to its partition.
        const BlkidInfo ext = blkidProbe(image, kExtStart * 512);
        const BlkidInfo extCopy = blkidProbe(image, table.find(3)->start * 512);
        const BlkidInfo fat = blkidProbe(image, kFatStart * 512);
        const BlkidInfo fatCopy = blkidProbe(image, table.find(4)->start * 512);
        QCOMPARE(extCopy.type, QStringLiteral("ext4"));
        QCOMPARE(extCopy.label, ext.label);
        QVERIFY(!extCopy.uuid.isEmpty() && extCopy.uuid != ext.uuid);
        QCOMPARE(fatCopy.type, QStringLiteral("vfat"));
        QCOMPARE(fatCopy.label, fat.label);
        QVERIFY(!fatCopy.uuid.isEmpty() && fatCopy.uuid != fat.uuid);
        // The GPT partition GUIDs, as sfdisk reads them.
        const auto partUuid = [&](int n) {
            return runTool(QStringLiteral("sfdisk"),
                           {QStringLiteral("--part-uuid"), image, QString::number(n)})
                .out.trimmed();
        };
        QVERIFY(!partUuid(3).isEmpty() && partUuid(3) != partUuid(1));
        const ToolResult dump =
            runTool(QStringLiteral("dumpe2fs"),
                    {QStringLiteral("-h"),
                     image + QStringLiteral("?offset=%1").arg(table.find(3)->start * 512)});
        const auto field = [&](const char *name) {
            return QRegularExpression(QLatin1String(name) + QStringLiteral(":\\s+(\\d+)"))
                .match(QString::fromUtf8(dump.out))
                .captured(1)
                .toLongLong();
        };
        QVERIFY2(field("Block count") * field("Block size") > 30 * kMiB, dump.out.constData());
    }

    // From one image onto another, and onto a loop device.
    void acrossImagesAndOntoLoop()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = makeSource(QStringLiteral("across-source.img"), 48, kMiB);
        QVERIFY(!source.isEmpty());
        const QString image = path(QStringLiteral("across-target.img"));
        const QString onLoop = path(QStringLiteral("across-loop.img"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(image, 64 * kMiB, "label: gpt\n", &error),
                 qPrintable(error));
        QVERIFY2(SfdiskTable::writeImage(onLoop, 64 * kMiB, "label: dos\n", &error),
                 qPrintable(error));
        const QString plan = writePlan(
            QStringLiteral("across.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1},"
                           "{\"op\":\"paste\",\"source\":\"%1\",\"number\":2}]}")
                .arg(source)
                .toUtf8());
        const QByteArray sourceSum = sha256Of(source);
        const CliResult r = apply(plan, image);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        {
            LoopDevice loop(onLoop);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            const CliResult l = apply(plan, loop.path());
            QVERIFY2(l.exitCode == 0, qPrintable(l.describe() + QString::fromUtf8(l.out)));
        }
        QCOMPARE(sha256Of(source), sourceSum); // never written
        const auto before = contents(source);
        for (const QString &target : {image, onLoop}) {
            const SfdiskTable table = SfdiskTable::read(target);
            QVERIFY2(table.ok, qPrintable(table.error));
            QCOMPARE(table.partitions.size(), 2);
            verifyOnGrain(table, 1, kExtSectors * 512);
            verifyOnGrain(table, 2, kFatSectors * 512);
            const auto after = contents(target);
            verifySame(before, 1, after, 1);
            verifySame(before, 2, after, 2);
        }
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

    void readWriteMountedSourceRefused()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = makeSource(QStringLiteral("mounted.img"), 48, kMiB);
        QVERIFY(!source.isEmpty());
        const QString target = path(QStringLiteral("mounted-target.img"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(target, 64 * kMiB, "label: gpt\n", &error),
                 qPrintable(error));
        const QByteArray targetSum = sha256Of(target);
        const QString plan = writePlan(
            QStringLiteral("mounted.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1}]}")
                .arg(source)
                .toUtf8());
        LoopDevice loop(source);
        QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
        QTemporaryDir mountPoint;
        const ToolResult mounted =
            runTool(QStringLiteral("mount"), {loop.partitionNode(1), mountPoint.path()});
        QVERIFY2(mounted.ok(), qPrintable(mounted.describe()));
        const CliResult refused = apply(plan, target);
        runTool(QStringLiteral("umount"), {mountPoint.path()});
        QVERIFY(refused.exitCode != 0);
        QVERIFY2(refused.err.contains("mounted read-write"), refused.err.constData());
        QCOMPARE(sha256Of(target), targetSum);
    }

    // Killed while the data is copied, and again once it is verified (while the filesystem is
    // told its new start, given its UUID and checked): the disk then has the finished partition
    // or none, the others intact; `resume` finishes it.
    void killedAndResumed_data()
    {
        QTest::addColumn<QByteArray>("marker");
        QTest::addColumn<QString>("size"); // empty: the source's
        QTest::newRow("while copying") << QByteArray("  copying ") << QString();
        QTest::newRow("once verified") << QByteArray("  verified") << QString();
        // Smaller than its source: killed while its scratch copy shrinks, and while copying.
        QTest::newRow("shrinking") << QByteArray("  shrinking a copy") << QStringLiteral("16MiB");
        QTest::newRow("shrunk, copying") << QByteArray("  copying ") << QStringLiteral("16MiB");
    }

    void killedAndResumed()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        QFETCH(QByteArray, marker);
        QFETCH(QString, size);
        // Shrunk, it holds less: 8 MiB of data fits a 16 MiB ext4.
        const QString image =
            makeSource(QStringLiteral("kill.img"), 80, size.isEmpty() ? 20 * kMiB : 8 * kMiB);
        QVERIFY(!image.isEmpty());
        const auto before = contents(image);
        const QString plan = writePlan(
            QStringLiteral("kill.json"),
            QStringLiteral("{\"operations\":[{\"op\":\"paste\",\"source\":\"%1\",\"number\":1%2}]}")
                .arg(image,
                     size.isEmpty() ? QString() : QStringLiteral(",\"size\":\"%1\"").arg(size))
                .toUtf8());
        QProcess cli;
        cli.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        cli.start(cliPath(),
                  {QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                   path(QStringLiteral("backups")), plan, image});
        QVERIFY(cli.waitForStarted(10000));
        QByteArray out;
        while (!out.contains(marker) && cli.state() == QProcess::Running) {
            cli.waitForReadyRead(100);
            out += cli.readAllStandardOutput();
        }
        cli.kill(); // SIGKILL
        cli.waitForFinished(30000);
        QVERIFY2(out.contains(marker), out.constData());
        const SfdiskTable half = SfdiskTable::read(image);
        QVERIFY2(half.ok, qPrintable(half.error));
        QVERIFY(half.partitions.size() == 2 || half.partitions.size() == 3);
        qInfo("killed after \"%s\": %d partitions", marker.trimmed().constData(),
              int(half.partitions.size()));
        auto now = contents(image);
        verifySame(before, 1, now, 1);
        verifySame(before, 2, now, 2);
        if (half.partitions.size() == 3)
            verifySame(before, 1, now, 3); // the entry comes only after the verified data
        const CliResult resumed = runCli({QStringLiteral("resume"), image}, 300000);
        QVERIFY2(resumed.exitCode == 0,
                 qPrintable(resumed.describe() + QString::fromUtf8(resumed.out)));
        QVERIFY(!QFile::exists(image + QStringLiteral(".partwise-move.realign")));
        QVERIFY(!QFile::exists(image + QStringLiteral(".partwise-move.realign.scratch")));
        const SfdiskTable table = SfdiskTable::read(image);
        QCOMPARE(table.partitions.size(), 3);
        verifyOnGrain(table, 3, size.isEmpty() ? kExtSectors * 512 : 16 * kMiB);
        if (!size.isEmpty())
            QCOMPARE(table.find(3)->size * 512, 16 * kMiB);
        const auto after = contents(image);
        verifySame(before, 1, after, 1);
        verifySame(before, 2, after, 2);
        verifySame(before, 1, after, 3);
    }

    void badSourceRefused_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("says");
        QTest::newRow("no such partition")
            << QStringLiteral("{\"op\":\"paste\",\"source\":\"SOURCE\",\"number\":9}")
            << QStringLiteral("no partition 9");
        QTest::newRow("no number") << QStringLiteral("{\"op\":\"paste\",\"source\":\"SOURCE\"}")
                                   << QStringLiteral("\"number\" must name the partition");
        QTest::newRow("relative path")
            << QStringLiteral("{\"op\":\"paste\",\"source\":\"disk.img\",\"number\":1}")
            << QStringLiteral("absolute path");
        QTest::newRow("missing disk")
            << QStringLiteral("{\"op\":\"paste\",\"source\":\"/nonexistent/x.img\",\"number\":1}")
            << QStringLiteral("cannot be read");
        // resize2fs -P puts the empty 16 MiB ext4 at about 2.3 MiB.
        QTest::newRow("below what its filesystem shrinks to")
            << QStringLiteral(
                   "{\"op\":\"paste\",\"source\":\"SOURCE\",\"number\":1,\"size\":\"1MiB\"}")
            << QStringLiteral("shrinks no further");
        QTest::newRow("a filesystem of its own")
            << QStringLiteral(
                   "{\"op\":\"paste\",\"source\":\"SOURCE\",\"number\":1,\"fs\":\"ext4\"}")
            << QStringLiteral("takes the source's filesystem");
    }

    // Nothing is written to the target, and the reason is said.
    void badSourceRefused()
    {
        QFETCH(QString, op);
        QFETCH(QString, says);
        static QString source;
        if (source.isEmpty()) {
            source = path(QStringLiteral("bad-source.img"));
            QString error;
            QVERIFY2(SfdiskTable::writeImage(
                         source, 32 * kMiB, "label: gpt\nstart=2048, size=32768, type=L\n", &error),
                     qPrintable(error));
            QVERIFY(
                runTool(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), QStringLiteral("-E"),
                                                      QStringLiteral("offset=%1").arg(2048 * 512),
                                                      source, QStringLiteral("16M")})
                    .ok());
        }
        const QString target = path(QStringLiteral("bad-target.img"));
        static QByteArray sum;
        if (sum.isEmpty()) {
            QString error;
            QVERIFY2(SfdiskTable::writeImage(target, 16 * kMiB, "label: gpt\n", &error),
                     qPrintable(error));
            sum = sha256Of(target);
        }
        const QString plan =
            writePlan(QStringLiteral("bad.json"),
                      (QStringLiteral("{\"operations\":[") +
                       QString(op).replace(QStringLiteral("SOURCE"), source) + QStringLiteral("]}"))
                          .toUtf8());
        const CliResult r = apply(plan, target);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(says.toUtf8()), r.err.constData());
        QCOMPARE(sha256Of(target), sum);
    }
};

QTEST_GUILESS_MAIN(TestCopyPaste)
#include "tst_copypaste.moc"
