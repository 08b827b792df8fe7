// The plan a helper is sent (apply, preview): read by the plan file's own parser, its pastes'
// sources put through the guard, its key files read with the user's rights.

#include "base/userfileread.h"
#include "cli/servesession.h"
#include "ops/planfile.h"

#include <QJsonDocument>
#include <QSet>

namespace partwise {

using namespace jsonrpc;

namespace {

constexpr qint64 kMaxKeyFileBytes = qint64(8) << 20;

} // namespace

bool ServeSession::planOf(const Request &request, QList<Operation> *operations)
{
    QString error;
    const QJsonValue plan = request.params.value(QStringLiteral("plan"));
    if (plan.isObject() && parsePlan(QJsonDocument(plan.toObject()).toJson(), operations, &error))
        return true;
    fail(request, InvalidParams,
         error.isEmpty() ? QStringLiteral("\"plan\" must be a plan object.") : error);
    return false;
}

// A paste reads its source: it passes the guard a target passes, and the jobs use the name the
// guard resolved (root working for a user reads only disks under /dev, never a user's file: the
// user's own helper pastes from images).
bool ServeSession::pasteSourcesAdmitted(const Request &request, QList<Operation> *operations)
{
    QSet<QString> readable; // a plan may paste one partition a thousand times: asked once
    for (Operation &op : *operations) {
        QString why;
        const QString asked = op.sourcePath;
        if (op.type != Operation::Type::Paste)
            continue;
        if (!m_guard.admits(asked, &why, &op.sourcePath)) {
            fail(request, Refused, QStringLiteral("The paste's source is refused: %1").arg(why));
            return false;
        }
        if (!readable.contains(op.sourcePath) &&
            !userMayRead(request, op.sourcePath, QStringLiteral("The paste's source")))
            return false;
        readable.insert(op.sourcePath);
    }
    return true;
}

bool ServeSession::keysReadAsUser(const Request &request, QList<Operation> *operations)
{
    if (!m_guard.servedUser().actsForUser())
        return true; // the helper's user is the user who named the file
    for (Operation &op : *operations) {
        if (op.keyFile.isEmpty())
            continue;
        QString why;
        if (!readFileAsUser(op.keyFile, m_guard.servedUser().uid, kMaxKeyFileBytes, &op.passphrase,
                            &why)) {
            fail(request, Refused,
                 QStringLiteral("The key file %1 cannot be read by you: %2.")
                     .arg(op.keyFile.left(200), why));
            return false;
        }
        op.keyFile.clear(); // cryptsetup gets the bytes the user could read, on its input
    }
    return true;
}

} // namespace partwise
