// The helper's vg-activate and vg-deactivate (README, "The helper protocol"). The disk passes the
// ServeTargetGuard, the partition is found through sysfs, and the group is the one pvs reads from
// it (layer/volumegroupcontrol.h): no name in a request reaches vgchange. Root working for a user
// deactivates only the groups this helper activated from fully inactive; the others are the
// system's.
#include "cli/servesession.h"

#include "device/diskwritelock.h"
#include "layer/volumegroupcontrol.h"

#include <QJsonArray>

namespace partwise {

using namespace jsonrpc;

bool ServeSession::volumeGroupTargetOf(const Request &request, PartitionNode *node)
{
    int partition = 0;
    if (const QString problem = readVolumeGroupRequest(request.params, &partition);
        !problem.isEmpty()) {
        fail(request, InvalidParams, problem);
        return false;
    }
    QString disk;
    if (!targetOf(request, &disk))
        return false;
    if (!m_guard.servedUser().privileged) {
        fail(request, Refused,
             QStringLiteral("Activating and deactivating volume groups need the "
                            "administrator's helper."));
        return false;
    }
    QString why;
    if (!findPartitionNode(disk, partition, node, &why)) {
        fail(request, Refused, why + QLatin1Char('.'));
        return false;
    }
    if (DiskWriteLock::heldByAJob(disk)) {
        fail(request, Refused,
             QStringLiteral("A realignment, Apply or copy is writing %1.").arg(disk));
        return false;
    }
    return true;
}

void ServeSession::volumeGroupMethod(const Request &request)
{
    PartitionNode node;
    if (!volumeGroupTargetOf(request, &node))
        return;
    const bool activate = request.method == QLatin1String("vg-activate");
    // What was active before: a group any of whose volumes were (the system's, or one whose name
    // and UUID a user's stick copies) is never recorded as this helper's, so that a no-op
    // activation cannot make the system's group the user's to deactivate.
    VolumeGroupChange before;
    if (m_guard.servedUser().actsForUser()) {
        before = volumeGroupOf(node.path);
        if (!before.ok)
            return fail(request, Refused, before.error);
        if (!activate && !before.activeVolumes.isEmpty() &&
            !m_activatedGroups.contains(before.uuid))
            return fail(request, Refused,
                        QStringLiteral("The volume group %1 was not activated by this helper: it "
                                       "is the system's to deactivate.")
                            .arg(before.volumeGroup));
    }
    const VolumeGroupChange change =
        activate ? activateVolumeGroup(node.path) : deactivateVolumeGroup(node.path);
    if (!change.ok)
        return fail(request, Refused, change.error);
    if (!activate)
        m_activatedGroups.remove(change.uuid);
    else if (before.activeVolumes.isEmpty())
        m_activatedGroups.insert(change.uuid);
    answer(request, QJsonObject{{QStringLiteral("device"), node.path},
                                {QStringLiteral("volume_group"), change.volumeGroup},
                                {QStringLiteral("active"), !change.activeVolumes.isEmpty()},
                                {QStringLiteral("active_volumes"),
                                 QJsonArray::fromStringList(change.activeVolumes)}});
}

} // namespace partwise
