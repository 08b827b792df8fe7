#include "helperproberunner.h"

#include "helperconnection.h"

#include <QJsonArray>

using namespace partwise;

namespace {

ProbeReport notMeasured(SectorProbeRun::Outcome outcome, const QString &reason)
{
    ProbeReport report;
    report.run.outcome = outcome;
    report.run.reason = reason;
    return report;
}

} // namespace

HelperProbeRunner::HelperProbeRunner(HelperConnection *helper, const QString &devicePath,
                                     QObject *parent)
    : ProbeRunner(parent), m_helper(helper), m_path(devicePath)
{
    connect(helper, &HelperConnection::notification, this, &HelperProbeRunner::onNotification);
    // A connection replaced or closed under a probe answers nothing more: say so, not hang.
    connect(helper, &QObject::destroyed, this, [this] {
        if (!m_busy)
            return;
        m_busy = false;
        emit finished(notMeasured(SectorProbeRun::Outcome::Failed,
                                  tr("The connection to the helper was closed during the probe.")));
    });
}

HelperProbeRunner::~HelperProbeRunner()
{
    if (m_busy)
        cancel();
}

void HelperProbeRunner::run()
{
    if (m_busy)
        return;
    if (!m_helper || !m_helper->isReady()) {
        emit finished(notMeasured(SectorProbeRun::Outcome::Failed,
                                  tr("The helper that reads this disk is not running.")));
        return;
    }
    m_busy = true;
    QPointer<HelperProbeRunner> self(this);
    m_request = m_helper->call(QStringLiteral("probe"), {{QStringLiteral("path"), m_path}},
                               [self](const HelperReply &reply) {
                                   if (self)
                                       self->onReply(reply);
                               });
}

void HelperProbeRunner::cancel()
{
    if (m_busy && m_helper)
        m_helper->call(QStringLiteral("cancel"), {}, [](const HelperReply &) {});
}

void HelperProbeRunner::onNotification(const QString &method, const QJsonObject &params)
{
    if (m_busy && method == QLatin1String("progress") &&
        params.value(QStringLiteral("id")).toInt() == m_request)
        emit progress(qBound(0.0, params.value(QStringLiteral("fraction")).toDouble(), 1.0));
}

void HelperProbeRunner::onReply(const HelperReply &reply)
{
    m_busy = false;
    // A probe that ran (measured, cancelled or failed) answers with its object; one refused
    // before writing says why under "errors"; a helper that went away answers nothing.
    const QJsonObject answer = reply.ok() ? reply.result : reply.data;
    const QJsonArray devices = answer.value(QStringLiteral("devices")).toArray();
    if (devices.isEmpty()) {
        const QString why = answer.value(QStringLiteral("errors"))
                                .toArray()
                                .first()
                                .toObject()
                                .value(QStringLiteral("error"))
                                .toString();
        emit finished(why.isEmpty() ? notMeasured(SectorProbeRun::Outcome::Failed, reply.error)
                                    : notMeasured(SectorProbeRun::Outcome::Refused, why));
        return;
    }
    ProbeReport report;
    QString problem;
    if (!probeReportFromJson(devices.first().toObject(), &report, &problem))
        report = notMeasured(
            SectorProbeRun::Outcome::Failed,
            tr("The helper sent a probe result this window cannot use: %1").arg(problem));
    emit finished(report);
}
