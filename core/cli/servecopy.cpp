// The helper's disk copy (ServeSession's copy-plan, copy and create-image): the parameters are
// read by the validator `partwise-cli copy` uses (cli/copyparams.h), and the source and the
// target both pass the ServeTargetGuard, so a root helper reads and writes only what it would
// read-disk and apply. The helper chooses where the journal and the table backup go: a client
// never names a path root would write to. A copy is planned again when it is asked to run, and
// runs only when that plan places the partitions where the person saw them ("expect"), with the
// new ids the person saw ("ids": the fresh plan takes them, ops/copyids.h).

#include "base/progressthrottle.h"
#include "cli/copyparams.h"
#include "cli/serveparams.h"
#include "cli/servesession.h"
#include "ops/copyplanjson.h"

#include <QFile>
#include <QJsonArray>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

using namespace jsonrpc;

namespace {

constexpr qint64 kMinImageBytes = qint64(1) << 20;
constexpr qint64 kMaxImageBytes = qint64(1) << 50; // 1 PiB, sparse

QJsonObject failedCopy(const QString &error)
{
    CopyResult result;
    result.error = error;
    return copyResultToJson(result);
}

} // namespace

bool ServeSession::copyParamsOf(const Request &request, CopyParams *params)
{
    QJsonObject object = request.params;
    object.remove(QStringLiteral("expect"));
    object.remove(QStringLiteral("accept_boot_change"));
    for (const char *key : {"journal", "backup_dir"})
        if (object.contains(QLatin1String(key))) {
            fail(request, InvalidParams,
                 QStringLiteral("\"%1\" is not taken by the helper: it keeps its own.")
                     .arg(QLatin1String(key)));
            return false;
        }
    if (const QString problem = readCopyParams(object, params); !problem.isEmpty()) {
        fail(request, InvalidParams, problem);
        return false;
    }
    QString why;
    for (QString *path : {&params->source, &params->target})
        if (!m_guard.admits(*path, &why, path)) {
            fail(request, Refused, why);
            return false;
        }
    return userMayRead(request, params->source, QStringLiteral("The copy's source"));
}

CopyCallbacks ServeSession::copyCallbacks(const QJsonValue &id)
{
    CopyCallbacks callbacks;
    callbacks.log = [this, id](const QString &line) {
        notify(QStringLiteral("log"), {{QStringLiteral("id"), id}, {QStringLiteral("line"), line}});
    };
    auto throttle = std::make_shared<ProgressThrottle>(kProgressMilliseconds);
    callbacks.progress = [this, id, throttle](const CopyProgress &p) {
        if (!throttle->due(p.bytesDone >= p.bytesTotal))
            return;
        QJsonObject params = copyProgressToJson(p);
        params[QStringLiteral("id")] = id;
        notify(QStringLiteral("progress"), params);
    };
    callbacks.cancel = &m_cancel;
    return callbacks;
}

void ServeSession::copyPlan(const Request &request)
{
    CopyParams params;
    if (!copyParamsOf(request, &params))
        return;
    const PreparedCopy prepared = prepareCopy(params.source, params.target, params.options);
    if (!prepared.ok)
        return fail(request, Failed, prepared.error);
    QJsonObject answerObject{
        {QStringLiteral("plan"), copyPlanToJson(prepared.plan)},
        {QStringLiteral("text"), QJsonArray::fromStringList(copyPlanText(prepared.plan))}};
    // A stopped copy onto this target is finished (resume) before another starts.
    if (const QString journal = interruptedCopyJournal(params.target); !journal.isEmpty())
        answerObject[QStringLiteral("interrupted_journal")] = journal;
    answer(request, answerObject);
}

