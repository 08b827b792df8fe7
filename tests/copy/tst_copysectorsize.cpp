// `partwise-cli copy` between sector sizes: a 512-byte MBR disk (NTFS with 4 KiB clusters at the
// old sector 63, FAT32, ext4 with 4 KiB blocks, swap) onto a 4Kn loop device (`losetup -b 4096`)
// and back onto a 512-byte one. Judged by independent tools: sfdisk -J of each target (its sector
// size, every start on the 1 MiB grain in its own sectors), blkid's reading of the sector size
// NTFS and FAT record, every file's SHA-256 (ntfs-3g, mtools, a mount) and each filesystem's own
// check (ntfsfix -n, fsck.fat -n, e2fsck; tests/support/partitioncontents), blkid of the swap
// made anew. The FAT32 is a real one (65525 clusters or more), so 260 MiB with 4 KiB clusters,
// the smallest that carry over onto 4Kn; sparse, and only its used blocks are copied.
// A disk with an ext4 of 1 KiB blocks, a FAT32 of 512-byte clusters and an NTFS of 512-byte
// clusters is refused, naming each partition and why, with nothing written.

#include "blkidprobe.h"
#include "buildsetting.h"
#include "clirun.h"
#include "filebytes.h"
#include "filetree.h"
#include "fsfixture.h"
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
void verifyOnGrain(const QString &device, int sectorSize, int count)
{
    const ToolResult r = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), device});
    const QJsonObject table =
        QJsonDocument::fromJson(r.out).object().value(QStringLiteral("partitiontable")).toObject();
    QCOMPARE(table.value(QStringLiteral("sectorsize")).toInt(), sectorSize);
    const QJsonArray parts = table.value(QStringLiteral("partitions")).toArray();
    QCOMPARE(parts.size(), count);
    for (const QJsonValue &p : parts)
        QCOMPARE(p.toObject().value(QStringLiteral("start")).toInteger() * sectorSize % kMiB, 0);
}

// The bytes per sector the filesystem at `offset` records, as libblkid reads it (BLOCK_SIZE).
int recordedSectorSize(const QString &image, qint64 offset)
{
    const ToolResult r = runTool(
        QStringLiteral("blkid"),
        {QStringLiteral("-p"), QStringLiteral("-O"), QString::number(offset), QStringLiteral("-o"),
         QStringLiteral("value"), QStringLiteral("-s"), QStringLiteral("BLOCK_SIZE"), image});
    return QString::fromUtf8(r.out).trimmed().toInt();
}

// Runs each command in turn; what the first that failed said, or empty.
QString runSteps(const QList<QStringList> &steps)
{
    for (const QStringList &step : steps)
        if (const ToolResult r = runTool(step.first(), step.mid(1)); !r.ok())
            return r.describe();
    return QString();
}

} // namespace

