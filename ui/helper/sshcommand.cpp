#include "sshcommand.h"

#include <QCoreApplication>
#include <QRegularExpression>

QString sshDestinationProblem(const QString &destination)
{
    if (destination.isEmpty())
        return QCoreApplication::translate("SshCommand", "Type the machine as host or user@host.");
    if (destination.startsWith(QLatin1Char('-')))
        return QCoreApplication::translate("SshCommand", "A machine's name cannot start with “-”.");
    // user@ then a host name, an IPv4 address or a bracketed IPv6 one.
    static const QRegularExpression valid(QRegularExpression::anchoredPattern(
        QStringLiteral("([A-Za-z0-9._][A-Za-z0-9._-]*@)?([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+(%[A-Za-"
                       "z0-9_.-]+)?\\])")));
    if (!valid.match(destination).hasMatch())
        return QCoreApplication::translate("SshCommand",
                                           "“%1” is not a machine name ssh can take: use host or "
                                           "user@host, without spaces or other characters.")
            .arg(destination);
    return QString();
}

HelperConnection::Command sshHelperCommand(const SshTarget &target)
{
    HelperConnection::Command command;
    const QString custom = qEnvironmentVariable("PARTWISE_SSH");
    command.program = custom.isEmpty() ? QStringLiteral("ssh") : custom;
    // -T: no terminal, the protocol owns stdin and stdout. The keep-alives notice a dead
    // connection within a minute, so a window never waits on a machine that is gone.
    command.arguments = {QStringLiteral("-T"),
                         QStringLiteral("-o"),
                         QStringLiteral("ServerAliveInterval=15"),
                         QStringLiteral("-o"),
                         QStringLiteral("ServerAliveCountMax=4"),
                         QStringLiteral("--"),
                         target.destination};
    if (target.useSudo)
        command.arguments << QStringLiteral("sudo") << QStringLiteral("-n");
    command.arguments << QStringLiteral("partwise-cli") << QStringLiteral("serve");
    command.overNetwork = true;
    command.machine = target.destination.section(QLatin1Char('@'), -1);
    command.package = QStringLiteral("openssh-client");
    return command;
}
