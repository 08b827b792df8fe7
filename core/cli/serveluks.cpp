// The helper's unlock and lock of a LUKS partition (README, "The helper protocol"). The disk
// passes the ServeTargetGuard, the partition is found through sysfs, the mapping is named by
// Partwise (layer/luksmapping.h), and the passphrase comes only in the request, which is wiped
// once read: it is never in an answer, a log or an error. Root working for a user closes only
// the mappings this helper opened; the others are the system's.
#include "cli/servesession.h"

#include "device/diskwritelock.h"
#include "layer/luksmapping.h"

namespace partwise {

using namespace jsonrpc;

bool ServeSession::luksTargetOf(const Request &request, bool forUnlock, QString *disk,
                                UnlockRequest *asked, PartitionNode *node)
{
    if (const QString problem = readUnlockRequest(request.params, forUnlock, asked);
        !problem.isEmpty()) {
        fail(request, InvalidParams, problem);
        return false;
    }
    if (!targetOf(request, disk))
        return false;
    if (!m_guard.servedUser().privileged) {
        fail(request, Refused,
             QStringLiteral("Unlocking and locking need the administrator's "
                            "helper."));
        return false;
    }
    QString why;
    if (!findPartitionNode(*disk, asked->partition, node, &why)) {
        fail(request, Refused, why + QLatin1Char('.'));
        return false;
    }
    if (DiskWriteLock::heldByAJob(*disk)) {
        fail(request, Refused,
             QStringLiteral("A realignment, Apply or copy is writing %1.").arg(*disk));
        return false;
    }
    return true;
}

void ServeSession::unlockMethod(const Request &request)
{
    QString disk;
    UnlockRequest asked;
    PartitionNode node;
    const bool admitted = luksTargetOf(request, true, &disk, &asked, &node);
    const SecretBytes passphrase(&asked.passphrase); // wiped on every path
    if (!admitted)
        return;
    const LuksUnlockResult unlocked = unlockLuks(node.path, passphrase);
    if (!unlocked.ok)
        return fail(request, Refused, unlocked.error);
    m_unlocked.insert(unlocked.name);
    const FilesystemIdentity inside = filesystemInsideMapping(unlocked.mapperPath);
    answer(request, QJsonObject{{QStringLiteral("device"), node.path},
                                {QStringLiteral("mapping"), unlocked.name},
                                {QStringLiteral("mapper_path"), unlocked.mapperPath},
                                {QStringLiteral("filesystem"), inside.type},
                                {QStringLiteral("label"), inside.label}});
}

void ServeSession::lockMethod(const Request &request)
{
    QString disk;
    UnlockRequest asked;
    PartitionNode node;
    if (!luksTargetOf(request, false, &disk, &asked, &node))
        return;
    const QStringList open = luksMappingsOf(node.path);
    if (m_guard.servedUser().actsForUser() && !open.isEmpty() && !m_unlocked.contains(open.first()))
        return fail(request, Refused,
                    QStringLiteral("/dev/mapper/%1 was not unlocked by this helper: it is the "
                                   "system's to close.")
                        .arg(open.first()));
    QString name, why;
    if (!lockLuks(node.path, &name, &why))
        return fail(request, Refused, why);
    m_unlocked.remove(name);
    answer(request, QJsonObject{{QStringLiteral("device"), node.path},
                                {QStringLiteral("mapping"), name},
                                {QStringLiteral("locked"), true}});
}

} // namespace partwise
