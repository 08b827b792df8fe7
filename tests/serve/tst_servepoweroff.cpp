// Power-off refused for what is no USB drive, on this machine (which has none): a loop device
// and a partition node from the command line (exit 2, naming why), and from the root helper
// serving a user the test creates, which also refuses any parameter but "path" as bad params.
// The loop device is still attached afterwards (losetup). A USB stick really powered off is
// tested in the guest (tests/guest/guestpoweroff.cpp).
#include "buildsetting.h"
#include "clirun.h"
#include "loopdevice.h"
#include "serveclient.h"
#include "testuser.h"
#include "toolrun.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

class TestServePowerOff : public QObject
{
    Q_OBJECT

private slots:
    void whatIsNoUsbDriveIsRefused();

private:
    QTemporaryDir m_dir;
};

void TestServePowerOff::whatIsNoUsbDriveIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(buildSetting("PARTWISE_CLI"));
    const QString image = m_dir.filePath(QStringLiteral("disk.img"));
    QVERIFY(runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("8M"), image})
                .ok());
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                    "label: gpt\nstart=2048, size=8192\n")
                .ok());
    LoopDevice loop(image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(loop.addPartitions());
    const QList<QPair<QString, QString>> cli{
        {loop.path(), QStringLiteral("not a USB drive")},
        {loop.partitionNode(1), QStringLiteral("not a whole disk")},
        {image, QStringLiteral("not a whole disk")}};
    for (const auto &[target, said] : cli) {
        const CliResult r = runCli({QStringLiteral("power-off"), target});
        QVERIFY2(r.exitCode == 2 && QString::fromUtf8(r.err).contains(said),
                 qPrintable(target + QStringLiteral(": ") + r.describe()));
    }

    TestUser user;
    QVERIFY2(user.create(QStringLiteral("pwpoweroff"), QStringLiteral("/bin/sh"),
                         m_dir.filePath(QStringLiteral("home"))),
             qPrintable(user.error()));
    ServeClient helper(user.pkexecEnvironment());
    QVERIFY(helper.started());
    for (const QJsonObject &params :
         {QJsonObject{{"path", loop.path()}, {"partition", 1}},
          QJsonObject{{"path", loop.path()}, {"force", true}}, QJsonObject{{"path", 7}}}) {
        const QJsonObject answer = helper.call(QStringLiteral("power-off"), params);
        QVERIFY2(errorCodeOf(answer) == -32602, qPrintable(describe(answer)));
    }
    const QJsonObject refused = helper.call(QStringLiteral("power-off"), {{"path", loop.path()}});
    QVERIFY2(errorCodeOf(refused) == -32001 && describe(refused).contains("not a USB drive"),
             qPrintable(describe(refused)));
    QVERIFY(helper.closeAndWait());
    user.remove();
    QVERIFY(runTool(QStringLiteral("losetup"), {loop.path()}).ok()); // still attached
}

QTEST_GUILESS_MAIN(TestServePowerOff)
#include "tst_servepoweroff.moc"
