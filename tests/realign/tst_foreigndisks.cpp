// Disks other tools made (issue 45), built with the tools that make them in the wild: hybrid ISOs
// (xorriso, isohybrid, grub-mkrescue) are shown as ISO 9660 and never edited or copied in parts;
// a partition of unknown contents moves whole and is never shrunk; Mac, BSD, Sun, SGI, Amiga,
// PC-98 and Atari labels (parted) are read and refused for writing; a 4Kn MBR disk's image takes
// its sector size from its filesystems, and hints that disagree write nothing. Every refusal
// leaves the image's sha256 as it was; expected values come from sfdisk, blkid, parted, mtools.

#include "buildsetting.h"
#include "clirun.h"
#include "device/diskidentity.h"
#include "filebytes.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "ops/writejournal.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;

QStringList words(const char *text)
{
    return QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

QString blkidValue(const QString &path, const QString &tag, qint64 offset = 0)
{
    return QString::fromUtf8(runTool(QStringLiteral("blkid"),
                                     {QStringLiteral("-p"), QStringLiteral("-O"),
                                      QString::number(offset), QStringLiteral("-o"),
                                      QStringLiteral("value"), QStringLiteral("-s"), tag, path})
                                 .out)
        .trimmed();
}

// Random bytes over sectors [start, start + count) of a 512-byte-sector image: contents no tool
// recognises, as a VeraCrypt volume looks.
bool fillRandom(const QString &image, qint64 start, qint64 count, quint32 seed)
{
    QFile f(image);
    if (!f.open(QIODevice::ReadWrite) || !f.seek(start * 512))
        return false;
    QByteArray bytes(count * 512, Qt::Uninitialized);
    QRandomGenerator(seed).fillRange(reinterpret_cast<quint32 *>(bytes.data()), bytes.size() / 4);
    return f.write(bytes) == bytes.size();
}

// What `sfdisk -d` says of the table as a whole ("table-length", "first-lba", ...).
QString sfdiskHeader(const QString &image, const QString &field)
{
    const QString dump =
        QString::fromUtf8(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-d"), image}).out);
    for (const QString &line : dump.split(QLatin1Char('\n')))
        if (line.startsWith(field + QLatin1Char(':')))
            return line.section(QLatin1Char(':'), 1).trimmed();
    return QString();
}

QByteArray bytesAt(const QString &image, qint64 offset, qint64 size)
{
    QFile f(image);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(offset))
        return {};
    return f.read(size);
}

} // namespace

