// `partwise-cli copy` between sector sizes: a 512-byte MBR disk (ext4 with 4 KiB blocks at the
// old sector 63, swap) onto a 4Kn loop device (`losetup -b 4096`) and back onto a 512-byte one.
// Judged by independent tools: sfdisk -J of each target (its sector size, every start on the
// 1 MiB grain in its own sectors), every file's SHA-256 and each filesystem's own check
// (tests/support/partitioncontents), blkid of the swap made anew. A disk with an ext4 of 1 KiB
// blocks is refused, naming that partition and why, with nothing written.

#include "blkidprobe.h"
#include "buildsetting.h"
#include "clirun.h"
#include "filebytes.h"
#include "filetree.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;
const QString kSwapUuid = QStringLiteral("5b1f7e22-3c4d-4e5f-8a6b-7c8d9e0f1a2b");

QByteArray sha256Of(const QString &path)
{
    QFile f(path);
    QCryptographicHash h(QCryptographicHash::Sha256);
    return f.open(QIODevice::ReadOnly) && h.addData(&f) ? h.result().toHex() : QByteArray();
}

// The filesystems' starts in the target's own sectors, as sfdisk reads the device.
void verifyOnGrain(const QString &device, int sectorSize)
{
    const ToolResult r = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), device});
    const QJsonObject table =
        QJsonDocument::fromJson(r.out).object().value(QStringLiteral("partitiontable")).toObject();
    QCOMPARE(table.value(QStringLiteral("sectorsize")).toInt(), sectorSize);
    const QJsonArray parts = table.value(QStringLiteral("partitions")).toArray();
    QCOMPARE(parts.size(), 2);
    for (const QJsonValue &p : parts)
        QCOMPARE(p.toObject().value(QStringLiteral("start")).toInteger() * sectorSize % kMiB, 0);
}

} // namespace

