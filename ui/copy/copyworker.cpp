#include "copy/copyworker.h"

#include "ops/copyplanjson.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <unistd.h>

using namespace partwise;

CopyWorker::CopyWorker(QObject *parent) : CopyBackend(parent) {}

CopyWorker::~CopyWorker()
{
    m_cancel.store(true);
}

CopyCallbacks CopyWorker::callbacks()
{
    CopyCallbacks callbacks;
    callbacks.log = [this](const QString &line) {
        QMetaObject::invokeMethod(
            this, [this, line] { emit logLine(line); }, Qt::QueuedConnection);
    };
    // A few updates a second are all a person can read.
    auto timer = std::make_shared<QElapsedTimer>();
    callbacks.progress = [this, timer](const CopyProgress &p) {
        if (timer->isValid() && timer->elapsed() < 100 && p.bytesDone < p.bytesTotal)
            return;
        timer->start();
        QMetaObject::invokeMethod(
            this, [this, p] { emit progress(p); }, Qt::QueuedConnection);
    };
    callbacks.cancel = &m_cancel;
    return callbacks;
}

void CopyWorker::createImage(const QString &path, qint64 bytes)
{
    // As the helper's create-image: a new file only, sparse.
    const int fd = ::open(QFile::encodeName(path).constData(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    const bool ok = fd >= 0 && ::ftruncate(fd, bytes) == 0;
    const QString error = ok ? QString() : QString::fromLocal8Bit(std::strerror(errno));
    if (fd >= 0)
        ::close(fd);
    if (fd >= 0 && !ok)
        QFile::remove(path);
    QMetaObject::invokeMethod(
        this, [this, ok, error] { emit imageCreated(ok, error); }, Qt::QueuedConnection);
}

void CopyWorker::plan(const CopyRequest &request)
{
    m_job.start(
        [this, request] {
            const PreparedCopy prepared =
                prepareCopy(request.source, request.target, request.options);
            const QString journal = interruptedCopyJournal(request.target);
            return std::function<void()>([this, prepared, journal] {
                emit planned(prepared.plan, prepared.ok ? QString() : prepared.error, journal);
            });
        },
        QStringLiteral("copy-plan"));
}

void CopyWorker::run(const CopyRequest &request, const CopyPlan &shown, bool acceptBootChange)
{
    m_cancel.store(false);
    const QJsonArray expect = copyExpectJson(shown);
    CopyRequest asShown = request;
    if (request.options.newIds)
        asShown.options.ids = copyIdsOf(shown); // the new ids the plan page showed
    m_job.start(
        [this, request = asShown, expect, acceptBootChange] {
            CopyResult result;
            const PreparedCopy prepared =
                prepareCopy(request.source, request.target, request.options);
            QString problem;
            if (!prepared.ok)
                result.error = prepared.error;
            else if (!prepared.plan.ok())
                result.error = prepared.plan.refused.join(QLatin1Char(' '));
            else if (!copyMatchesExpect(expect, prepared.plan, &problem))
                result.error = tr("The disks changed since the plan was made: plan "
                                  "again. Nothing was written.");
            else if (!prepared.plan.bootBreaks.isEmpty() && !acceptBootChange)
                result.error = prepared.plan.bootBreaks.join(QLatin1Char(' '));
            else {
                // The person ticked the plan page's box for the breaks it showed: the runner
                // refuses a breaking copy without it, as the CLI's and the helper's do.
                CopyOptions options = request.options;
                options.acceptBootChange = acceptBootChange;
                result = runCopy(prepared, options, callbacks());
            }
            return std::function<void()>([this, result] { emit finished(result); });
        },
        QStringLiteral("copy"));
}

void CopyWorker::resume(const QString &target)
{
    m_cancel.store(false);
    m_job.start(
        [this, target] {
            const CopyResult result = resumeCopy(target, QString(), callbacks());
            return std::function<void()>([this, result] { emit finished(result); });
        },
        QStringLiteral("copy-resume"));
}
