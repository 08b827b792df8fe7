#include "helperapplydialog.h"

#include "helperconnection.h"
#include "helperrealignbackend.h"
#include "ops/planfile.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace partwise;

namespace {

PartedMessage::Severity severityFrom(const QString &name)
{
    if (name == QLatin1String("warning"))
        return PartedMessage::Severity::Warning;
    if (name == QLatin1String("error"))
        return PartedMessage::Severity::Error;
    if (name == QLatin1String("fatal"))
        return PartedMessage::Severity::Fatal;
    return PartedMessage::Severity::Information;
}

} // namespace

HelperApplyDialog::HelperApplyDialog(HelperConnection *helper, const QString &devicePath,
                                     const QList<Operation> &operations,
                                     const ApplyOptions &options, QWidget *parent)
    : ApplyDialog(devicePath, operations, options, parent), m_helper(helper)
{
    if (!helper)
        return; // runJob() says the connection is gone
    // Another machine's disks, or this one's through root's helper, say where they are. The
    // user's own helper works on the user's image files: the base title, not the helper's name.
    if (!helper->command().asEffectiveUser)
        setWindowTitle(tr("Apply Pending Operations on %1").arg(helper->machine()));
    connect(helper, &HelperConnection::notification, this, &HelperApplyDialog::onNotification);
}

void HelperApplyDialog::runJob()
{
    if (!m_helper || !m_helper->isReady()) {
        ApplyResult gone;
        gone.error = tr("The connection to the machine is closed; nothing was written.");
        onWorkerDone(gone);
        return;
    }
    const QJsonObject plan = QJsonDocument::fromJson(serializePlan(operations())).object();
    QJsonObject params{{QStringLiteral("path"), target()},
                       {QStringLiteral("plan"), plan},
                       {QStringLiteral("grain"), options().policy.grainBytes},
                       {QStringLiteral("trust_drive"), options().policy.trustDrive},
                       {QStringLiteral("accept_boot_change"), options().acceptBootChange}};
    m_jobId = m_helper->call(QStringLiteral("apply"), params,
                             [this](const HelperReply &reply) { onEnded(reply); });
}

void HelperApplyDialog::requestCancel()
{
    // The helper stops its job as Apply here does: at the next safe point.
    if (m_helper && m_jobId != 0)
        m_helper->call(QStringLiteral("cancel"), {}, [](const HelperReply &) {});
}

void HelperApplyDialog::onNotification(const QString &method, const QJsonObject &params)
{
    if (m_jobId == 0 || params.value(QStringLiteral("id")).toInt() != m_jobId)
        return;
    if (method == QLatin1String("log"))
        appendJobLog(params.value(QStringLiteral("line")).toString());
    else if (method == QLatin1String("progress") && params.contains(QStringLiteral("bytes_total")))
        onBytes(realignProgressFrom(params));
    else if (method == QLatin1String("progress"))
        onProgress(params.value(QStringLiteral("operations_done")).toInt(),
                   params.value(QStringLiteral("operations_total")).toInt());
    else if (method == QLatin1String("question"))
        onQuestion(params);
}

void HelperApplyDialog::onQuestion(const QJsonObject &params)
{
    PartedMessage message;
    message.severity = severityFrom(params.value(QStringLiteral("severity")).toString());
    message.text = params.value(QStringLiteral("text")).toString();
    for (const QJsonValue &choice : params.value(QStringLiteral("choices")).toArray())
        message.choices << choice.toString();
    QString choice = askUser(message);
    if (!message.choices.contains(choice))
        choice = params.value(QStringLiteral("default")).toString(); // changes nothing
    if (m_helper)
        m_helper->call(QStringLiteral("answer"),
                       {{QStringLiteral("question"), params.value(QStringLiteral("question"))},
                        {QStringLiteral("choice"), choice}},
                       [](const HelperReply &) {});
}

void HelperApplyDialog::onEnded(const HelperReply &reply)
{
    ApplyResult result;
    const QJsonObject r = reply.ok() ? reply.result : reply.data;
    result.ok = reply.ok() && r.value(QStringLiteral("ok")).toBool();
    result.completed = r.value(QStringLiteral("completed")).toInt();
    result.resumable = r.value(QStringLiteral("resumable")).toBool();
    result.inUse = r.value(QStringLiteral("in_use")).toBool();
    result.backupFolder = r.value(QStringLiteral("backup_folder")).toString();
    result.journalPath = r.value(QStringLiteral("journal")).toString();
    result.error = r.value(QStringLiteral("error")).toString();
    if (reply.lost())
        result.error =
            tr("%1 The helper there stops at the end of an operation; if one was under way, "
               "its journal lets partwise-cli resume %2 finish it on that machine.")
                .arg(reply.error, target());
    else if (!reply.ok())
        result.error = reply.error;
    onWorkerDone(result);
}
