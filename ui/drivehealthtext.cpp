#include "drivehealthtext.h"

#include "device/drivehealth.h"

#include <QCoreApplication>

using namespace partwise;

QString riskyDriveSentence(const DriveHealth &health)
{
    const QString state =
        health.status == DriveHealthStatus::Failing
            ? QCoreApplication::translate("DriveHealthText", "is failing")
            : QCoreApplication::translate("DriveHealthText", "shows signs of failing");
    //: %1 is "is failing" or "shows signs of failing"; %2 lists what SMART found.
    return QCoreApplication::translate("DriveHealthText",
                                       "This drive %1 (%2): copy your data off first; moving data "
                                       "on a failing drive risks losing it.")
        .arg(state, health.findings.join(QStringLiteral(", ")));
}
