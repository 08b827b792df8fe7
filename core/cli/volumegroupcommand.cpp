#include "cli/volumegroupcommand.h"

#include "cli/exitstatus.h"
#include "device/partitionnode.h"
#include "layer/volumegroupcontrol.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace partwise {

int runVolumeGroupCommand(const VolumeGroupCommandOptions &options, QTextStream &out,
                          QTextStream &err)
{
    PartitionNode node;
    QString why;
    if (!findPartitionNode(options.target, options.partition, &node, &why)) {
        err << "partwise-cli: " << why << '\n';
        return ExitBadInput;
    }
    const VolumeGroupChange change =
        options.activate ? activateVolumeGroup(node.path) : deactivateVolumeGroup(node.path);
    if (!change.ok) {
        err << "partwise-cli: " << change.error << '\n';
        return change.refused ? ExitBadInput : ExitMisalignedOrFailed;
    }
    if (options.json) {
        out << QJsonDocument(
                   QJsonObject{{QStringLiteral("partition"), node.path},
                               {QStringLiteral("volume_group"), change.volumeGroup},
                               {QStringLiteral("active"), !change.activeVolumes.isEmpty()},
                               {QStringLiteral("active_volumes"),
                                QJsonArray::fromStringList(change.activeVolumes)}})
                   .toJson(QJsonDocument::Compact)
            << '\n';
        return ExitOk;
    }
    out << (options.activate ? "Activated " : "Deactivated ") << change.volumeGroup << " ("
        << node.path << ")";
    if (!change.activeVolumes.isEmpty())
        out << ": " << change.activeVolumes.join(QStringLiteral(", ")) << " active";
    out << '\n';
    return ExitOk;
}

} // namespace partwise
