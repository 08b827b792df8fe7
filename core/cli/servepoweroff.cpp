// The helper's power-off of a USB drive (README, "The helper protocol"): the disk passes the
// ServeTargetGuard like any other, and only the administrator's helper does it. What the drive
// holds is checked as for a job that writes its table: nothing may be in use.
#include "cli/servesession.h"

#include "device/drivepoweroff.h"

#include <QJsonArray>

namespace partwise {

using namespace jsonrpc;

void ServeSession::powerOffMethod(const Request &request)
{
    if (const QString problem = readPowerOffRequest(request.params); !problem.isEmpty())
        return fail(request, InvalidParams, problem);
    QString disk;
    if (!targetOf(request, &disk))
        return;
    if (!m_guard.servedUser().privileged)
        return fail(request, Refused,
                    QStringLiteral("Powering off a drive needs the administrator's helper."));
    const PowerOffResult result = powerOffDrive(disk);
    if (!result.ok)
        return fail(request, Refused, result.error);
    forgetReleasedOn(disk); // what was unmounted there is gone with the drive
    answer(request,
           QJsonObject{{QStringLiteral("device"), disk}, {QStringLiteral("powered_off"), true}});
}

} // namespace partwise
