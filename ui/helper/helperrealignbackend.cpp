#include "helperrealignbackend.h"

#include "helperconnection.h"
#include "helperdiskread.h"
#include "ops/realignjson.h"
#include "report/layoutjson.h" // kMaxRegions

#include <algorithm>

#include <QJsonArray>

using namespace partwise;

HelperRealignBackend::HelperRealignBackend(HelperConnection *helper, const QString &devicePath,
                                           QObject *parent)
    : RealignBackend(parent), m_helper(helper), m_devicePath(devicePath)
{
    connect(helper, &HelperConnection::notification, this, &HelperRealignBackend::onNotification);
    // A connection replaced or closed under a request answers nothing more: end it as lost.
    connect(helper, &QObject::destroyed, this, [this] {
        if (m_busy)
            onConnectionGone();
    });
}

void HelperRealignBackend::onConnectionGone()
{
    const bool working = m_job != 0 || m_resuming;
    m_busy = false;
    m_job = 0;
    m_resuming = false;
    const QString why = lostSentence(tr("the connection was closed"));
    if (!working) {
        PreparedRealign failed;
        failed.error = why;
        emit prepared(failed, {});
        return;
    }
    RealignResult lost;
    lost.resumable = true; // the journal there lets it be finished
    lost.error = why;
    emit finished(lost, m_before, m_before, false);
}

HelperRealignBackend::~HelperRealignBackend()
{
    if (m_job != 0)
        cancel();
}

QJsonObject HelperRealignBackend::planParams(const RealignOptions &options,
                                             const RealignRequest &request) const
{
    QJsonArray numbers;
    for (int number : request.partitions)
        numbers.append(number);
    QJsonObject params{{QStringLiteral("path"), m_devicePath},
                       {QStringLiteral("partitions"), numbers},
                       {QStringLiteral("all"), request.includeSectorAligned},
                       {QStringLiteral("grain"), options.policy.grainBytes},
                       {QStringLiteral("trust_drive"), options.policy.trustDrive},
                       {QStringLiteral("verify"), options.verify}};
    if (options.forcedSectorSize > 0)
        params.insert(QStringLiteral("sector_size"), options.forcedSectorSize);
    if (request.prefer != RealignPreference::Cheapest)
        params.insert(QStringLiteral("prefer"), request.prefer == RealignPreference::Shrink
                                                    ? QStringLiteral("shrink")
                                                    : QStringLiteral("move"));
    QJsonObject ways;
    for (auto it = request.ways.cbegin(); it != request.ways.cend(); ++it)
        ways.insert(QString::number(it.key()), realignWayName(it.value()));
    if (!ways.isEmpty())
        params.insert(QStringLiteral("ways"), ways);
    return params;
}

bool HelperRealignBackend::startCall(const QString &method, const QJsonObject &params,
                                     const std::function<void(const HelperReply &)> &done)
{
    if (!m_helper || !m_helper->isReady())
        return false;
    m_busy = true;
    QPointer<HelperRealignBackend> self(this);
    const int id = m_helper->call(method, params, [self, done](const HelperReply &reply) {
        if (self)
            done(reply);
    });
    if (method != QLatin1String("realign-plan"))
        m_job = id;
    else
        m_planCall = id;
    return true;
}

void HelperRealignBackend::prepare(const QString &, const RealignOptions &options,
                                   const RealignRequest &request)
{
    m_sectorSize = options.forcedSectorSize;
    if (!startCall(QStringLiteral("realign-plan"), planParams(options, request),
                   [this](const HelperReply &reply) { onPlan(reply); })) {
        PreparedRealign failed;
        failed.error = lostSentence(tr("the helper is not running"));
        emit prepared(failed, {});
    }
}

void HelperRealignBackend::onPlan(const HelperReply &reply)
{
    m_busy = false;
    PreparedRealign plan;
    QStringList busy;
    if (!reply.ok()) {
        plan.error = reply.lost() ? lostSentence(reply.error) : reply.error;
    } else if (QString problem; !preparedRealignFromJson(
                   reply.result.value(QStringLiteral("prepared")).toObject(), &plan, &problem)) {
        plan = PreparedRealign();
        plan.error = tr("The helper sent a plan this window cannot use: %1").arg(problem);
    } else if (!reply.result.contains(QStringLiteral("prepared"))) {
        plan.error = tr("The helper on %1 is older than this window: install the same version "
                        "of Partwise there.")
                         .arg(m_helper ? m_helper->machine() : QString());
    } else {
        plan.layout.device.readByHelper = true; // its path is the helper's to open
        for (const QJsonValue &reason : reply.result.value(QStringLiteral("busy")).toArray())
            busy << reason.toString();
        // An interrupted run there must be finished first, as for a disk of this process.
        const QString journal =
            reply.result.value(QStringLiteral("interrupted_journal")).toString();
        if (!journal.isEmpty())
            busy << journal;
        setInterruptedJournal(journal);
    }
    emit prepared(plan, busy);
}

void HelperRealignBackend::run(const QString &, const PreparedRealign &prepared,
                               const RealignOptions &options)
{
    m_cancelled = false;
    QJsonObject params = planParams(options, prepared.request);
    QJsonArray expect;
    for (const PartitionMove &move : prepared.plan.moves)
        expect.append(QJsonObject{{QStringLiteral("number"), move.number},
                                  {QStringLiteral("new_start"), move.newStart},
                                  {QStringLiteral("new_end"), move.newEnd}});
    params.insert(QStringLiteral("expect"), expect);
    // The plan page starts a plan that breaks a loader only once the person accepted it.
    params.insert(QStringLiteral("accept_boot_change"), !prepared.bootBreaks.isEmpty());
    const DiskLayout before = prepared.layout;
    m_before = before;
    if (!startCall(QStringLiteral("realign"), params,
                   [this, before](const HelperReply &reply) { onWorkEnded(reply, before); })) {
        RealignResult failed;
        failed.error = lostSentence(tr("the helper is not running"));
        emit finished(failed, before, before, false);
    }
}

