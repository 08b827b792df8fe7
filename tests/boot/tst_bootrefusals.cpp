// `realign` refusing, with nothing written, a plan that breaks a boot loader until
// --accept-boot-change, and `apply` refusing a Resize that moves such a partition the same way
// (GRUB's boot.img in an ext4's boot block finds core.img by absolute sectors). No root.

#include "buildsetting.h"
#include "serveclient.h"

#include "clirun.h"
#include "filebytes.h"
#include "filechecksum.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

class TestBootRefusals : public QObject
{
    Q_OBJECT

private slots:
    void brokenLoaderNeedsAcceptance();
    void applyRefusesABrokenLoaderUntilAccepted();
};

// GRUB's boot.img in the boot block of an ext4 at sector 63 (grub-install --force onto a
// partition) finds core.img by absolute sectors, which a move does not rewrite: the plan says
// so, and realign refuses until the person accepts it, then moves.
namespace {

// An ext4 at sector 63 of an MBR disk with GRUB's boot.img in its boot block, as
// `grub-install --force` onto a partition leaves it.
QString grubInPartitionImage(const QTemporaryDir &dir, QString *error)
{
    const QString image = dir.filePath(QStringLiteral("grub-in-partition.img"));
    if (!pwtest::SfdiskTable::writeImage(image, 32 << 20,
                                         "label: dos\nstart=63, size=40000, type=83\n", error))
        return {};
    const pwtest::ToolResult mkfs =
        pwtest::runTool(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), QStringLiteral("-E"),
                                                      QStringLiteral("offset=%1").arg(63 * 512),
                                                      image, QStringLiteral("%1k").arg(40000 / 2)});
    const QByteArray boot = pwtest::readWholeFile(QStringLiteral("/usr/lib/grub/i386-pc/boot.img"));
    QFile f(image);
    if (!mkfs.ok() || boot.size() != 512 || !f.open(QIODevice::ReadWrite) || !f.seek(63 * 512) ||
        f.write(boot) != 512) { // the ext4's boot block, before its superblock
        *error =
            mkfs.ok() ? QStringLiteral("cannot put boot.img into %1").arg(image) : mkfs.describe();
        return {};
    }
    return image;
}

} // namespace

void TestBootRefusals::brokenLoaderNeedsAcceptance()
{
    pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    const QString image = grubInPartitionImage(dir, &error);
    QVERIFY2(!image.isEmpty(), qPrintable(error));
    const QByteArray before = pwtest::fileSha256(image);
    const QStringList realign{QStringLiteral("realign"), QStringLiteral("--yes"),
                              QStringLiteral("--backup-dir"), dir.filePath(QStringLiteral("b"))};
    const pwtest::CliResult refused = pwtest::runCli(realign + QStringList{image});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.out.contains("boot BREAKS: partition 1") &&
                 refused.out.contains("grub-install"),
             refused.out.constData());
    QVERIFY2(refused.err.contains("--accept-boot-change"), refused.err.constData());
    QCOMPARE(pwtest::fileSha256(image), before);
    const pwtest::CliResult accepted =
        pwtest::runCli(realign + QStringList{QStringLiteral("--accept-boot-change"), image});
    QVERIFY2(accepted.exitCode == 0, qPrintable(accepted.describe()));
    const pwtest::SfdiskTable after = pwtest::SfdiskTable::read(image);
    QVERIFY(after.ok && after.find(1));
    QCOMPARE(after.find(1)->start, 2048);
}

// The same loader moved by an Apply: a Resize that gives the ext4 a new start is named in the
// plan ("boot BREAKS") and refused with nothing written until --accept-boot-change, then runs.
void TestBootRefusals::applyRefusesABrokenLoaderUntilAccepted()
{
    pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    const QString image = grubInPartitionImage(dir, &error);
    QVERIFY2(!image.isEmpty(), qPrintable(error));
    const QString plan = dir.filePath(QStringLiteral("move.json"));
    {
        QFile f(plan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("{\"operations\":[{\"op\":\"resize\",\"number\":1,"
                               "\"start\":1048576,\"size\":%1}]}")
                    .arg(40000 * 512)
                    .toUtf8());
    }
    const QByteArray before = pwtest::fileSha256(image);
    const QStringList apply{QStringLiteral("apply"), QStringLiteral("--yes"),
                            QStringLiteral("--backup-dir"), dir.filePath(QStringLiteral("b"))};
    const pwtest::CliResult refused = pwtest::runCli(apply + QStringList{plan, image});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.out.contains("boot BREAKS: partition 1") &&
                 refused.out.contains("grub-install --force"),
             refused.out.constData());
    QVERIFY2(refused.err.contains("--accept-boot-change"), refused.err.constData());
    QCOMPARE(pwtest::fileSha256(image), before);
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("b")))); // not even a backup

    // The helper's apply the same way, until the window sends accept_boot_change.
    pwtest::ServeClient helper;
    QVERIFY(helper.started());
    QFile planFile(plan);
    QVERIFY(planFile.open(QIODevice::ReadOnly));
    const QJsonObject planObject = QJsonDocument::fromJson(planFile.readAll()).object();
    // A job that fails answers with an error naming why.
    const QJsonObject notAccepted =
        helper.call(QStringLiteral("apply"),
                    {{QStringLiteral("path"), image}, {QStringLiteral("plan"), planObject}});
    QVERIFY2(pwtest::errorCodeOf(notAccepted) != 0 &&
                 pwtest::describe(notAccepted).contains(QLatin1String("not accepted")),
             qPrintable(pwtest::describe(notAccepted)));
    QCOMPARE(pwtest::errorCodeOf(
                 helper.call(QStringLiteral("apply"), {{QStringLiteral("path"), image},
                                                       {QStringLiteral("plan"), planObject},
                                                       {QStringLiteral("accept_boot_change"), 1}})),
             -32602);
    QCOMPARE(pwtest::fileSha256(image), before);

    const pwtest::CliResult accepted =
        pwtest::runCli(apply + QStringList{QStringLiteral("--accept-boot-change"), plan, image});
    QVERIFY2(accepted.exitCode == 0, qPrintable(accepted.describe()));
    const pwtest::SfdiskTable after = pwtest::SfdiskTable::read(image);
    QVERIFY(after.ok && after.find(1));
    QCOMPARE(after.find(1)->start, 2048);
    QVERIFY(after.find(1)->size >= 40000); // its end on the grain too
}

QTEST_GUILESS_MAIN(TestBootRefusals)
#include "tst_bootrefusals.moc"
