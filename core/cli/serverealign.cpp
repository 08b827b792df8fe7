// The realignment through the helper: its plan (with map progress), the run, and resume of a
// stopped realignment, Apply or copy.
#include "cli/servesession.h"

#include "base/progressthrottle.h"
#include "base/userfileread.h"
#include "boot/bootinventory.h"
#include "cli/exitstatus.h"
#include "cli/probecommand.h"
#include "cli/serveparams.h"
#include "cli/serveresults.h"
#include "device/diskenumerator.h"
#include "fs/filesystemminimum.h"
#include "fs/sessionabilities.h"
#include "layer/layerreader.h"
#include "ops/applyrunner.h"
#include "ops/copyplanjson.h"
#include "ops/copyrunner.h"
#include "ops/jobresume.h"
#include "ops/operationpreview.h"
#include "ops/partitionaccess.h"
#include "ops/pastesource.h"
#include "ops/planfile.h"
#include "ops/realignjson.h"
#include "ops/realignplantext.h"
#include "ops/realignrunner.h"
#include "ops/writejournal.h"
#include "ops/writepreflight.h"
#include "report/checkreport.h"
#include "report/layoutjson.h"
#include "table/diskreader.h"
#include "version.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTextStream>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace partwise {

using namespace jsonrpc;

namespace {

// What stops the plan's run, as the window's own realignment asks before it runs: what holds a
// partition it moves ("/dev/sdb2 is mounted on /home") first, then whatever else on the disk is
// in use (the run writes the table).
QStringList busyMoves(const QString &path, const RealignPlan &plan)
{
    if (plan.moves.isEmpty())
        return {};
    QList<int> numbers;
    for (const PartitionMove &move : plan.moves)
        numbers << move.number;
    return busyForWrite(path, numbers, true);
}

QJsonObject failedRealign(const QString &error)
{
    RealignResult result;
    result.error = error;
    return realignResultToJson(result);
}

} // namespace

bool ServeSession::realignTargetOf(const Request &request, QString *path, RealignOptions *options,
                                   RealignRequest *asked)
{
    if (!targetOf(request, path))
        return false;
    const QString problem = readRealignParams(request.params, options, asked);
    if (!problem.isEmpty())
        fail(request, InvalidParams, problem);
    return problem.isEmpty();
}

void ServeSession::realignPlan(const Request &request)
{
    QString path;
    RealignOptions options;
    RealignRequest asked;
    if (!realignTargetOf(request, &path, &options, &asked))
        return;
    // A large filesystem's map takes seconds: the window shows how far.
    auto throttle = std::make_shared<ProgressThrottle>(kProgressMilliseconds);
    options.mapProgress = [this, id = request.id, throttle](int partition, const QString &,
                                                            double fraction) {
        if (throttle->due(fraction >= 1.0))
            notify(QStringLiteral("map-progress"), {{QStringLiteral("id"), id},
                                                    {QStringLiteral("partition"), partition},
                                                    {QStringLiteral("fraction"), fraction}});
    };
    const PreparedRealign prepared = prepareRealignment(path, options, asked);
    if (!prepared.ok)
        return fail(request, Failed, prepared.error);
    QJsonObject plan = planJson(prepared, path);
    plan[QStringLiteral("prepared")] = preparedRealignToJson(prepared);
    plan[QStringLiteral("busy")] = QJsonArray::fromStringList(busyMoves(path, prepared.plan));
    // As read-disk says it: a stopped run of this disk is finished before another starts.
    if (const QString journal = interruptedWriteJournal(path, options.journalPathFor(path));
        !journal.isEmpty())
        plan[QStringLiteral("interrupted_journal")] = journal;
    answer(request, plan);
}

RealignCallbacks ServeSession::jobCallbacks(const QJsonValue &id)
{
    RealignCallbacks callbacks;
    callbacks.log = [this, id](const QString &line) {
        notify(QStringLiteral("log"), {{QStringLiteral("id"), id}, {QStringLiteral("line"), line}});
    };
    auto throttle = std::make_shared<ProgressThrottle>(kProgressMilliseconds);
    callbacks.progress = [this, id, throttle](const RealignProgress &p) {
        if (!throttle->due(p.bytesDone >= p.bytesTotal))
            return;
        notify(QStringLiteral("progress"),
               {{QStringLiteral("id"), id},
                {QStringLiteral("partition"), p.partition},
                {QStringLiteral("step"), stepName(p.stepKind)},
                {QStringLiteral("move_index"), p.moveIndex},
                {QStringLiteral("move_count"), p.moveCount},
                {QStringLiteral("bytes_done"), qint64(p.bytesDone)},
                {QStringLiteral("bytes_total"), qint64(p.bytesTotal)},
                {QStringLiteral("bytes_per_second"), qint64(p.bytesPerSecond)},
                {QStringLiteral("seconds_left"), qint64(p.secondsLeft)}});
    };
    callbacks.cancel = &m_cancel;
    return callbacks;
}

void ServeSession::realign(const Request &request)
{
    QString path;
    RealignOptions options;
    RealignRequest asked;
    if (!realignTargetOf(request, &path, &options, &asked))
        return;
    std::optional<QList<PartitionMove>> expect;
    if (const QString problem = readExpect(request.params, &expect); !problem.isEmpty())
        return fail(request, InvalidParams, problem);
    const QJsonValue accept = request.params.value(QStringLiteral("accept_boot_change"));
    if (!accept.isUndefined() && !accept.isBool())
        return fail(request, InvalidParams,
                    QStringLiteral("\"accept_boot_change\" must be true or false."));
    const bool acceptBootChange = accept.toBool(false);
    startJob(
        request,
        [this, path, options, asked, expect, acceptBootChange](const QJsonValue &id) {
            // Planned again here, never taken from the client: a helper running as root writes
            // only what it planned itself, and starts it only if that is what the person saw.
            const PreparedRealign prepared = prepareRealignment(path, options, asked);
            if (!prepared.ok)
                return failedRealign(prepared.error);
            QJsonObject result;
            if (expect && !movesAsExpected(*expect, prepared.plan.moves)) {
                result = failedRealign(QStringLiteral("The disk changed since the plan was made: "
                                                      "plan again."));
            } else if (!prepared.bootBreaks.isEmpty() && !acceptBootChange) {
                result = failedRealign(QStringLiteral("This plan stops a boot loader working, and "
                                                      "that was not accepted: %1")
                                           .arg(prepared.bootBreaks.join(QLatin1Char(' '))));
            } else if (prepared.plan.moves.isEmpty()) {
                RealignResult nothing;
                nothing.ok = true;
                result = realignResultToJson(nothing);
            } else {
                result =
                    realignResultToJson(runRealignment(path, prepared, options, jobCallbacks(id)));
            }
            result[QStringLiteral("plan")] = planJson(prepared, path);
            return result;
        },
        path);
}

void ServeSession::resume(const Request &request)
{
    QString path;
    if (!targetOf(request, &path))
        return;
    startJob(
        request,
        [this, path](const QJsonValue &id) {
            if (copyJournalExists(path)) // a disk copy onto `path` that stopped part-way
                return copyResultToJson(resumeCopy(path, QString(), copyCallbacks(id)));
            return realignResultToJson(resumeWriteJob(path, QString(), jobCallbacks(id)));
        },
        path);
}

} // namespace partwise
