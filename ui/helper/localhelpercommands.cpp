#include "adminhelpercommand.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QSysInfo>

HelperConnection::Command adminHelperCommand()
{
    HelperConnection::Command command;
    const QString custom = qEnvironmentVariable("PARTWISE_PKEXEC");
    command.program = custom.isEmpty() ? QStringLiteral("pkexec") : custom;
    QString cli =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("partwise-cli"));
    if (!QFileInfo(cli).isExecutable())
        cli = QStandardPaths::findExecutable(QStringLiteral("partwise-cli"));
    command.arguments = {cli.isEmpty() ? QStringLiteral("partwise-cli") : cli,
                         QStringLiteral("serve")};
    command.machine = QSysInfo::machineHostName();
    command.package = QStringLiteral("pkexec");
    return command;
}