class TestCopySectorSize : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // ext4 (4 KiB blocks, a file tree) at sector 63, swap after it; with `smallBlocks` a third
    // partition holds an ext4 of 1 KiB blocks.
    QString makeSource(const QString &image, bool smallBlocks)
    {
        QByteArray script = "label: dos\nstart=63, size=20417, type=83\n"
                            "start=20480, size=4096, type=82\n";
        if (smallBlocks)
            script += "start=24576, size=4096, type=83\n";
        QString error;
        if (!SfdiskTable::writeImage(image, 16 * kMiB, script, &error))
            return error;
        const QString tree = path(QStringLiteral("tree"));
        if (!QFile::exists(tree) && !makeFileTree(tree, 40, 512 * 1024, 49, &error))
            return error;
        const QString swap = path(QStringLiteral("swap.bin"));
        QList<QStringList> steps{
            {QStringLiteral("mkfs.ext4"), QStringLiteral("-q"), QStringLiteral("-F"),
             QStringLiteral("-b"), QStringLiteral("4096"), QStringLiteral("-E"),
             QStringLiteral("offset=%1").arg(63 * 512), QStringLiteral("-d"), tree, image,
             QStringLiteral("2552")},
            {QStringLiteral("truncate"), QStringLiteral("-s"), QStringLiteral("2M"), swap},
            {QStringLiteral("mkswap"), QStringLiteral("-U"), kSwapUuid, QStringLiteral("-L"),
             QStringLiteral("swap4k"), swap},
            {QStringLiteral("dd"), QStringLiteral("if=") + swap, QStringLiteral("of=") + image,
             QStringLiteral("bs=512"), QStringLiteral("seek=20480"), QStringLiteral("conv=notrunc"),
             QStringLiteral("status=none")}};
        if (smallBlocks)
            steps << QStringList{QStringLiteral("mkfs.ext4"),
                                 QStringLiteral("-q"),
                                 QStringLiteral("-F"),
                                 QStringLiteral("-b"),
                                 QStringLiteral("1024"),
                                 QStringLiteral("-E"),
                                 QStringLiteral("offset=%1").arg(24576 * 512),
                                 image,
                                 QStringLiteral("2048")};
        for (const QStringList &step : steps)
            if (const ToolResult r = runTool(step.first(), step.mid(1)); !r.ok())
                return step.first() + QStringLiteral(": ") + QString::fromUtf8(r.err);
        return QString();
    }

    CliResult copy(const QString &source, const QString &target)
    {
        return runCli({QStringLiteral("copy"), QStringLiteral("--yes"),
                       QStringLiteral("--backup-dir"), path(QStringLiteral("backups")), source,
                       target},
                      300000);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    }

    void ontoFourKnAndBack()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = path(QStringLiteral("mbr512.img"));
        const QString made = makeSource(source, false);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        const QString fourKn = path(QStringLiteral("4kn.img"));
        const QString back = path(QStringLiteral("back512.img"));
        QVERIFY(makeSparseFile(fourKn, 16 * kMiB) && makeSparseFile(back, 16 * kMiB));
        SfdiskTable onFourKn;
        {
            LoopDevice loop(fourKn, 4096);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            const auto forget = qScopeGuard([&] {
                runTool(QStringLiteral("partx"), {QStringLiteral("-d"), loop.path()});
            });
            const CliResult r = copy(source, loop.path());
            QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
            QVERIFY(r.out.contains("ext4 with 4096-byte blocks carries over"));
            verifyOnGrain(loop.path(), 4096);
            onFourKn = SfdiskTable::read(loop.path());
        }
        QStringList problems;
        const QMap<int, PartitionContents> original =
            partitionContents(source, 512, SfdiskTable::read(source), &problems);
        const QMap<int, PartitionContents> copied =
            partitionContents(fourKn, 4096, onFourKn, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QStringList differ = contentsDiffer(original, copied);
        QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));
        QCOMPARE(onFourKn.partitions.size(), 2);
        const BlkidInfo swap = blkidProbe(fourKn, onFourKn.partitions.at(1).start * 4096);
        QCOMPARE(swap.type, QStringLiteral("swap"));
        QCOMPARE(swap.uuid, kSwapUuid);
        QCOMPARE(swap.label, QStringLiteral("swap4k"));
        {
            LoopDevice from(fourKn, 4096, true);
            LoopDevice to(back);
            QVERIFY2(from.ok() && to.ok(), qPrintable(from.error() + to.error()));
            const auto forget = qScopeGuard([&] {
                runTool(QStringLiteral("partx"), {QStringLiteral("-d"), to.path()});
            });
            const CliResult r = copy(from.path(), to.path());
            QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
            verifyOnGrain(to.path(), 512);
        }
        differ = copyDiffers(source, back, 512);
        QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));
    }

    void smallBlocksRefusedNothingWritten()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = path(QStringLiteral("small-blocks.img"));
        const QString made = makeSource(source, true);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        const QString image = path(QStringLiteral("4kn-refused.img"));
        QVERIFY(makeSparseFile(image, 16 * kMiB));
        QFile f(image);
        QVERIFY(f.open(QIODevice::ReadWrite) && f.seek(8 * kMiB) &&
                f.write(QByteArray(4096, 'x')) == 4096); // old data a copy would overwrite
        f.close();
        const QByteArray before = sha256Of(image);
        {
            LoopDevice loop(image, 4096);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            const CliResult r = copy(source, loop.path());
            QVERIFY2(r.exitCode == 1, qPrintable(r.describe() + QString::fromUtf8(r.out)));
            QVERIFY2(r.out.contains("Partition 3 cannot go onto 4096-byte sectors: ext4 with "
                                    "1024-byte blocks") ||
                         r.err.contains("Partition 3 cannot go onto 4096-byte sectors: ext4 with "
                                        "1024-byte blocks"),
                     qPrintable(QString::fromUtf8(r.out + r.err)));
        }
        QCOMPARE(sha256Of(image), before);
    }
};

QTEST_GUILESS_MAIN(TestCopySectorSize)
#include "tst_copysectorsize.moc"
