// `partwise-cli restore` as a person meets it: it asks first, puts back the whole table (an MBR's
// EBRs too, GPT's both headers) when only the table changed, and refuses, writing nothing, when
// the data moved after the backup or a job waits to be resumed. Expected tables are sfdisk's own
// dumps; "nothing written" is the image's sha256.
#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "ops/writejournal.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;
using namespace pwtest;

namespace {

QString sfdiskDump(const QString &path)
{
    return QString::fromUtf8(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-d"), path}).out);
}

// The one backup folder a job left under `root`.
QString onlyBackup(const QString &root)
{
    const QStringList folders = QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    return folders.size() == 1 ? QDir(root).filePath(folders.first()) : QString();
}

QString backupDump(const QString &folder)
{
    QFile f(QDir(folder).filePath(QStringLiteral("table.sfdisk")));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class RestoreTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { setCliPath(buildSetting("PARTWISE_CLI")); }
    void realignedDiskIsRefused();
    void unfinishedJobIsRefused();
    void createdPartitionIsUndoneAfterAsking();
    void deletedLogicalComesBackWithItsEbrs();
    void loopDiskInUseIsRefusedThenRestored();

private:
    // A practice disk of 64 MiB; a plan applied to it (its backup under `backups`).
    QString practice(const QString &preset, const QString &name);
    bool apply(const QString &image, const char *plan, const QString &backups);
    QTemporaryDir m_dir;
};

QString RestoreTest::practice(const QString &preset, const QString &name)
{
    const QString image = m_dir.filePath(name);
    const CliResult r = runCli({QStringLiteral("practice"), QStringLiteral("--size"),
                                QStringLiteral("64m"), preset, image});
    return r.exitCode == 0 ? image : QString();
}

bool RestoreTest::apply(const QString &image, const char *plan, const QString &backups)
{
    const QString planPath = image + QStringLiteral(".plan.json");
    QFile f(planPath);
    if (!f.open(QIODevice::WriteOnly) || f.write(plan) < 0)
        return false;
    f.close();
    const CliResult r = runCli({QStringLiteral("apply"), QStringLiteral("--yes"),
                                QStringLiteral("--backup-dir"), backups, planPath, image});
    if (r.exitCode != 0)
        qWarning() << r.describe();
    return r.exitCode == 0;
}

// The issue's case: after a realignment of an old-fdisk layout, the backup's table points at
// sectors where the data no longer is. Refused, naming both starts (sfdisk's, before and after).
void RestoreTest::realignedDiskIsRefused()
{
    const QString img = practice(QStringLiteral("old-fdisk"), QStringLiteral("realigned.img"));
    QVERIFY(!img.isEmpty());
    const QString backups = m_dir.filePath(QStringLiteral("realigned-backups"));
    const SfdiskTable old = SfdiskTable::read(img);
    const CliResult realigned = runCli({QStringLiteral("realign"), QStringLiteral("--yes"),
                                        QStringLiteral("--backup-dir"), backups, img});
    QVERIFY2(realigned.exitCode == 0, qPrintable(realigned.describe()));
    const QString backup = onlyBackup(backups);
    QVERIFY(!backup.isEmpty());
    const QString before = sfdiskDump(img);
    const SfdiskTable moved = SfdiskTable::read(img);
    QVERIFY(old.ok && moved.ok && old.find(1) && moved.find(1));
    QVERIFY(moved.find(1)->start != old.find(1)->start); // the realignment moved partition 1
    const QByteArray sha = fileSha256(img);

    const CliResult r = runCli({QStringLiteral("restore"), QStringLiteral("--yes"), backup, img});
    QCOMPARE(r.exitCode, 1);
    const QString said = QString::fromUtf8(r.err);
    QVERIFY2(said.contains(QLatin1String("moved after this backup")), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("partition 1 starts at sector %1 now, at sector %2")
                               .arg(moved.find(1)->start)
                               .arg(old.find(1)->start)),
             qPrintable(said));
    QCOMPARE(fileSha256(img), sha);
    QCOMPARE(sfdiskDump(img), before);
}

// A job stopped part-way leaves its journal: restore names it and resume, and writes nothing.
void RestoreTest::unfinishedJobIsRefused()
{
    const QString img = practice(QStringLiteral("modern"), QStringLiteral("unfinished.img"));
    QVERIFY(!img.isEmpty());
    const QString backups = m_dir.filePath(QStringLiteral("unfinished-backups"));
    QVERIFY(apply(img, R"({"operations":[{"op":"create","size":"8MiB"}]})", backups));
    const QString journal = WriteJournal::defaultPath(img);
    WriteJournal pending;
    pending.target = img;
    pending.backupFolder = onlyBackup(backups);
    QString error;
    QVERIFY2(pending.save(journal, &error), qPrintable(error));
    const QByteArray sha = fileSha256(img);

    const CliResult r =
        runCli({QStringLiteral("restore"), QStringLiteral("--yes"), onlyBackup(backups), img});
    QCOMPARE(r.exitCode, 1);
    const QString said = QString::fromUtf8(r.err);
    QVERIFY2(said.contains(journal) && said.contains(QLatin1String("partwise-cli resume")),
             qPrintable(said));
    QCOMPARE(fileSha256(img), sha);
    QFile::remove(journal);
}

// Only the table changed (a partition created): without a terminal and without --yes nothing is
// written; with --yes the table is the backup's again, GPT's backup header included.
void RestoreTest::createdPartitionIsUndoneAfterAsking()
{
    const QString img = practice(QStringLiteral("modern"), QStringLiteral("created.img"));
    QVERIFY(!img.isEmpty());
    const QString backups = m_dir.filePath(QStringLiteral("created-backups"));
    QVERIFY(apply(img, R"({"operations":[{"op":"create","size":"8MiB"}]})", backups));
    const QString backup = onlyBackup(backups);
    QVERIFY(sfdiskDump(img) != backupDump(backup));
    const QByteArray sha = fileSha256(img);

    CliResult r = runCli({QStringLiteral("restore"), backup, img}); // stdin is no terminal
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("--yes"), r.err.constData());
    QCOMPARE(fileSha256(img), sha);