class TestCopySectorSize : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    QString tree(const QString &name, int files, qint64 large, quint32 seed, QString *error)
    {
        const QString dir = path(name);
        if (!QFile::exists(dir) && !makeFileTree(dir, files, large, seed, error))
            return QString();
        return dir;
    }

    // A filesystem made by `mkfs` (its arguments, the node last) in the image's sectors
    // start..start+size-1, filled from `from` when given.
    QString makeAt(const QString &image, qint64 start, qint64 size, const QStringList &mkfs,
                   const QString &fs, const QString &from)
    {
        LoopRange range(image, start * 512, size * 512);
        if (!range.ok())
            return range.error();
        const ToolResult r = runTool(mkfs.first(), mkfs.mid(1) << range.path());
        if (!r.ok())
            return r.describe();
        QString error;
        if (!from.isEmpty() && !fillFilesystem(range.path(), fs, from, &error))
            return error;
        return QString();
    }

    // NTFS of 4 KiB clusters at sector 63, FAT32 of 4 KiB clusters, ext4 of 4 KiB blocks and
    // swap, each holding files; all of them carry over onto 4Kn.
    QString makeSource(const QString &image)
    {
        const QByteArray script = "label: dos\nstart=63, size=8129, type=7\n"
                                  "start=8192, size=532480, type=c\n"
                                  "start=540672, size=20480, type=83\n"
                                  "start=561152, size=4096, type=82\n";
        QString error;
        if (!SfdiskTable::writeImage(image, 280 * kMiB, script, &error))
            return error;
        const QString small = tree(QStringLiteral("small"), 12, 256 * 1024, 7, &error);
        const QString big = tree(QStringLiteral("tree"), 40, 512 * 1024, 49, &error);
        if (small.isEmpty() || big.isEmpty())
            return error;
        const QString ntfs =
            makeAt(image, 63, 8129,
                   {QStringLiteral("mkntfs"), QStringLiteral("-Q"), QStringLiteral("-F"),
                    QStringLiteral("-q"), QStringLiteral("-s"), QStringLiteral("512"),
                    QStringLiteral("-c"), QStringLiteral("4096"), QStringLiteral("-p"),
                    QStringLiteral("63"), QStringLiteral("-H"), QStringLiteral("255"),
                    QStringLiteral("-S"), QStringLiteral("63")},
                   QStringLiteral("ntfs"), small);
        const QString fat =
            makeAt(image, 8192, 532480,
                   {QStringLiteral("mkfs.fat"), QStringLiteral("-F"), QStringLiteral("32"),
                    QStringLiteral("-S"), QStringLiteral("512"), QStringLiteral("-s"),
                    QStringLiteral("8"), QStringLiteral("-R"), QStringLiteral("32"),
                    QStringLiteral("-h"), QStringLiteral("8192")},
                   QStringLiteral("vfat"), small);
        if (!ntfs.isEmpty() || !fat.isEmpty())
            return ntfs + fat;
        const QString swap = path(QStringLiteral("swap.bin"));
        return runSteps(
            {{QStringLiteral("mkfs.ext4"), QStringLiteral("-q"), QStringLiteral("-F"),
              QStringLiteral("-b"), QStringLiteral("4096"), QStringLiteral("-E"),
              QStringLiteral("offset=%1").arg(540672 * 512), QStringLiteral("-d"), big, image,
              QStringLiteral("2552")},
             {QStringLiteral("truncate"), QStringLiteral("-s"), QStringLiteral("2M"), swap},
             {QStringLiteral("mkswap"), QStringLiteral("-U"), kSwapUuid, QStringLiteral("-L"),
              QStringLiteral("swap4k"), swap},
             {QStringLiteral("dd"), QStringLiteral("if=") + swap, QStringLiteral("of=") + image,
              QStringLiteral("bs=512"), QStringLiteral("seek=561152"),
              QStringLiteral("conv=notrunc"), QStringLiteral("status=none")}});
    }

    // What does not carry over onto 4Kn: NTFS and FAT32 of 512-byte clusters, ext4 of 1 KiB
    // blocks.
    QString makeRefusedSource(const QString &image)
    {
        const QByteArray script = "label: dos\nstart=63, size=4033, type=7\n"
                                  "start=4096, size=8192, type=c\n"
                                  "start=12288, size=4096, type=83\n";
        QString error;
        if (!SfdiskTable::writeImage(image, 16 * kMiB, script, &error))
            return error;
        const QString ntfs =
            makeAt(image, 63, 4033,
                   {QStringLiteral("mkntfs"), QStringLiteral("-Q"), QStringLiteral("-F"),
                    QStringLiteral("-q"), QStringLiteral("-s"), QStringLiteral("512"),
                    QStringLiteral("-c"), QStringLiteral("512"), QStringLiteral("-p"),
                    QStringLiteral("63")},
                   QStringLiteral("ntfs"), QString());
        const QString fat =
            makeAt(image, 4096, 8192,
                   {QStringLiteral("mkfs.fat"), QStringLiteral("-F"), QStringLiteral("32"),
                    QStringLiteral("-S"), QStringLiteral("512"), QStringLiteral("-s"),
                    QStringLiteral("1")},
                   QStringLiteral("vfat"), QString());
        if (!ntfs.isEmpty() || !fat.isEmpty())
            return ntfs + fat;
        return runSteps(
            {{QStringLiteral("mkfs.ext4"), QStringLiteral("-q"), QStringLiteral("-F"),
              QStringLiteral("-b"), QStringLiteral("1024"), QStringLiteral("-E"),
              QStringLiteral("offset=%1").arg(12288 * 512), image, QStringLiteral("2048")}});
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
        const QString made = makeSource(source);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        const QString fourKn = path(QStringLiteral("4kn.img"));
        const QString back = path(QStringLiteral("back512.img"));
        QVERIFY(makeSparseFile(fourKn, 288 * kMiB) && makeSparseFile(back, 288 * kMiB));
        SfdiskTable onFourKn;
        {
            LoopDevice loop(fourKn, 4096);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            const auto forget = qScopeGuard([&] {
                runTool(QStringLiteral("partx"), {QStringLiteral("-d"), loop.path()});
            });
            const CliResult r = copy(source, loop.path());
            QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
            qInfo("%s", r.out.constData());
            for (const char *rule : {"partition 1 onto 4096-byte sectors: ntfs with 4096-byte "
                                     "clusters is converted",
                                     "partition 2 onto 4096-byte sectors: FAT32 with 4096-byte "
                                     "clusters is converted",
                                     "partition 3 onto 4096-byte sectors: ext4 with 4096-byte "
                                     "blocks carries over"})
                QVERIFY2(r.out.contains(rule), qPrintable(QString::fromUtf8(r.out)));
            verifyOnGrain(loop.path(), 4096, 4);
            onFourKn = SfdiskTable::read(loop.path());
        }
        QCOMPARE(onFourKn.partitions.size(), 4);
        // NTFS and FAT now count in the disk's sectors.
        for (int i : {0, 1})
            QCOMPARE(recordedSectorSize(fourKn, onFourKn.partitions.at(i).start * 4096), 4096);
        QStringList problems;
        const QMap<int, PartitionContents> original =
            partitionContents(source, 512, SfdiskTable::read(source), &problems);
        const QMap<int, PartitionContents> copied =
            partitionContents(fourKn, 4096, onFourKn, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QCOMPARE(original.size(), 4);
        QStringList differ = contentsDiffer(original, copied);
        QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));
        const BlkidInfo swap = blkidProbe(fourKn, onFourKn.partitions.at(3).start * 4096);
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
            verifyOnGrain(to.path(), 512, 4);
        }
        const SfdiskTable onBack = SfdiskTable::read(back);
        for (int i : {0, 1})
            QCOMPARE(recordedSectorSize(back, onBack.partitions.at(i).start * 512), 512);
        differ = copyDiffers(source, back, 512);
        QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));
    }

    void notConvertedRefusedNothingWritten()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = path(QStringLiteral("refused.img"));
        const QString made = makeRefusedSource(source);
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
            const QByteArray said = r.out + r.err;
            for (const char *why :
                 {"Partition 1 cannot go onto 4096-byte sectors: ntfs with 512-byte clusters",
                  "Partition 2 cannot go onto 4096-byte sectors: FAT32 with",
                  "Partition 3 cannot go onto 4096-byte sectors: ext4 with 1024-byte blocks"})
                QVERIFY2(said.contains(why), qPrintable(QString::fromUtf8(said)));
            QVERIFY2(said.contains("512-byte clusters does not convert exactly"),
                     qPrintable(QString::fromUtf8(said)));
        }
        QCOMPARE(sha256Of(image), before);
    }
};

QTEST_GUILESS_MAIN(TestCopySectorSize)
#include "tst_copysectorsize.moc"
