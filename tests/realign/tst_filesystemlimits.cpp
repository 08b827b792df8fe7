// What Partwise cannot do to a filesystem is never planned. A FAT12 (mkfs.fat -F 12, as
// grub-mkrescue's ESP is; blkid says FAT12) is never shrunk: libparted's FAT resizer handles
// FAT16 and FAT32 only, so a realignment that needs the room says "cannot shrink FAT12" and
// leaves it, and a copy onto a disk too small for it refuses; both write nothing (sha256). A
// filesystem Partwise has no check for (minix, as hfsplus on a Mac disk) moves only with
// --accept-unchecked, and `check --json` says why; its every byte arrives.

#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;

bool run(const QString &program, const QStringList &args, QString *error)
{
    const ToolResult r = runTool(program, args);
    if (!r.ok())
        *error = r.describe();
    return r.ok();
}

QString blkidValue(const QString &image, qint64 offset, const QString &tag)
{
    return QString::fromUtf8(runTool(QStringLiteral("blkid"),
                                     {QStringLiteral("-p"), QStringLiteral("-O"),
                                      QString::number(offset), QStringLiteral("-o"),
                                      QStringLiteral("value"), QStringLiteral("-s"), tag, image})
                                 .out)
        .trimmed();
}

} // namespace

class TestFilesystemLimits : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // A FAT12 of 8129 sectors at 63, holding a file, then what `rest` adds.
    QString fat12Disk(const QString &name, qint64 bytes, const QByteArray &rest)
    {
        const QString image = path(name);
        QString error;
        if (!SfdiskTable::writeImage(image, bytes,
                                     "label: dos\nstart=63, size=8129, type=1\n" + rest, &error) ||
            !run(QStringLiteral("mkfs.fat"),
                 {QStringLiteral("-F"), QStringLiteral("12"), QStringLiteral("--offset=63"), image,
                  QStringLiteral("4064")},
                 &error)) {
            qWarning("%s", qPrintable(error));
            return {};
        }
        const QString file = path(QStringLiteral("hello.txt"));
        QFile f(file);
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write("FAT12 stays whole\n");
        f.close();
        if (!run(QStringLiteral("mcopy"),
                 {QStringLiteral("-i"), image + QStringLiteral("@@%1").arg(63 * 512), file,
                  QStringLiteral("::/hello.txt")},
                 &error)) {
            qWarning("%s", qPrintable(error));
            return {};
        }
        return image;
    }

private slots:
    void initTestCase()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        setCliPath(buildSetting("PARTWISE_CLI"));
        QVERIFY(m_dir.isValid());
    }

    void fat12IsNeverShrunkByARealignment()
    {
        // Partition 2 right behind it: only shrinking the FAT12 would make room at 2048.
        const QString image =
            fat12Disk(QStringLiteral("realign.img"), 12 * kMiB, "start=8192, type=83\n");
        QVERIFY(!image.isEmpty());
        QCOMPARE(blkidValue(image, 63 * 512, QStringLiteral("VERSION")), QStringLiteral("FAT12"));
        const QByteArray before = fileSha256(image);
        const CliResult r = runCli(
            {QStringLiteral("realign"), QStringLiteral("--partition"), QStringLiteral("1"),
             QStringLiteral("--yes"), QStringLiteral("--journal"), path(QStringLiteral("r.json")),
             QStringLiteral("--backup-dir"), path(QStringLiteral("b")), image});
        QVERIFY2(r.exitCode == 1, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        QVERIFY2(r.out.contains("cannot shrink FAT12") && !r.out.contains("shrinking"),
                 r.out.constData());
        QCOMPARE(fileSha256(image), before);
    }

    void fat12IsNeverShrunkByACopy()
    {
        const QString source = fat12Disk(QStringLiteral("copy-source.img"), 6 * kMiB, {});
        QVERIFY(!source.isEmpty());
        const QString target = path(QStringLiteral("copy-target.img"));
        QFile f(target);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.resize(4 * kMiB));
        f.close();
        const QByteArray sourceSha = fileSha256(source);
        const QByteArray targetSha = fileSha256(target);
        const CliResult r =
            runCli({QStringLiteral("copy"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                    path(QStringLiteral("b")), source, target});
        QVERIFY2(r.exitCode == 1 && (r.out + r.err).contains("cannot shrink FAT12"),
                 qPrintable(r.describe() + QString::fromUtf8(r.out)));
        QCOMPARE(fileSha256(source), sourceSha);
        QCOMPARE(fileSha256(target), targetSha);
    }

    void uncheckableFilesystemMovesOnlyWhenAccepted()
    {
        // minix: a filesystem blkid names and Partwise has no check for (as hfsplus on a Mac
        // disk), at 63 with free space after it.
        const QString image = path(QStringLiteral("minix.img"));
        const QString fs = path(QStringLiteral("minix.fs"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(image, 12 * kMiB,
                                         "label: dos\nstart=63, size=8129, type=83\n", &error),
                 qPrintable(error));
        QFile f(fs);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.resize(8129 * 512));
        f.close();
        QVERIFY2(run(QStringLiteral("mkfs.minix"), {fs}, &error) &&
                     run(QStringLiteral("dd"),
                         {QStringLiteral("if=") + fs, QStringLiteral("of=") + image,
                          QStringLiteral("bs=512"), QStringLiteral("seek=63"),
                          QStringLiteral("conv=notrunc")},
                         &error),
                 qPrintable(error));
        QCOMPARE(blkidValue(image, 63 * 512, QStringLiteral("TYPE")), QStringLiteral("minix"));
        const QByteArray bytes = fileSha256(fs);

        const CliResult check = runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
        QVERIFY2(check.jsonValid, qPrintable(check.describe()));
        const QJsonObject p1 = partitionByNumber(check.devices().at(0).toObject(), 1);
        QVERIFY2(p1.value(QStringLiteral("unchecked_reason"))
                     .toString()
                     .contains(QStringLiteral("no read-only check for minix")),
                 check.out.constData());

        const QByteArray before = fileSha256(image);
        const QStringList args{QStringLiteral("realign"),
                               QStringLiteral("--yes"),
                               QStringLiteral("--journal"),
                               path(QStringLiteral("m.json")),
                               QStringLiteral("--backup-dir"),
                               path(QStringLiteral("b")),
                               image};
        const CliResult refused = runCli(args);
        QVERIFY2(refused.exitCode == 1 && refused.out.contains("unchecked: partition 1 (minix)") &&
                     refused.err.contains("--accept-unchecked"),
                 qPrintable(refused.describe() + QString::fromUtf8(refused.out)));
        QCOMPARE(fileSha256(image), before);

        const CliResult accepted = runCli(args + QStringList{QStringLiteral("--accept-unchecked")});
        QVERIFY2(accepted.exitCode == 0, qPrintable(accepted.describe()));
        QVERIFY2(accepted.out.contains("not checked"), accepted.out.constData());
        const SfdiskTable table = SfdiskTable::read(image);
        QVERIFY2(table.ok && table.partitions.size() == 1, qPrintable(table.error));
        QCOMPARE(table.partitions[0].start, 2048);
        QCOMPARE(table.partitions[0].size, 8129);
        QVERIFY2(run(QStringLiteral("dd"),
                     {QStringLiteral("if=") + image, QStringLiteral("of=") + fs,
                      QStringLiteral("bs=512"), QStringLiteral("skip=2048"),
                      QStringLiteral("count=8129")},
                     &error),
                 qPrintable(error));
        QCOMPARE(fileSha256(fs), bytes);
    }
};

QTEST_GUILESS_MAIN(TestFilesystemLimits)
#include "tst_filesystemlimits.moc"
