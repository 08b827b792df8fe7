#include "cli/poweroffcommand.h"

#include "cli/exitstatus.h"
#include "device/drivepoweroff.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace partwise {

int runPowerOffCommand(const QString &target, bool json, QTextStream &out, QTextStream &err)
{
    const PowerOffResult result = powerOffDrive(target);
    if (!result.ok) {
        err << "partwise-cli: " << result.error << '\n';
        return result.refused ? ExitBadInput : ExitMisalignedOrFailed;
    }
    if (json)
        out << QJsonDocument(QJsonObject{{QStringLiteral("device"), target},
                                         {QStringLiteral("powered_off"), true}})
                   .toJson(QJsonDocument::Compact)
            << '\n';
    else
        out << "Powered off " << target << ": it can be unplugged now.\n";
    return ExitOk;
}

} // namespace partwise