    r = runCli({QStringLiteral("restore"), QStringLiteral("--yes"), backup, img});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QCOMPARE(sfdiskDump(img), backupDump(backup));
    const ToolResult verified = runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), img});
    QVERIFY2(verified.exitCode == 0 && verified.out.contains("No problems found"),
             verified.out.constData());
}

// Deleting logical partition 5 rewrites the EBR chain (and renumbers 6 to 5) far past the
// first MiB; restore brings back both logical partitions as sfdisk dumped them.
void RestoreTest::deletedLogicalComesBackWithItsEbrs()
{
    const QString img = practice(QStringLiteral("old-fdisk"), QStringLiteral("logical.img"));
    QVERIFY(!img.isEmpty());
    const QString backups = m_dir.filePath(QStringLiteral("logical-backups"));
    QVERIFY(apply(img, R"({"operations":[{"op":"delete","number":5}]})", backups));
    const QString backup = onlyBackup(backups);
    QVERIFY(sfdiskDump(img) != backupDump(backup));

    const CliResult r = runCli({QStringLiteral("restore"), QStringLiteral("--yes"), backup, img});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QCOMPARE(sfdiskDump(img), backupDump(backup));
}

// On a block device: refused while a partition of it is mounted (first MiB and table as they
// were), restored once it is free, with the kernel told how to catch up.
void RestoreTest::loopDiskInUseIsRefusedThenRestored()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = practice(QStringLiteral("modern"), QStringLiteral("loop.img"));
    QVERIFY(!img.isEmpty());
    const QString backups = m_dir.filePath(QStringLiteral("loop-backups"));
    QVERIFY(apply(img, R"({"operations":[{"op":"create","size":"8MiB"}]})", backups));
    const QString backup = onlyBackup(backups);
    const QString mnt = m_dir.filePath(QStringLiteral("mnt"));
    QVERIFY(QDir().mkpath(mnt));
    LoopDevice loop(img);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    // The backup's dump in the loop device's names.
    const QString expected =
        QString(backupDump(backup))
            .replace(QStringLiteral("device: ") + img, QStringLiteral("device: ") + loop.path())
            .replace(img, loop.path() + QLatin1Char('p'));
    const QString tableBefore = sfdiskDump(loop.path());
    QVERIFY(tableBefore != expected);

    QVERIFY(runTool(QStringLiteral("mount"), {loop.partitionNode(2), mnt}).ok());
    QFile disk(loop.path());
    QVERIFY(disk.open(QIODevice::ReadOnly));
    const QByteArray firstMiB = disk.read(1 << 20);
    CliResult r = runCli({QStringLiteral("restore"), QStringLiteral("--yes"), backup, loop.path()});
    disk.seek(0);
    const QByteArray firstMiBAfter = disk.read(1 << 20);
    runTool(QStringLiteral("umount"), {mnt});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("in use"), r.err.constData());
    QVERIFY(firstMiBAfter == firstMiB);
    QCOMPARE(sfdiskDump(loop.path()), tableBefore);

    r = runCli({QStringLiteral("restore"), QStringLiteral("--yes"), backup, loop.path()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.contains("partx -u"), r.out.constData());
    QCOMPARE(sfdiskDump(loop.path()), expected);
}

QTEST_GUILESS_MAIN(RestoreTest)
#include "tst_restore.moc"