void HelperRealignBackend::resume(const QString &, const QString &, qint64 forcedSectorSize)
{
    m_cancelled = false;
    m_sectorSize = forcedSectorSize;
    m_busy = true;
    m_resuming = true;
    // The disk as the interrupted run left it, then the work; the helper finds the journal.
    readDisk([this](const DiskLayout &before, bool) {
        m_before = before;
        m_resuming = false;
        RealignResult stopped;
        stopped.resumable = true; // nothing ran: the journal there is as it was
        if (m_cancelled) {
            stopped.error = tr("Cancelled before the work started.");
        } else if (!startCall(
                       QStringLiteral("resume"), {{QStringLiteral("path"), m_devicePath}},
                       [this, before](const HelperReply &reply) { onWorkEnded(reply, before); })) {
            stopped.error = lostSentence(tr("the helper is not running"));
        } else {
            return;
        }
        m_busy = false;
        emit finished(stopped, before, before, false);
    });
}

void HelperRealignBackend::cancel()
{
    if (m_resuming)
        m_cancelled = true; // the resume is not sent, once the disk is read
    if (m_job == 0 || !m_helper)
        return;
    m_cancelled = true;
    m_helper->call(QStringLiteral("cancel"), {}, [](const HelperReply &) {});
}

bool HelperRealignBackend::loadJournal(const QString &, WriteJournal *) const
{
    return false; // it is on the helper's machine, and only the helper reads it
}

RealignProgress realignProgressFrom(const QJsonObject &params)
{
    // From another machine, maybe: every number bounded before it becomes an int or a row.
    const auto number = [&params](const char *key, double most) {
        return std::clamp(params.value(QLatin1String(key)).toDouble(), 0.0, most);
    };
    constexpr double kMostMoves = kMaxRegions, kMostBytes = 1e18;
    RealignProgress p;
    p.moveIndex = int(number("move_index", kMostMoves));
    p.moveCount = int(number("move_count", kMostMoves));
    p.partition = int(number("partition", 256));
    p.step = params.value(QStringLiteral("step")).toString();
    p.stepKind = p.step == QLatin1String("verifying") ? RealignProgress::Step::Verifying
                                                      : RealignProgress::Step::Moving;
    p.bytesDone = quint64(number("bytes_done", kMostBytes));
    p.bytesTotal = quint64(number("bytes_total", kMostBytes));
    p.bytesPerSecond = number("bytes_per_second", kMostBytes);
    p.secondsLeft = number("seconds_left", kMostBytes);
    return p;
}

void HelperRealignBackend::onNotification(const QString &method, const QJsonObject &params)
{
    if (method == QLatin1String("map-progress") && m_planCall != 0 &&
        params.value(QStringLiteral("id")).toInt() == m_planCall) {
        emit mapProgress(
            int(std::clamp(params.value(QStringLiteral("partition")).toDouble(), 0.0, 256.0)),
            std::clamp(params.value(QStringLiteral("fraction")).toDouble(), 0.0, 1.0));
        return;
    }
    if (m_job == 0 || params.value(QStringLiteral("id")).toInt() != m_job)
        return;
    if (method == QLatin1String("log")) {
        emit logLine(params.value(QStringLiteral("line")).toString());
        return;
    }
    if (method != QLatin1String("progress"))
        return;
    emit progress(realignProgressFrom(params));
}

RealignResult HelperRealignBackend::resultOf(const HelperReply &reply) const
{
    RealignResult result;
    if (reply.lost()) {
        // The mover journals every chunk before the next: what was cut off is finished with
        // resume once a helper reaches the disk again.
        result.resumable = true;
        result.error = lostSentence(reply.error);
        return result;
    }
    // A job that ran answers with its result object, as the error's data when it failed.
    QString problem;
    if (!realignResultFromJson(reply.ok() ? reply.result : reply.data, &result, &problem)) {
        result = RealignResult();
        result.error = reply.ok()
                           ? tr("The helper sent a result this window cannot use: %1").arg(problem)
                           : reply.error;
    }
    return result;
}

void HelperRealignBackend::onWorkEnded(const HelperReply &reply, const DiskLayout &before)
{
    m_job = 0;
    const RealignResult result = resultOf(reply);
    readDisk([this, result, before](const DiskLayout &after, bool ok) {
        m_busy = false;
        emit finished(result, before, after, ok);
    });
}

void HelperRealignBackend::readDisk(const std::function<void(const DiskLayout &, bool)> &done)
{
    if (!m_helper || !m_helper->isReady()) {
        done({}, false);
        return;
    }
    QPointer<HelperRealignBackend> self(this);
    m_helper->call(QStringLiteral("read-disk"), readDiskParams(m_devicePath, m_sectorSize),
                   [self, done](const HelperReply &reply) {
                       if (!self)
                           return;
                       const DiskReadResult read = diskReadFromReply(reply);
                       done(read.layout, read.ok);
                   });
}

QString HelperRealignBackend::lostSentence(const QString &why) const
{
    const QString machine = m_helper ? m_helper->machine() : QString();
    return tr("The connection to the helper was lost (%1). A move under way stops where its "
              "journal on %2 lets it be finished: connect again and the disk offers to finish "
              "it (Resume), or run “partwise-cli resume %3” there.")
        .arg(why, machine, m_devicePath);
}
