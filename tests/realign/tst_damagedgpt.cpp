// A GPT one of whose two copies is missing or damaged (the backup header at the disk's end, or
// the primary after the MBR, zeroed as a truncated dd or a stray write leaves it; sgdisk -v
// confirms the damage) is refused by realign and apply with the repair named (`sgdisk -e IMAGE`),
// and nothing is written (sha256). The repair as the refusal words it works: after `sgdisk -e`,
// sgdisk -v finds no problems and the realignment runs. A backup merely not at the end of a
// grown image is no damage and is not refused.

#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;
constexpr qint64 kSectors = 32 * kMiB / 512;

bool zeroSector(const QString &image, qint64 sector)
{
    QFile f(image);
    return f.open(QIODevice::ReadWrite) && f.seek(sector * 512) &&
           f.write(QByteArray(512, '\0')) == 512;
}

QByteArray sgdiskVerify(const QString &image)
{
    const ToolResult r = runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), image});
    return r.out + r.err;
}

} // namespace

class TestDamagedGpt : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // ext4 at GPT sector 34 (misaligned), free space after it.
    QString gptDisk(const QString &name)
    {
        const QString image = path(name);
        QString error;
        if (!SfdiskTable::writeImage(image, 32 * kMiB,
                                     "label: gpt\nfirst-lba: 34\nstart=34, size=20000, "
                                     "type=0FC63DAF-8483-4772-8E79-3D69D8477DE4\n",
                                     &error) ||
            !runTool(QStringLiteral("mkfs.ext4"),
                     {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-E"),
                      QStringLiteral("offset=%1").arg(34 * 512), image, QStringLiteral("10000")})
                 .ok())
            return {};
        return image;
    }

    void expectRefused(const QStringList &args, const QString &image)
    {
        const QByteArray before = fileSha256(image);
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 2 && r.err.contains("sgdisk -e " + image.toUtf8()),
                 qPrintable(r.describe() + QString::fromUtf8(r.out)));
        QCOMPARE(fileSha256(image), before);
    }

    void expectRefusedUntilRepaired(const QString &image)
    {
        QVERIFY2(sgdiskVerify(image).contains("ERROR"), sgdiskVerify(image).constData());
        const QStringList realign{QStringLiteral("realign"),       QStringLiteral("--all"),
                                  QStringLiteral("--yes"),         QStringLiteral("--journal"),
                                  path(QStringLiteral("j.json")),  QStringLiteral("--backup-dir"),
                                  path(QStringLiteral("backups")), image};
        expectRefused(realign, image);
        const QString plan = path(QStringLiteral("delete.json"));
        QFile f(plan);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"operations":[{"op":"delete","number":1}]})");
        f.close();
        expectRefused({QStringLiteral("apply"), QStringLiteral("--yes"),
                       QStringLiteral("--backup-dir"), path(QStringLiteral("backups")), plan,
                       image},
                      image);

        QVERIFY(runTool(QStringLiteral("sgdisk"), {QStringLiteral("-e"), image}).ok());
        QVERIFY2(sgdiskVerify(image).contains("No problems found"),
                 sgdiskVerify(image).constData());
        const CliResult r = runCli(realign);
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        QCOMPARE(SfdiskTable::read(image).partitions.value(0).start, 2048);
    }

private slots:
    void initTestCase()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        setCliPath(buildSetting("PARTWISE_CLI"));
        QVERIFY(m_dir.isValid());
    }

    void missingBackupHeader()
    {
        const QString image = gptDisk(QStringLiteral("backup.img"));
        QVERIFY(!image.isEmpty() && zeroSector(image, kSectors - 1));
        expectRefusedUntilRepaired(image);
    }

    void damagedPrimaryHeader()
    {
        const QString image = gptDisk(QStringLiteral("primary.img"));
        QVERIFY(!image.isEmpty() && zeroSector(image, 1));
        expectRefusedUntilRepaired(image);
    }

    void backupNotAtTheEndOfAGrownImageIsNoDamage()
    {
        const QString image = gptDisk(QStringLiteral("grown.img"));
        QVERIFY(!image.isEmpty() && QFile::resize(image, 48 * kMiB));
        const CliResult r = runCli({QStringLiteral("realign"), QStringLiteral("--all"),
                                    QStringLiteral("--dry-run"), image});
        QVERIFY2(r.exitCode == 0 && !r.err.contains("damaged"), qPrintable(r.describe()));
    }
};

QTEST_GUILESS_MAIN(TestDamagedGpt)
#include "tst_damagedgpt.moc"
