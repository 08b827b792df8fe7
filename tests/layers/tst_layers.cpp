// `partwise-cli check` follows LUKS volumes and LVM physical volumes inside partitions. The
// volumes are made by cryptsetup and pvcreate, and the expected data offsets come from
// `cryptsetup luksDump` and `pvs -o pe_start`, never from Partwise. LUKS is read from image
// files without root; LVM needs a block device, so those cases need root (CI runs them).

#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using pwtest::runCli;
using pwtest::runTool;

namespace {

constexpr qint64 MiB = 1 << 20;
constexpr qint64 kPartitionBytes = 40 * MiB;

// Fast key derivation: these volumes are never unlocked.
const QStringList kQuickKdf{QStringLiteral("--pbkdf"), QStringLiteral("pbkdf2"),
                            QStringLiteral("--pbkdf-force-iterations"), QStringLiteral("1000")};

} // namespace

class TestLayers : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_key;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // A GPT image with four 40 MiB partitions from sector 2048.
    QString fourPartitions(const QString &name)
    {
        const QString image = path(name);
        QFile f(image);
        if (!f.open(QIODevice::WriteOnly) || !f.resize(200 * MiB))
            return {};
        f.close();
        const auto r = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                               "label: gpt\nstart=2048, size=40M\nsize=40M\nsize=40M\nsize=40M\n");
        return r.ok() ? image : QString();
    }

    // cryptsetup formats a scratch file the size of a partition, which is then copied in.
    bool luksInto(const QString &image, int number, const QStringList &options,
                  QString *dumped = nullptr)
    {
        const QString scratch = path(QStringLiteral("luks-%1.bin").arg(number));
        QFile f(scratch);
        if (!f.open(QIODevice::WriteOnly) || !f.resize(kPartitionBytes))
            return false;
        f.close();
        QStringList args{QStringLiteral("luksFormat"), QStringLiteral("-q"),
                         QStringLiteral("--key-file"), m_key};
        args << kQuickKdf << options << scratch;
        const auto format = runTool(QStringLiteral("cryptsetup"), args);
        if (!format.ok()) {
            qWarning() << format.describe();
            return false;
        }
        if (dumped) {
            const auto dump =
                runTool(QStringLiteral("cryptsetup"), {QStringLiteral("luksDump"), scratch});
            *dumped = QString::fromUtf8(dump.out);
        }
        return copyInto(scratch, image, number);
    }

    bool copyInto(const QString &scratch, const QString &image, int number)
    {
        const pwtest::SfdiskTable table = pwtest::SfdiskTable::read(image);
        const pwtest::SfdiskPartition *p = table.find(number);
        if (!p)
            return false;
        const auto dd = runTool(QStringLiteral("dd"),
                                {QStringLiteral("if=") + scratch, QStringLiteral("of=") + image,
                                 QStringLiteral("bs=1M"), QStringLiteral("oflag=seek_bytes"),
                                 QStringLiteral("seek=%1").arg(p->start * 512),
                                 QStringLiteral("conv=notrunc"), QStringLiteral("status=none")});
        return dd.ok();
    }

    // The data offset cryptsetup's own dump gives, in bytes.
    static qint64 luksDumpOffset(const QString &dump)
    {
        static const QRegularExpression luks1(QStringLiteral("Payload offset:\\s*(\\d+)"));
        static const QRegularExpression luks2(
            QStringLiteral("Data segments:[\\s\\S]*?offset:\\s*(\\d+) \\[bytes\\]"));
        if (const auto m = luks1.match(dump); m.hasMatch())
            return m.captured(1).toLongLong() * 512;
        if (const auto m = luks2.match(dump); m.hasMatch())
            return m.captured(1).toLongLong();
        return -1;
    }

    static qint64 partitionStartBytes(const QString &image, int number)
    {
        const pwtest::SfdiskTable table = pwtest::SfdiskTable::read(image);
        const pwtest::SfdiskPartition *p = table.find(number);
        return p ? p->start * 512 : -1;
    }

    static QJsonObject layerOf(const pwtest::CliResult &r, int number)
    {
        const QJsonObject device = r.devices().first().toObject();
        const QJsonArray layers =
            pwtest::partitionByNumber(device, number).value(QStringLiteral("layers")).toArray();
        return layers.size() == 1 ? layers.first().toObject() : QJsonObject();
    }

    // pvcreate on a loop device over partition `number` of the image; returns pvs's pe_start.
    qint64 pvcreateInto(const QString &image, int number, const QStringList &options)
    {
        const qint64 start = partitionStartBytes(image, number);
        const auto attach =
            runTool(QStringLiteral("losetup"),
                    {QStringLiteral("-f"), QStringLiteral("--show"), QStringLiteral("-o"),
                     QString::number(start), QStringLiteral("--sizelimit"),
                     QString::number(kPartitionBytes), image});
        if (!attach.ok())
            return -1;
        const QString loop = QString::fromUtf8(attach.out).trimmed();
        const QString udevless = QStringLiteral("devices { obtain_device_list_from_udev=0 }");
        QStringList args{QStringLiteral("-q"), QStringLiteral("-y"), QStringLiteral("--config"),
                         udevless};
        args << options << loop;
        const auto create = runTool(QStringLiteral("pvcreate"), args);
        const auto pvs =
            runTool(QStringLiteral("pvs"),
                    {QStringLiteral("--noheadings"), QStringLiteral("--units"), QStringLiteral("b"),
                     QStringLiteral("--nosuffix"), QStringLiteral("-o"), QStringLiteral("pe_start"),
                     QStringLiteral("--config"), udevless, loop});
        runTool(QStringLiteral("losetup"), {QStringLiteral("-d"), loop});
        if (!create.ok() || !pvs.ok()) {
            qWarning() << create.describe() << pvs.describe();
            return -1;
        }
        return QString::fromUtf8(pvs.out).trimmed().toLongLong();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
        m_key = path(QStringLiteral("key"));
        QFile key(m_key);
        QVERIFY(key.open(QIODevice::WriteOnly));
        key.write("not a secret");
    }

    // The issue's own example: LUKS1 whose payload starts 512 bytes past a 4 KiB boundary, in
    // a partition on the grain. Read from the image file, no root needed.
    void luksOffsetsMatchLuksDump()
    {
        const QString image = fourPartitions(QStringLiteral("luks.img"));
        QVERIFY(!image.isEmpty());
        QString dump1, dump2;
        QVERIFY(luksInto(image, 1,
                         {QStringLiteral("--type"), QStringLiteral("luks1"),
                          QStringLiteral("--align-payload"), QStringLiteral("4097")},
                         &dump1));
        QVERIFY(luksInto(image, 2, {QStringLiteral("--type"), QStringLiteral("luks2")}, &dump2));
        const qint64 offset1 = luksDumpOffset(dump1);
        const qint64 offset2 = luksDumpOffset(dump2);
        QCOMPARE(offset1, 4097 * 512);
        QVERIFY2(offset2 > 0, qPrintable(dump2));
        const QByteArray before = pwtest::fileSha256(image);

        const auto r = runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
        QVERIFY2(r.jsonValid, qPrintable(r.describe()));
        QCOMPARE(r.exitCode, 1); // a misaligned layer fails the check like a partition
        const QJsonObject l1 = layerOf(r, 1);
        QCOMPARE(l1.value(QStringLiteral("type")).toString(), QStringLiteral("crypto_LUKS"));
        QCOMPARE(l1.value(QStringLiteral("version")).toString(), QStringLiteral("1"));
        QCOMPARE(l1.value(QStringLiteral("data_offset_bytes")).toInteger(), offset1);
        const qint64 absolute1 = partitionStartBytes(image, 1) + offset1;
        QCOMPARE(l1.value(QStringLiteral("absolute_offset_bytes")).toInteger(), absolute1);
        QCOMPARE(l1.value(QStringLiteral("status")).toString(), QStringLiteral("misaligned"));
        QCOMPARE(l1.value(QStringLiteral("misalignment_bytes")).toInteger(), absolute1 % 4096);
        QVERIFY(!l1.value(QStringLiteral("remedy")).toString().isEmpty());
        // The partition itself is on the grain: only its layer is wrong.
        QCOMPARE(pwtest::partitionByNumber(r.devices().first().toObject(), 1)
                     .value(QStringLiteral("status"))
                     .toString(),
                 QStringLiteral("aligned"));

        const QJsonObject l2 = layerOf(r, 2);
        QCOMPARE(l2.value(QStringLiteral("version")).toString(), QStringLiteral("2"));
        QCOMPARE(l2.value(QStringLiteral("data_offset_bytes")).toInteger(), offset2);
        QCOMPARE(l2.value(QStringLiteral("absolute_offset_bytes")).toInteger(),
                 partitionStartBytes(image, 2) + offset2);
        QCOMPARE(l2.value(QStringLiteral("status")).toString(), QStringLiteral("aligned"));
        // Partitions without layers list none.
        QVERIFY(pwtest::partitionByNumber(r.devices().first().toObject(), 3)
                    .value(QStringLiteral("layers"))
                    .toArray()
                    .isEmpty());

        const auto text = runCli({QStringLiteral("check"), image});
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains("partition 1: its LUKS1 data starts 2097664 bytes"),
                 text.out.constData());
        QVERIFY(text.out.contains("1 layer inside partitions misaligned"));
        QVERIFY(!text.out.contains("partition 2: its"));
        QCOMPARE(pwtest::fileSha256(image), before); // reading wrote nothing
    }

    void alignedLuksPassesTheCheck()
    {
        const QString image = fourPartitions(QStringLiteral("luks2.img"));
        QVERIFY(!image.isEmpty());
        QVERIFY(luksInto(image, 3, {QStringLiteral("--type"), QStringLiteral("luks2")}));
        const auto r = runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(layerOf(r, 3).value(QStringLiteral("status")).toString(),
                 QStringLiteral("aligned"));
    }

    // A LUKS2 header whose JSON metadata is damaged in both copies: libblkid still sees LUKS,
    // libcryptsetup refuses it. The layer is unreadable with that reason, the other partitions
    // are still reported, and nothing is written.
    void damagedLuksHeaderIsUnreadable()
    {
        const QString image = fourPartitions(QStringLiteral("damaged.img"));
        QVERIFY(!image.isEmpty());
        QVERIFY(luksInto(image, 1, {QStringLiteral("--type"), QStringLiteral("luks2")}));
        QVERIFY(luksInto(image, 2,
                         {QStringLiteral("--type"), QStringLiteral("luks1"),
                          QStringLiteral("--align-payload"), QStringLiteral("4097")}));
        QFile f(image);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 start = partitionStartBytes(image, 1);
        // Both copies of the JSON area: after the 4 KiB binary header of each (at 0 and 16 KiB).
        for (const qint64 at : {start + 4096, start + 16384 + 4096}) {
            QVERIFY(f.seek(at));
            f.write(QByteArray(1024, 'x'));
        }
        f.close();
        const QByteArray before = pwtest::fileSha256(image);

        const auto r = runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
        QVERIFY2(r.jsonValid && !r.crashed, qPrintable(r.describe()));
        const QJsonObject l1 = layerOf(r, 1);
        QCOMPARE(l1.value(QStringLiteral("status")).toString(), QStringLiteral("unreadable"));
        QVERIFY2(
            l1.value(QStringLiteral("error")).toString().contains(QStringLiteral("libcryptsetup")),
            qPrintable(l1.value(QStringLiteral("error")).toString()));
        QVERIFY(l1.value(QStringLiteral("data_offset_bytes")).isNull());
        // The rest is still judged: partition 2's misaligned LUKS1 makes the check fail.
        QCOMPARE(layerOf(r, 2).value(QStringLiteral("status")).toString(),
                 QStringLiteral("misaligned"));
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(pwtest::fileSha256(image), before);
    }

    // Realigning moves a partition with its layers. On the old fdisk layout (sector 63) a
    // LUKS1 payload of 4097 sectors happens to sit on a 4 KiB boundary; once the partition
    // moves to sector 2048 it will not. And a layer misaligned inside an aligned partition stays
    // so. The plan says both, with what would fix it; --dry-run writes nothing.
    void realignPlanSaysWhatMovingDoesToLayers()
    {
        const QString image = path(QStringLiteral("xp-luks.img"));
        QFile f(image);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(120 * MiB));
        f.close();
        QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                        "label: dos\nstart=63, size=40M, type=83\nstart=100M, size=16M, type=83\n")
                    .ok());
        QString dump;
        QVERIFY(luksInto(image, 1,
                         {QStringLiteral("--type"), QStringLiteral("luks1"),
                          QStringLiteral("--align-payload"), QStringLiteral("4097")},
                         &dump));
        const qint64 offset = luksDumpOffset(dump);
        QCOMPARE((63 * 512 + offset) % 4096, 0); // aligned where it is now
        const QByteArray before = pwtest::fileSha256(image);
        const auto dry = runCli({QStringLiteral("realign"), QStringLiteral("--dry-run"), image});
        QCOMPARE(dry.exitCode, 0);
        const qint64 after = (2048 * 512 + offset) % 4096; // at the 1 MiB boundary
        QVERIFY(after != 0);
        QVERIFY2(dry.out.contains(QStringLiteral("after the move it will start %1 bytes past a "
                                                 "physical sector")
                                      .arg(after)
                                      .toUtf8()),
                 dry.out.constData());
        QCOMPARE(pwtest::fileSha256(image), before);

        const QString aligned = fourPartitions(QStringLiteral("stays.img"));
        QVERIFY(luksInto(aligned, 1,
                         {QStringLiteral("--type"), QStringLiteral("luks1"),
                          QStringLiteral("--align-payload"), QStringLiteral("4097")}));
        const auto stays =
            runCli({QStringLiteral("realign"), QStringLiteral("--dry-run"), aligned});
        QVERIFY2(stays.out.contains("partition 1 stays where it is, but its LUKS1 data is 512 "
                                    "bytes past a physical sector"),
                 stays.out.constData());
        QVERIFY(stays.out.contains("cannot fix"));
    }

    // pvcreate with a data alignment offset of one sector puts the first extent 512 bytes off;
    // without it, on the grain. Checked on the image file and on a loop device with its nodes.
    void lvmOffsetsMatchPvs()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString image = fourPartitions(QStringLiteral("lvm.img"));
        QVERIFY(!image.isEmpty());
        const qint64 off =
            pvcreateInto(image, 1,
                         {QStringLiteral("--dataalignment"), QStringLiteral("1m"),
                          QStringLiteral("--dataalignmentoffset"), QStringLiteral("1s")});
        const qint64 aligned = pvcreateInto(image, 2, {});
        QCOMPARE(off, MiB + 512);
        QVERIFY(aligned > 0);
        // And a LUKS1 in partition 3, read on the loop device through its partition node.
        QString dump;
        QVERIFY(luksInto(image, 3,
                         {QStringLiteral("--type"), QStringLiteral("luks1"),
                          QStringLiteral("--align-payload"), QStringLiteral("4097")},
                         &dump));
        const qint64 luksOffset = luksDumpOffset(dump);

        auto expect = [&](const pwtest::CliResult &r) {
            QVERIFY2(r.jsonValid, qPrintable(r.describe()));
            QCOMPARE(r.exitCode, 1);
            const QJsonObject l1 = layerOf(r, 1);
            QCOMPARE(l1.value(QStringLiteral("type")).toString(), QStringLiteral("LVM2_member"));
            QCOMPARE(l1.value(QStringLiteral("data_offset_bytes")).toInteger(), off);
            QCOMPARE(l1.value(QStringLiteral("absolute_offset_bytes")).toInteger(),
                     partitionStartBytes(image, 1) + off);
            QCOMPARE(l1.value(QStringLiteral("status")).toString(), QStringLiteral("misaligned"));
            QCOMPARE(l1.value(QStringLiteral("misalignment_bytes")).toInteger(), 512);
            const QJsonObject l2 = layerOf(r, 2);
            QCOMPARE(l2.value(QStringLiteral("data_offset_bytes")).toInteger(), aligned);
            QCOMPARE(l2.value(QStringLiteral("status")).toString(), QStringLiteral("aligned"));
            const QJsonObject l3 = layerOf(r, 3);
            QCOMPARE(l3.value(QStringLiteral("data_offset_bytes")).toInteger(), luksOffset);
            QCOMPARE(l3.value(QStringLiteral("absolute_offset_bytes")).toInteger(),
                     partitionStartBytes(image, 3) + luksOffset);
        };
        expect(runCli({QStringLiteral("check"), QStringLiteral("--json"), image}));

        pwtest::LoopDevice loop(image);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        QVERIFY(loop.addPartitions());
        expect(runCli({QStringLiteral("check"), QStringLiteral("--json"), loop.path()}));
    }

    // An LVM label whose metadata area header is wiped: pvs warns that it cannot read the
    // metadata, so the volume is reported unreadable with pvs's words.
    void lvmLabelWithoutMetadataIsUnreadable()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString image = fourPartitions(QStringLiteral("lvm-damaged.img"));
        QVERIFY(!image.isEmpty());
        QVERIFY(pvcreateInto(image, 1, {}) > 0);
        QFile f(image);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.seek(partitionStartBytes(image, 1) + 4096)); // the metadata area's header
        f.write(QByteArray(512, '\0'));
        f.close();
        const auto r = runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
        QVERIFY2(r.jsonValid && !r.crashed, qPrintable(r.describe()));
        const QJsonObject l1 = layerOf(r, 1);
        QCOMPARE(l1.value(QStringLiteral("status")).toString(), QStringLiteral("unreadable"));
        QVERIFY2(
            l1.value(QStringLiteral("error")).toString().contains(QStringLiteral("mda header")),
            qPrintable(l1.value(QStringLiteral("error")).toString()));
        QCOMPARE(r.exitCode, 0); // nothing else is wrong on this disk
    }
};

QTEST_GUILESS_MAIN(TestLayers)
#include "tst_layers.moc"