void ServeSession::copy(const Request &request)
{
    CopyParams params;
    if (!copyParamsOf(request, &params))
        return;
    const QJsonValue expect = request.params.value(QStringLiteral("expect"));
    const QJsonValue accept = request.params.value(QStringLiteral("accept_boot_change"));
    if (!accept.isUndefined() && !accept.isBool())
        return fail(request, InvalidParams,
                    QStringLiteral("\"accept_boot_change\" must be true or false."));
    if (!expect.isUndefined()) {
        QString problem;
        copyMatchesExpect(expect, CopyPlan(), &problem);
        if (!problem.isEmpty())
            return fail(request, InvalidParams, problem);
    }
    const bool acceptBootChange = accept.toBool(false);
    startJob(
        request,
        [this, params, expect, acceptBootChange](const QJsonValue &id) {
            // Planned again here, never taken from the client.
            CopyOptions options = params.options;
            options.acceptBootChange = acceptBootChange;
            const PreparedCopy prepared = prepareCopy(params.source, params.target, options);
            if (!prepared.ok)
                return failedCopy(prepared.error);
            QJsonObject result;
            QString problem;
            if (!prepared.plan.ok())
                result = failedCopy(QStringLiteral("The copy cannot run: %1 Nothing was written.")
                                        .arg(prepared.plan.refused.join(QLatin1Char(' '))));
            else if (!expect.isUndefined() && !copyMatchesExpect(expect, prepared.plan, &problem))
                result =
                    failedCopy(QStringLiteral("The disks changed since the plan was made: plan "
                                              "again. Nothing was written."));
            else if (!prepared.plan.bootBreaks.isEmpty() && !acceptBootChange)
                result =
                    failedCopy(QStringLiteral("This copy will not boot as its source does, and "
                                              "that was not accepted: %1")
                                   .arg(prepared.plan.bootBreaks.join(QLatin1Char(' '))));
            else
                result = copyResultToJson(runCopy(prepared, options, copyCallbacks(id)));
            result[QStringLiteral("plan")] = copyPlanToJson(prepared.plan);
            return result;
        },
        params.target);
}

void ServeSession::createImage(const Request &request)
{
    // Only a helper running as the user makes files, with the user's own rights: root creates
    // nothing a user names (ARCHITECTURE.md, "The root helper").
    if (m_guard.servedUser().privileged)
        return fail(request, Refused,
                    QStringLiteral("The administrator's helper creates no files; create an "
                                   "image as yourself."));
    const QJsonValue pathValue = request.params.value(QStringLiteral("path"));
    ServeParams params{request.params, {}};
    const qint64 size = params.integer("size", 0, kMinImageBytes, kMaxImageBytes);
    if (!pathValue.isString() || !params.problem.isEmpty() || size == 0)
        return fail(request, InvalidParams,
                    params.problem.isEmpty()
                        ? QStringLiteral("\"path\" must be a path and \"size\" a number of bytes.")
                        : params.problem);
    const QString path = pathValue.toString();
    if (path.isEmpty() || path.size() > 4096 || path.contains(QChar(0)) ||
        !path.startsWith(QLatin1Char('/')))
        return fail(request, InvalidParams, QStringLiteral("\"path\" must be an absolute path."));
    if (size % 512 != 0)
        return fail(request, InvalidParams,
                    QStringLiteral("\"size\" must be a multiple of 512 bytes."));
    // A new file only: an existing one (or a link planted in its place) is never truncated.
    const int fd = ::open(QFile::encodeName(path).constData(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return fail(request, Failed,
                    QStringLiteral("%1 cannot be created: %2.")
                        .arg(path.left(200), QString::fromLocal8Bit(std::strerror(errno))));
    const bool sized = ::ftruncate(fd, size) == 0; // sparse: no block written
    const int error = errno;
    ::close(fd);
    if (!sized) {
        ::unlink(QFile::encodeName(path).constData());
        return fail(request, Failed,
                    QStringLiteral("%1 cannot be made %2 bytes long: %3.")
                        .arg(path.left(200))
                        .arg(size)
                        .arg(QString::fromLocal8Bit(std::strerror(error))));
    }
    answer(request, QJsonObject{{QStringLiteral("path"), path}, {QStringLiteral("size"), size}});
}

} // namespace partwise
