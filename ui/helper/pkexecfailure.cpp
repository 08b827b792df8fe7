#include "pkexecfailure.h"

#include <QCoreApplication>

QString pkexecFailure(int exitCode, const QString &lastWords)
{
    if (exitCode == 126)
        return QCoreApplication::translate(
            "PkexecFailure",
            "The administrator helper was not started: the password question was closed.");
    if (exitCode != 127)
        return QString();
    const QString start = QCoreApplication::translate(
        "PkexecFailure", "The administrator helper cannot be started: ");
    // "Error getting authority: Error initializing authority: Could not connect: ..."
    if (lastWords.contains(QLatin1String("authority"), Qt::CaseInsensitive))
        return start + QCoreApplication::translate(
                           "PkexecFailure",
                           "polkit, which pkexec asks for permission, is not installed or not "
                           "running on this computer. Install the Debian packages polkitd and "
                           "pkexec (a desktop also needs a polkit agent to ask for the "
                           "password), or run partwise-cli as root instead.");
    if (lastWords.contains(QLatin1String("authentication agent"), Qt::CaseInsensitive))
        return start + QCoreApplication::translate(
                           "PkexecFailure",
                           "no polkit agent is running to ask for the password. A desktop "
                           "session starts one; in a bare X session start one first (for "
                           "example lxpolkit, from the Debian package lxpolkit).");
    if (lastWords.contains(QLatin1String("Not authorized"), Qt::CaseInsensitive))
        return start + QCoreApplication::translate(
                           "PkexecFailure",
                           "polkit did not allow it (the password was wrong, or this user may "
                           "not administer this computer).");
    return start + QCoreApplication::translate(
                       "PkexecFailure",
                       "pkexec could not get permission from polkit (the Debian packages "
                       "polkitd and pkexec).");
}