class TestForeignDisks : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // A job that must refuse: its exit code, a phrase of its reason, and the image unchanged.
    void expectRefused(const QStringList &args, const QString &image, int exitCode,
                       const QByteArray &reason)
    {
        const QByteArray before = fileSha256(image);
        const CliResult r = runCli(args);
        QVERIFY2(!r.crashed, qPrintable(r.describe()));
        QVERIFY2(exitCode < 0 ? r.exitCode != 0 : r.exitCode == exitCode, qPrintable(r.describe()));
        QVERIFY2((r.err + r.out).contains(reason), qPrintable(r.describe()));
        QCOMPARE(fileSha256(image), before);
    }

    // The tree every ISO here holds: isolinux for BIOS, an efi.img (FAT) for UEFI, a payload.
    QString isoTree()
    {
        const QString tree = path(QStringLiteral("isotree"));
        if (QDir(tree).exists())
            return tree;
        QDir().mkpath(tree + QStringLiteral("/isolinux"));
        QDir().mkpath(tree + QStringLiteral("/boot/grub"));
        QFile::copy(QStringLiteral("/usr/lib/ISOLINUX/isolinux.bin"),
                    tree + QStringLiteral("/isolinux/isolinux.bin"));
        QFile::copy(QStringLiteral("/usr/lib/syslinux/modules/bios/ldlinux.c32"),
                    tree + QStringLiteral("/isolinux/ldlinux.c32"));
        QFile cfg(tree + QStringLiteral("/isolinux/isolinux.cfg"));
        cfg.open(QIODevice::WriteOnly);
        cfg.write("default live\n");
        cfg.close();
        QFile grubCfg(tree + QStringLiteral("/boot/grub/grub.cfg"));
        grubCfg.open(QIODevice::WriteOnly);
        grubCfg.write("echo live\n");
        grubCfg.close();
        const QString efi = tree + QStringLiteral("/boot/grub/efi.img");
        runTool(QStringLiteral("mkfs.vfat"), {QStringLiteral("-C"), efi, QStringLiteral("1440")});
        runTool(QStringLiteral("mcopy"),
                {QStringLiteral("-i"), efi, grubCfg.fileName(), QStringLiteral("::/grub.cfg")});
        return tree;
    }

    // One of the ways hybrid ISOs are made; empty after a failure (reported).
    QString makeIso(const QString &how)
    {
        const QString tree = isoTree();
        const QString iso = path(how + QStringLiteral(".iso"));
        QFile::remove(iso);
        const QStringList eltorito =
            words("-b isolinux/isolinux.bin -c isolinux/boot.cat -no-emul-boot -boot-load-size 4 "
                  "-boot-info-table -eltorito-alt-boot -e boot/grub/efi.img -no-emul-boot");
        ToolResult r;
        if (how == QLatin1String("xorriso")) {
            // As Debian's live and installer ISOs are made.
            r = runTool(QStringLiteral("xorriso"),
                        words("-as mkisofs -r -V LIVE -o") + QStringList{iso} +
                            words("-isohybrid-mbr /usr/lib/ISOLINUX/isohdpfx.bin") + eltorito +
                            words("-isohybrid-gpt-basdat") + QStringList{tree});
        } else if (how == QLatin1String("isohybrid")) {
            r = runTool(QStringLiteral("xorriso"), words("-as mkisofs -r -V LIVE -o") +
                                                       QStringList{iso} + eltorito +
                                                       QStringList{tree});
            if (r.ok())
                r = runTool(QStringLiteral("isohybrid"), {QStringLiteral("--uefi"), iso});
        } else {
            const QString grubTree = path(QStringLiteral("grubtree/boot/grub"));
            QDir().mkpath(grubTree);
            QFile::copy(tree + QStringLiteral("/boot/grub/grub.cfg"),
                        grubTree + QStringLiteral("/grub.cfg"));
            r = runTool(QStringLiteral("grub-mkrescue"),
                        {QStringLiteral("-o"), iso, path(QStringLiteral("grubtree"))});
        }
        if (!r.ok()) {
            qWarning("%s", qPrintable(r.describe()));
            return QString();
        }
        return iso;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setCliPath(buildSetting("PARTWISE_CLI"));
    }

    void hybridIsoIsShownAndNeverEdited_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("xorriso -isohybrid-mbr -isohybrid-gpt-basdat") << QStringLiteral("xorriso");
        QTest::newRow("isohybrid --uefi") << QStringLiteral("isohybrid");
        QTest::newRow("grub-mkrescue") << QStringLiteral("grub-mkrescue");
    }

    void hybridIsoIsShownAndNeverEdited()
    {
        QFETCH(QString, how);
        const QString iso = makeIso(how);
        QVERIFY(!iso.isEmpty());
        const SfdiskTable table = SfdiskTable::read(iso);
        QVERIFY2(table.ok && !table.partitions.isEmpty(), qPrintable(table.error));
        QCOMPARE(blkidValue(iso, QStringLiteral("TYPE")), QStringLiteral("iso9660"));

        // check: the ISO on the whole device, and every entry sfdisk lists is named.
        const CliResult json = runCli({QStringLiteral("check"), QStringLiteral("--json"), iso});
        QVERIFY2(json.jsonValid && (json.exitCode == 0 || json.exitCode == 1),
                 qPrintable(json.describe()));
        const QJsonObject device = json.devices().at(0).toObject();
        QCOMPARE(device.value(QStringLiteral("table")).toString(), table.partedLabel());
        QCOMPARE(device.value(QStringLiteral("whole_disk_filesystem")).toString(),
                 blkidValue(iso, QStringLiteral("TYPE")));
        const QString warnings = QJsonDocument(device.value(QStringLiteral("warnings")).toArray())
                                     .toJson(QJsonDocument::Compact);
        const QJsonArray parts = device.value(QStringLiteral("partitions")).toArray();
        for (const SfdiskPartition &p : table.partitions) {
            const bool listed = std::any_of(parts.begin(), parts.end(), [&p](const QJsonValue &v) {
                return v.toObject().value(QStringLiteral("number")).toInt() == p.number &&
                       v.toObject().value(QStringLiteral("start_sector")).toInteger() == p.start;
            });
            QVERIFY2(listed || warnings.contains(QStringLiteral("MBR entry %1 (type %2")
                                                     .arg(p.number)
                                                     .arg(p.type.rightJustified(2, '0'))),
                     qPrintable(p.node + QLatin1Char(' ') + warnings));
        }
        const CliResult text = runCli({QStringLiteral("check"), iso});
        QVERIFY2(text.out.contains("hybrid ISO 9660"), text.out.constData());

        const QString number = QString::number(table.partitions.last().number);
        const QString journal = path(QStringLiteral("j.json"));
        expectRefused({QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"),
                       QStringLiteral("--journal"), journal, iso},
                      iso, 2, "hybrid ISO 9660");
        QVERIFY(!QFile::exists(journal));
        const QString plan = path(QStringLiteral("delete.json"));
        QFile f(plan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("{\"operations\":[{\"op\":\"delete\",\"number\":%1}]}")
                    .arg(number)
                    .toUtf8());
        f.close();
        expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"), plan, iso}, iso, 2,
                      "hybrid ISO 9660");
        const QString target = path(QStringLiteral("target.img"));
        QFile::remove(target);
        QVERIFY(makeSparseFile(target, 64 * kMiB));
        const QByteArray targetBefore = fileSha256(target);
        expectRefused({QStringLiteral("copy"), QStringLiteral("--yes"), iso, target}, iso, -1,
                      "dd if=");
        QCOMPARE(fileSha256(target), targetBefore);
    }

    void hybridIsoIsReplacedByANewTable()
    {
        // Reusing a stick: a new table (the only edit an ISO takes) leaves no ISO behind.
        const QString iso = makeIso(QStringLiteral("xorriso"));
        QVERIFY(!iso.isEmpty());
        const QString plan = path(QStringLiteral("newtable.json"));
        QFile f(plan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"({"operations":[{"op":"new-table","type":"gpt"},{"op":"create","size":"rest"}]})");
        f.close();
        const CliResult r = runCli({QStringLiteral("apply"), QStringLiteral("--yes"), plan, iso});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QCOMPARE(blkidValue(iso, QStringLiteral("TYPE")), QString());
        QCOMPARE(blkidValue(iso, QStringLiteral("PTTYPE")), QStringLiteral("gpt"));
        const SfdiskTable table = SfdiskTable::read(iso);
        QVERIFY2(table.ok, qPrintable(table.error));
        QCOMPARE(table.partitions.size(), 1);
        QCOMPARE(table.partitions[0].start % 2048, 0);
    }

    void unknownContentsMoveWhole()
    {
        // Random bytes at 63, right before another partition, free space after both.
        const QString image = path(QStringLiteral("random.img"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(image, 40 * kMiB,
                                         "label: dos\nstart=63, size=20000, type=83\n"
                                         "start=20063, size=30000, type=83\n",
                                         &error),
                 qPrintable(error));
        QVERIFY(fillRandom(image, 63, 20000, 1) && fillRandom(image, 20063, 30000, 2));
        const QByteArray one = bytesAt(image, 63 * 512, 20000 * 512);
        const QByteArray two = bytesAt(image, 20063 * 512, 30000 * 512);
        const CliResult r =
            runCli({QStringLiteral("realign"), QStringLiteral("--yes"), QStringLiteral("--journal"),
                    path(QStringLiteral("r.json")), image});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QVERIFY2(!r.out.contains("shrinking"), r.out.constData());
        const SfdiskTable table = SfdiskTable::read(image);
        QVERIFY2(table.ok && table.partitions.size() == 2, qPrintable(table.error));
        QCOMPARE(table.partitions[0].start % 2048, 0);
        QCOMPARE(table.partitions[0].size, 20000);
        QCOMPARE(table.partitions[1].size, 30000);
        QVERIFY(bytesAt(image, table.partitions[0].start * 512, 20000 * 512) == one);
        QVERIFY(bytesAt(image, table.partitions[1].start * 512, 30000 * 512) == two);
    }

    void unknownContentsAreNeverShrunk()
    {
        // The same, with no free space: only cutting the end of the random bytes would make room.
        const QString image = path(QStringLiteral("full.img"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(image, 20 * kMiB,
                                         "label: dos\nstart=63, size=20000, type=83\n"
                                         "start=20063, type=83\n",
                                         &error),
                 qPrintable(error));
        const SfdiskTable table = SfdiskTable::read(image);
        QVERIFY2(table.ok && table.partitions.size() == 2, qPrintable(table.error));
        QVERIFY(fillRandom(image, 63, table.partitions[1].end() - 62, 3));
        const QByteArray before = fileSha256(image);
        const CliResult r =
            runCli({QStringLiteral("realign"), QStringLiteral("--yes"), QStringLiteral("--journal"),
                    path(QStringLiteral("f.json")), image});
        QVERIFY2(r.exitCode == 1, qPrintable(r.describe()));
        QVERIFY2(r.out.contains("partition 1 stays") &&
                     r.out.contains("cannot be shrunk: no filesystem Partwise knows"),
                 r.out.constData());
        QVERIFY2(!(r.out + r.err).contains("the  filesystem"), qPrintable(r.describe()));
        QCOMPARE(fileSha256(image), before);
    }

    void foreignLabelsAreReadNeverWritten_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<QStringList>("mkpart");
        const QStringList named = words("mkpart p1 ext2 2048s 20479s");
        const QStringList typed = words("mkpart primary ext2 2048s 20479s");
        const QStringList plain = words("mkpart ext2 2048s 20479s");
        QTest::newRow("mac") << QStringLiteral("mac") << named;
        QTest::newRow("bsd") << QStringLiteral("bsd") << plain;
        QTest::newRow("sun") << QStringLiteral("sun") << plain;
        QTest::newRow("dvh") << QStringLiteral("dvh") << typed;
        QTest::newRow("amiga") << QStringLiteral("amiga") << named;
        QTest::newRow("pc98") << QStringLiteral("pc98") << named;
        QTest::newRow("atari") << QStringLiteral("atari") << typed;
    }

    void foreignLabelsAreReadNeverWritten()
    {
        QFETCH(QString, label);
        QFETCH(QStringList, mkpart);
        const QString image = path(label + QStringLiteral(".img"));
        QFile::remove(image);
        QVERIFY(makeSparseFile(image, 32 * kMiB));
        const ToolResult made =
            runTool(QStringLiteral("parted"),
                    {QStringLiteral("-s"), image, QStringLiteral("mklabel"), label});
        QVERIFY2(made.ok(), qPrintable(made.describe()));
        // A partition where parted can place one there; the label alone is refused the same.
        runTool(QStringLiteral("parted"), QStringList{QStringLiteral("-s"), image} + mkpart);
        const ToolResult print =
            runTool(QStringLiteral("parted"),
                    {QStringLiteral("-s"), QStringLiteral("-m"), image, QStringLiteral("unit"),
                     QStringLiteral("s"), QStringLiteral("print")});
        QVERIFY2(print.ok(), qPrintable(print.describe()));
        const QString partedLabel =
            QString::fromUtf8(print.out).split(QLatin1Char('\n')).value(1).section(':', 5, 5);
        QCOMPARE(partedLabel, label);

        const QByteArray before = fileSha256(image);
        const CliResult json = runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
        QVERIFY2(json.jsonValid && (json.exitCode == 0 || json.exitCode == 1),
                 qPrintable(json.describe()));
        QCOMPARE(json.devices().at(0).toObject().value(QStringLiteral("table")).toString(), label);
        // Sector 0 is the label's own: no MBR code is read there, so none is named.
        QVERIFY(json.devices()
                    .at(0)
                    .toObject()
                    .value(QStringLiteral("boot"))
                    .toObject()
                    .value(QStringLiteral("mbr_code"))
                    .isNull());
        const CliResult text = runCli({QStringLiteral("check"), image});
        QVERIFY2(!text.crashed && !text.out.contains("MBR code"), text.out.constData());
        QCOMPARE(fileSha256(image), before);

        expectRefused({QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"),
                       QStringLiteral("--journal"), path(QStringLiteral("l.json")), image},
                      image, 2, "edits, realigns and copies only GPT and MBR");
        const QString plan = path(QStringLiteral("delete1.json"));
        QFile f(plan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"operations":[{"op":"delete","number":1}]})");
        f.close();
        expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"), plan, image}, image, 2,
                      "edits, realigns and copies only GPT and MBR");
        const QString target = path(QStringLiteral("label-target.img"));
        QFile::remove(target);
        QVERIFY(makeSparseFile(target, 64 * kMiB));
        expectRefused({QStringLiteral("copy"), QStringLiteral("--yes"), QStringLiteral("--table"),
                       QStringLiteral("gpt"), image, target},
                      image, -1, "edits, realigns and copies only GPT and MBR");
    }

    void mbr4knImageTakesItsSectorSizeFromItsFilesystems()
    {
        PW_REQUIRE_ROOT_OR_SKIP(); // the table is written on a 4Kn loop device, as on a drive
        const QString image = path(QStringLiteral("mbr4kn.img"));
        QVERIFY(makeSparseFile(image, 48 * kMiB));
        SfdiskTable table;
        {
            LoopDevice loop(image, 4096);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), loop.path()},
                    "label: dos\nsector-size: 4096\nstart=6, size=4096, type=c\n"
                    "start=4102, size=4096, type=83\n");
            table = SfdiskTable::read(loop.path());
        }
        QVERIFY2(table.ok && table.partitions.size() == 2, qPrintable(table.error));
        QCOMPARE(table.sectorSize, 4096);
        const qint64 fat = table.partitions[0].start * 4096;
        const qint64 ext = table.partitions[1].start * 4096;
        QVERIFY(runTool(QStringLiteral("mkfs.vfat"),
                        {QStringLiteral("-S"), QStringLiteral("4096"), QStringLiteral("--offset"),
                         QString::number(table.partitions[0].start), image,
                         QString::number(table.partitions[0].size * 4)})
                    .ok());
        const QString file = path(QStringLiteral("hello.txt"));
        QFile hello(file);
        QVERIFY(hello.open(QIODevice::WriteOnly) && hello.write("hello from a 4Kn FAT\n") > 0);
        hello.close();
        QVERIFY(runTool(QStringLiteral("mcopy"),
                        {QStringLiteral("-i"), QStringLiteral("%1@@%2").arg(image).arg(fat), file,
                         QStringLiteral("::/hello.txt")})
                    .ok());
        QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                        {QStringLiteral("-q"), QStringLiteral("-E"),
                         QStringLiteral("offset=%1").arg(ext), image,
                         QStringLiteral("%1k").arg(table.partitions[1].size * 4)})
                    .ok());
        QCOMPARE(blkidValue(image, QStringLiteral("BLOCK_SIZE"), fat), QStringLiteral("4096"));
        const QString uuid = blkidValue(image, QStringLiteral("UUID"), ext);

        const CliResult json = runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
        QVERIFY2(json.jsonValid, qPrintable(json.describe()));
        const QJsonObject device = json.devices().at(0).toObject();
        QCOMPARE(device.value(QStringLiteral("logical_sector_size")).toInt(), table.sectorSize);
        const QJsonObject one = partitionByNumber(device, 1);
        QCOMPARE(one.value(QStringLiteral("start_sector")).toInteger(), table.partitions[0].start);
        QCOMPARE(one.value(QStringLiteral("filesystem")).toString(),
                 blkidValue(image, QStringLiteral("TYPE"), fat));

        const CliResult r =
            runCli({QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"),
                    QStringLiteral("--journal"), path(QStringLiteral("k.json")), image});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        LoopDevice loop(image, 4096, true);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        const SfdiskTable after = SfdiskTable::read(loop.path());
        QVERIFY2(after.ok && after.partitions.size() == 2, qPrintable(after.error));
        QCOMPARE(after.partitions[0].start % 256, 0); // 1 MiB of 4096-byte sectors
        const ToolResult typed =
            runTool(QStringLiteral("mtype"),
                    {QStringLiteral("-i"),
                     QStringLiteral("%1@@%2").arg(image).arg(after.partitions[0].start * 4096),
                     QStringLiteral("::/hello.txt")});
        QCOMPARE(typed.out, QByteArray("hello from a 4Kn FAT\n"));
        QCOMPARE(blkidValue(image, QStringLiteral("UUID"), after.partitions[1].start * 4096), uuid);
    }

    void disagreeingSectorSizeHintsWriteNothing()
    {
        // A 512-byte MBR whose FAT records 4096-byte sectors next to an ext4 found at 512.
        const QString image = path(QStringLiteral("mixed.img"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(image, 64 * kMiB,
                                         "label: dos\nstart=2048, size=32768, type=c\n"
                                         "start=34816, size=32768, type=83\n",
                                         &error),
                 qPrintable(error));
        const SfdiskTable table = SfdiskTable::read(image);
        QVERIFY2(table.ok, qPrintable(table.error));
        const qint64 fat = table.partitions[0].start * 512;
        QVERIFY(runTool(QStringLiteral("mkfs.vfat"),
                        {QStringLiteral("-S"), QStringLiteral("4096"), QStringLiteral("--offset"),
                         QString::number(fat / 4096), image, QStringLiteral("16384")})
                    .ok());
        QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                        {QStringLiteral("-q"), QStringLiteral("-E"),
                         QStringLiteral("offset=%1").arg(table.partitions[1].start * 512), image,
                         QStringLiteral("16384k")})
                    .ok());
        QCOMPARE(blkidValue(image, QStringLiteral("BLOCK_SIZE"), fat), QStringLiteral("4096"));

        const CliResult check = runCli({QStringLiteral("check"), image});
        QVERIFY2(check.out.contains("cannot tell the logical sector size"), check.out.constData());
        const QString plan = path(QStringLiteral("delete2.json"));
        QFile f(plan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"operations":[{"op":"delete","number":2}]})");
        f.close();
        expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"), plan, image}, image, 2,
                      "cannot tell the logical sector size");
        expectRefused({QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"),
                       QStringLiteral("--journal"), path(QStringLiteral("m.json")), image},
                      image, 2, "cannot tell the logical sector size");
        // Named by a person, the size stands.
        const CliResult named = runCli({QStringLiteral("check"), QStringLiteral("--sector-size"),
                                        QStringLiteral("512"), image});
        QVERIFY2(!named.out.contains("cannot tell"), named.out.constData());
    }
    void gptOf256EntriesKeepsPartition200()
    {
        // sgdisk's --resize-table, as some installers make them: partition 200 misaligned.
        const QString image = path(QStringLiteral("gpt256.img"));
        QVERIFY(makeSparseFile(image, 64 * kMiB));
        const ToolResult made = runTool(
            QStringLiteral("sgdisk"),
            words("-o --resize-table=256 -a 1 -n 1:2048:20000 -n 200:20481:40000 -t 200:8300 -c "
                  "200:twohundred -A 200:set:60") +
                QStringList{image});
        QVERIFY2(made.ok(), qPrintable(made.describe()));
        const SfdiskTable source = SfdiskTable::read(image);
        QVERIFY2(source.ok && source.find(200), qPrintable(source.error));
        QCOMPARE(sfdiskHeader(image, QStringLiteral("table-length")), QStringLiteral("256"));

        // A copy keeps the entry count, the number, the GUIDs and the name.
        const QString target = path(QStringLiteral("gpt256-copy.img"));
        QVERIFY(makeSparseFile(target, 64 * kMiB));
        const CliResult copied =
            runCli({QStringLiteral("copy"), QStringLiteral("--yes"), image, target});
        QVERIFY2(copied.exitCode == 0, qPrintable(copied.describe()));
        const SfdiskTable copy = SfdiskTable::read(target);
        QVERIFY2(copy.ok && copy.find(200), qPrintable(copy.error));
        QCOMPARE(sfdiskHeader(target, QStringLiteral("table-length")), QStringLiteral("256"));
        for (const char *key : {"type", "uuid", "name"})
            QCOMPARE(copy.find(200)->entry.value(QLatin1String(key)).toString(),
                     source.find(200)->entry.value(QLatin1String(key)).toString());
        QVERIFY(runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), target}).ok());

        // A realignment moves it within the same table, its attribute bits kept.
        const CliResult realigned =
            runCli({QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"),
                    QStringLiteral("--journal"), path(QStringLiteral("g.json")), image});
        QVERIFY2(realigned.exitCode == 0, qPrintable(realigned.describe()));
        const SfdiskTable after = SfdiskTable::read(image);
        QVERIFY2(after.ok && after.find(200), qPrintable(after.error));
        QCOMPARE(after.find(200)->start % 2048, 0);
        QCOMPARE(sfdiskHeader(image, QStringLiteral("table-length")), QStringLiteral("256"));
        for (const char *key : {"type", "uuid", "name", "attrs"})
            QCOMPARE(after.find(200)->entry.value(QLatin1String(key)).toString(),
                     source.find(200)->entry.value(QLatin1String(key)).toString());
    }
    void olderJournalsAreRefusedOnResume_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<QByteArray>("reason");
        // A move of a Mac map's own partition, as an older plan made (libparted aborted on it).
        QTest::newRow("mac map") << QStringLiteral("mac")
                                 << QByteArray("edits, realigns and copies only GPT and MBR");
        // A shrink of a partition whose contents are unknown, as an older plan made.
        QTest::newRow("unknown contents shrunk")
            << QStringLiteral("msdos") << QByteArray("never shrunk");
    }

    void olderJournalsAreRefusedOnResume()
    {
        QFETCH(QString, label);
        QFETCH(QByteArray, reason);
        const QString image = path(QStringLiteral("resume-%1.img").arg(label));
        QFile::remove(image);
        QVERIFY(makeSparseFile(image, 32 * kMiB));
        QVERIFY(runTool(QStringLiteral("parted"),
                        {QStringLiteral("-s"), image, QStringLiteral("mklabel"), label})
                    .ok());
        const bool mac = label == QLatin1String("mac");
        QVERIFY(runTool(QStringLiteral("parted"), QStringList{QStringLiteral("-s"), image} +
                                                      words(mac ? "mkpart p1 ext2 2048s 20479s"
                                                                : "mkpart primary 63s 20479s"))
                    .ok());
        if (!mac)
            QVERIFY(fillRandom(image, 63, 20417, 4));
        // Sectors as parted reads them: the map's own partition, or partition 1.
        const QStringList lines =
            QString::fromUtf8(
                runTool(QStringLiteral("parted"),
                        {QStringLiteral("-s"), QStringLiteral("-m"), image, QStringLiteral("unit"),
                         QStringLiteral("s"), QStringLiteral("print")})
                    .out)
                .split(QLatin1Char('\n'));
        const QStringList first = lines.value(2).split(QLatin1Char(':'));
        partwise::PartitionMove move;
        move.number = first.value(0).toInt();
        move.oldStart = first.value(1).chopped(1).toLongLong();
        move.oldEnd = first.value(2).chopped(1).toLongLong();
        move.newStart = 2048 * 12;
        move.newEnd = move.newStart + move.oldLength() - 1 - (mac ? 0 : 1985);
        move.shrinkSectors = mac ? 0 : 1985;
        partwise::WriteJournal journal;
        journal.target = image;
        journal.diskIdentity = partwise::diskIdentityOf(image); // as the older job recorded it
        journal.backupFolder = path(QStringLiteral("backup-%1").arg(label));
        QVERIFY(QDir().mkpath(journal.backupFolder));
        journal.moves << move;
        journal.phases << partwise::WriteJournal::Phase::Pending;
        const QString journalPath = path(QStringLiteral("older-%1.json").arg(label));
        QString error;
        QVERIFY2(journal.save(journalPath, &error), qPrintable(error));
        expectRefused({QStringLiteral("resume"), QStringLiteral("--journal"), journalPath, image},
                      image, -1, reason);
    }
};

QTEST_GUILESS_MAIN(TestForeignDisks)
#include "tst_foreigndisks.moc"
