#include "localhelpercommands.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QSysInfo>

#include <pwd.h>
#include <unistd.h>

namespace {

QString cliProgram()
{
    const QString beside =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("partwise-cli"));
    if (QFileInfo(beside).isExecutable())
        return beside;
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("partwise-cli"));
    return onPath.isEmpty() ? QStringLiteral("partwise-cli") : onPath;
}

QString userName()
{
    const passwd *entry = ::getpwuid(::geteuid());
    return entry ? QString::fromLocal8Bit(entry->pw_name) : QString::number(::geteuid());
}

} // namespace

HelperConnection::Command adminHelperCommand()
{
    HelperConnection::Command command;
    const QString custom = qEnvironmentVariable("PARTWISE_PKEXEC");
    command.program = custom.isEmpty() ? QStringLiteral("pkexec") : custom;
    command.arguments = {cliProgram(), QStringLiteral("serve")};
    command.machine = QSysInfo::machineHostName();
    command.package = QStringLiteral("pkexec");
    return command;
}

HelperConnection::Command userHelperCommand()
{
    HelperConnection::Command command;
    command.program = cliProgram();
    command.arguments = {QStringLiteral("serve")};
    command.asEffectiveUser = true;
    // Its own name among the window's helpers: the root one is this machine's name.
    command.machine = QCoreApplication::translate("HelperConnection", "%1 as %2")
                          .arg(QSysInfo::machineHostName(), userName());
    return command;
}
