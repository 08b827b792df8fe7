#include "remotemachinefixture.h"
#include "buildsetting.h"

#include "disklistmodel.h"
#include "guitestsupport.h"
#include "helper/remotemachines.h"
#include "realign/realigncontroller.h"
#include "realign/realignpages.h"
#include "realign/realignwizard.h"
#include "window/mainwindow.h"

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTest>

using namespace guitest;
using namespace pwtest;

bool writeScript(const QString &path, const QByteArray &body)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write("#!/bin/sh\n" + body);
    f.close();
    return f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
}

void RemoteMachineFixture::setUpFixture()
{
    useTestSettings();
    QVERIFY(m_dir.isValid());
    m_argsFile = m_dir.filePath(QStringLiteral("ssh-args"));
    // The "remote" partwise-cli is found on PATH, as on a machine where it is installed.
    const QString cliFolder = QFileInfo(pwtest::buildSetting("PARTWISE_CLI")).absolutePath();
    qputenv("PATH", (cliFolder + QLatin1Char(':') + qEnvironmentVariable("PATH")).toLocal8Bit());
}

void RemoteMachineFixture::useSsh(const QByteArray &body)
{
    const QString script = m_dir.filePath(QStringLiteral("ssh"));
    QFile::remove(script);
    QVERIFY(writeScript(script, body));
    qputenv("PARTWISE_SSH", QFile::encodeName(script));
}

int RemoteMachineFixture::rowOf(MainWindow &window, const QString &devicePath,
                                const QString &machine)
{
    return window.diskList()->rowOf(DiskListModel::machineKey(machine, devicePath));
}

void RemoteMachineFixture::chooseSsh(bool realSsh, std::unique_ptr<SshServer> *server)
{
    if (!realSsh) {
        useSsh("while [ \"$1\" != -- ]; do shift; done; shift 2; exec \"$@\"\n");
        return;
    }
    *server =
        std::make_unique<SshServer>(QFileInfo(pwtest::buildSetting("PARTWISE_CLI")).absolutePath());
    QVERIFY2((*server)->ok(), qPrintable((*server)->error()));
    qputenv("PARTWISE_SSH", QFile::encodeName((*server)->clientProgram()));
}

RemoteMachines *RemoteMachineFixture::showRemote(MainWindow &window, const QString &devicePath,
                                                 const QString &destination)
{
    RemoteMachines *machines = installRemoteMachines(&window);
    QSignalSpy read(machines, &RemoteMachines::machineRead);
    machines->connectTo({destination, false});
    const QString machine = destination.section(QLatin1Char('@'), -1);
    if (!read.wait(120000) || rowOf(window, devicePath, machine) < 0)
        return nullptr;
    window.findChild<QComboBox *>(QStringLiteral("deviceChooser"))
        ->setCurrentIndex(rowOf(window, devicePath, machine));
    return machines;
}

RealignController *RemoteMachineFixture::installHelperRealign(MainWindow &window,
                                                              RemoteMachines *machines)
{
    RealignController *realign = installRealign(&window, window.editing());
    realign->setHelperRealign(machines->realignThroughHelpers());
    return realign;
}

RealignPlanPage *RemoteMachineFixture::planFor(RealignWizard *wizard, qint64 grain)
{
    wizard->choosePage()->setGrainBytes(grain);
    wizard->next();
    RealignPlanPage *plan = wizard->planPage();
    return QTest::qWaitFor([&] { return plan->isReady(); }, 60000) ? plan : nullptr;
}
