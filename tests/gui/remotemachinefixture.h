// What the remote-machine suites share: a folder of their own, an "ssh" that is a stand-in
// (PARTWISE_SSH: a script, or real OpenSSH to a private sshd), and the steps of showing another
// machine's disk and realigning it in the wizard through its helper.
#pragma once

#include "sshserver.h"

#include <QObject>
#include <QTemporaryDir>

#include <memory>

class MainWindow;
class RealignController;
class RealignPlanPage;
class RealignWizard;
class RemoteMachines;

// A shell script at `path` with `body`, executable.
bool writeScript(const QString &path, const QByteArray &body);

class RemoteMachineFixture : public QObject
{
protected:
    // The settings of a test, and the "remote" partwise-cli on PATH, as where it is installed.
    void setUpFixture();
    // Points PARTWISE_SSH at a script with `body`, which gets ssh's arguments.
    void useSsh(const QByteArray &body);
    // The disk list's row for `devicePath` on `machine`, or -1.
    static int rowOf(MainWindow &window, const QString &devicePath,
                     const QString &machine = QStringLiteral("localhost"));
    // Connects to `destination` (through the pass-through stand-in unless PARTWISE_SSH is
    // already set to a real ssh) and shows `devicePath`.
    RemoteMachines *showRemote(MainWindow &window, const QString &devicePath,
                               const QString &destination = QStringLiteral("root@localhost"));
    // The window's realignment half, its wizard working through the machines' helpers.
    static RealignController *installHelperRealign(MainWindow &window, RemoteMachines *machines);
    // From the wizard's choose page: the plan for `grain`, once it is in (null if it is not).
    static RealignPlanPage *planFor(RealignWizard *wizard, qint64 grain);
    // The pass-through stand-in, or a real ssh to a private sshd for `realSsh`.
    void chooseSsh(bool realSsh, std::unique_ptr<pwtest::SshServer> *server);

    QTemporaryDir m_dir;
    QString m_argsFile;
};
