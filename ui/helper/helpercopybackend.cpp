#include "helpercopybackend.h"

#include "helperconnection.h"
#include "ops/copyplanjson.h"

#include <QJsonArray>

using namespace partwise;

HelperCopyBackend::HelperCopyBackend(HelperConnection *helper, QObject *parent)
    : CopyBackend(parent), m_helper(helper)
{
    connect(helper, &HelperConnection::notification, this, &HelperCopyBackend::onNotification);
    // A connection replaced or closed under a request answers nothing more: end it as lost.
    connect(helper, &QObject::destroyed, this, [this] {
        if (!m_busy)
            return;
        m_busy = false;
        const QString why = lostSentence(tr("the connection was closed"));
        if (m_job == 0)
            return emit planned(CopyPlan(), why, QString());
        m_job = 0;
        CopyResult lost;
        lost.resumable = true; // the journal there lets it be finished
        lost.error = why;
        emit finished(lost);
    });
}

HelperCopyBackend::~HelperCopyBackend()
{
    if (m_job != 0)
        cancel();
}

QJsonObject HelperCopyBackend::params(const CopyRequest &request)
{
    const CopyOptions &o = request.options;
    QJsonObject params{{QStringLiteral("source"), request.source},
                       {QStringLiteral("target"), request.target},
                       {QStringLiteral("grain"), o.policy.grainBytes},
                       {QStringLiteral("trust_drive"), o.policy.trustDrive},
                       {QStringLiteral("grow"), copyGrowthName(o.growth)},
                       {QStringLiteral("new_ids"), o.newIds},
                       {QStringLiteral("verify"), o.verify},
                       {QStringLiteral("discard"), o.discard}};
    if (!o.tableType.isEmpty())
        params.insert(QStringLiteral("table"), o.tableType);
    if (o.forcedSourceSectorSize > 0)
        params.insert(QStringLiteral("sector_size"), o.forcedSourceSectorSize);
    return params;
}

bool HelperCopyBackend::startCall(const QString &method, const QJsonObject &params,
                                  const std::function<void(const HelperReply &)> &done)
{
    if (!m_helper || !m_helper->isReady())
        return false;
    m_busy = true;
    QPointer<HelperCopyBackend> self(this);
    const int id = m_helper->call(method, params, [self, done](const HelperReply &reply) {
        if (!self)
            return;
        self->m_busy = false;
        done(reply);
    });
    if (method == QLatin1String("copy") || method == QLatin1String("resume"))
        m_job = id;
    return true;
}

void HelperCopyBackend::createImage(const QString &path, qint64 bytes)
{
    const bool sent =
        startCall(QStringLiteral("create-image"),
                  {{QStringLiteral("path"), path}, {QStringLiteral("size"), bytes}},
                  [this](const HelperReply &reply) { emit imageCreated(reply.ok(), reply.error); });
    if (!sent)
        emit imageCreated(false, lostSentence(tr("the helper is not running")));
}

void HelperCopyBackend::plan(const CopyRequest &request)
{
    const bool sent =
        startCall(QStringLiteral("copy-plan"), params(request), [this](const HelperReply &reply) {
            CopyPlan plan;
            QString problem;
            if (!reply.ok())
                return emit planned(plan, reply.lost() ? lostSentence(reply.error) : reply.error,
                                    QString());
            if (!copyPlanFromJson(reply.result.value(QStringLiteral("plan")).toObject(), &plan,
                                  &problem))
                return emit planned(
                    CopyPlan(),
                    tr("The helper sent a plan this window cannot use: %1").arg(problem),
                    QString());
            emit planned(plan, QString(),
                         reply.result.value(QStringLiteral("interrupted_journal")).toString());
        });
    if (!sent)
        emit planned(CopyPlan(), lostSentence(tr("the helper is not running")), QString());
}

void HelperCopyBackend::run(const CopyRequest &request, const CopyPlan &shown,
                            bool acceptBootChange)
{
    m_cancelled = false;
    m_target = request.target;
    QJsonObject p = params(request);
    p.insert(QStringLiteral("expect"), copyExpectJson(shown));
    p.insert(QStringLiteral("accept_boot_change"), acceptBootChange);
    // The new ids the plan page showed are the ones written.
    if (const CopyIds ids = copyIdsOf(shown); request.options.newIds && !ids.isEmpty())
        p.insert(QStringLiteral("ids"), copyIdsToJson(ids));
    if (!startCall(QStringLiteral("copy"), p,
                   [this](const HelperReply &reply) { onWorkEnded(reply); })) {
        CopyResult failed;
        failed.error = lostSentence(tr("the helper is not running"));
        emit finished(failed);
    }
}

void HelperCopyBackend::resume(const QString &target)
{
    m_cancelled = false;
    m_target = target;
    if (!startCall(QStringLiteral("resume"), {{QStringLiteral("path"), target}},
                   [this](const HelperReply &reply) { onWorkEnded(reply); })) {
        CopyResult failed;
        failed.resumable = true;
        failed.error = lostSentence(tr("the helper is not running"));
        emit finished(failed);
    }
}

void HelperCopyBackend::cancel()
{
    if (m_job == 0 || !m_helper)
        return;
    m_cancelled = true;
    m_helper->call(QStringLiteral("cancel"), {}, [](const HelperReply &) {});
}

void HelperCopyBackend::onNotification(const QString &method, const QJsonObject &params)
{
    if (m_job == 0 || params.value(QStringLiteral("id")).toInt() != m_job)
        return;
    if (method == QLatin1String("log"))
        emit logLine(params.value(QStringLiteral("line")).toString().left(4096));
    else if (method == QLatin1String("progress"))
        emit progress(copyProgressFromJson(params));
}

void HelperCopyBackend::onWorkEnded(const HelperReply &reply)
{
    m_job = 0;
    CopyResult result;
    if (reply.lost()) {
        // The copy journals its work: what was cut off is finished with resume.
        result.resumable = true;
        result.error = lostSentence(reply.error);
    } else if (QString problem;
               !copyResultFromJson(reply.ok() ? reply.result : reply.data, &result, &problem)) {
        result = CopyResult();
        result.error = reply.ok()
                           ? tr("The helper sent a result this window cannot use: %1").arg(problem)
                           : reply.error;
    }
    emit finished(result);
}

QString HelperCopyBackend::lostSentence(const QString &why) const
{
    const QString machine = m_helper ? m_helper->machine() : QString();
    return tr("The connection to the helper was lost (%1). A copy under way stops where its "
              "journal on %2 lets it be finished: run “partwise-cli resume %3” there.")
        .arg(why, machine, m_target);
}
