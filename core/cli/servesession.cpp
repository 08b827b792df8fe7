#include "cli/servesession.h"

#include "base/progressthrottle.h"
#include "base/userfileread.h"
#include "boot/bootinventory.h"
#include "cli/exitstatus.h"
#include "cli/probecommand.h"
#include "cli/serveoutput.h"
#include "cli/serveparams.h"
#include "cli/serveresults.h"
#include "device/diskenumerator.h"
#include "device/userreadabledisk.h"
#include "fs/filesystemminimum.h"
#include "fs/sessionabilities.h"
#include "layer/layerreader.h"
#include "ops/applyrunner.h"
#include "ops/copyplanjson.h"
#include "ops/copyrunner.h"
#include "ops/operationpreview.h"
#include "ops/partitionaccess.h"
#include "ops/pastesource.h"
#include "ops/physicalvolumestep.h"
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
#include <cstring>
#include <optional>

namespace partwise {

using namespace jsonrpc;

namespace {

constexpr int kEndOfInputGraceMs = 10000;
// cryptsetup's own limit for a key file is 8 MiB; a passphrase file is far smaller.
// Questions are numbered from 1 by this helper; a number past any it could have asked is wrong.
constexpr qint64 kMaxQuestionNumber = qint64(1) << 40;

} // namespace

ServeSession::ServeSession(ServeTargetGuard guard, Writer write)
    : m_guard(guard), m_write(std::move(write))
{
}

ServeSession::~ServeSession()
{
    finish();
}

void ServeSession::cancel()
{
    m_cancel = true;
    m_questions.abandon();
}

void ServeSession::finish()
{
    cancel();
    if (m_job.joinable())
        m_job.join();
}

void ServeSession::notify(const QString &method, const QJsonObject &params)
{
    const std::lock_guard lock(m_writeMutex);
    m_write(notificationLine(method, params));
}

void ServeSession::answer(const Request &request, const QJsonValue &result)
{
    if (request.isNotification)
        return;
    const std::lock_guard lock(m_writeMutex);
    m_write(resultLine(request.id, result));
}

void ServeSession::fail(const Request &request, int code, const QString &message)
{
    if (request.isNotification && request.errorCode == 0)
        return;
    const std::lock_guard lock(m_writeMutex);
    m_write(errorLine(request.id, code, message));
}

void ServeSession::handleLine(const QByteArray &line)
{
    if (line.trimmed().isEmpty())
        return;
    const Request request = parseLine(line);
    if (request.errorCode != 0) {
        fail(request, request.errorCode, request.errorMessage);
        return;
    }
    dispatch(request);
}

void ServeSession::dispatch(const Request &request)
{
    const QString &m = request.method;
    if (m == QLatin1String("version")) {
        answer(request,
               QJsonObject{{QStringLiteral("partwise"), QString::fromLatin1(kPartwiseVersion)},
                           {QStringLiteral("protocol"), 1}});
        return;
    }
    if (m == QLatin1String("cancel")) {
        const bool running = m_running.load();
        if (running)
            m_cancel = true;
        answer(request, QJsonObject{{QStringLiteral("cancelling"), running}});
        return;
    }
    if (m == QLatin1String("answer")) {
        ServeParams params{request.params, {}};
        const qint64 number = params.integer("question", -1, 0, kMaxQuestionNumber);
        const QJsonValue choice = request.params.value(QStringLiteral("choice"));
        if (number < 0 || !choice.isString())
            return fail(request, InvalidParams,
                        QStringLiteral("\"question\" must be a question's number and \"choice\" "
                                       "a string."));
        QString why;
        if (!m_questions.answer(number, choice.toString(), &why))
            return fail(request, InvalidParams, why);
        answer(request, QJsonObject{{QStringLiteral("accepted"), true}});
        return;
    }
    using Handler = void (ServeSession::*)(const Request &);
    static const QHash<QString, Handler> handlers{
        {QStringLiteral("list-disks"), &ServeSession::listDisks},
        {QStringLiteral("read-disk"), &ServeSession::readDiskMethod},
        {QStringLiteral("preview"), &ServeSession::preview},
        {QStringLiteral("filesystem-minimum"), &ServeSession::filesystemMinimum},
        {QStringLiteral("realign-plan"), &ServeSession::realignPlan},
        {QStringLiteral("apply"), &ServeSession::apply},
        {QStringLiteral("realign"), &ServeSession::realign},
        {QStringLiteral("resume"), &ServeSession::resume},
        {QStringLiteral("probe"), &ServeSession::probe},
        {QStringLiteral("unmount"), &ServeSession::unmountMethod},
        {QStringLiteral("mount"), &ServeSession::mountMethod},
        {QStringLiteral("swapoff"), &ServeSession::swapOffMethod},
        {QStringLiteral("swapon"), &ServeSession::swapOnMethod},
        {QStringLiteral("unlock"), &ServeSession::unlockMethod},
        {QStringLiteral("lock"), &ServeSession::lockMethod},
        {QStringLiteral("vg-activate"), &ServeSession::volumeGroupMethod},
        {QStringLiteral("vg-deactivate"), &ServeSession::volumeGroupMethod},
        {QStringLiteral("power-off"), &ServeSession::powerOffMethod},
        {QStringLiteral("copy-plan"), &ServeSession::copyPlan},
        {QStringLiteral("copy"), &ServeSession::copy},
        {QStringLiteral("create-image"), &ServeSession::createImage}};
    const auto handler = handlers.constFind(m);
    if (handler == handlers.constEnd()) {
        fail(request, MethodNotFound, QStringLiteral("No method \"%1\".").arg(m.left(100)));
        return;
    }
    if (m_running.load()) {
        fail(request, Busy,
             QStringLiteral("A job is running; only \"cancel\", \"answer\" and \"version\" are "
                            "taken until it ends."));
        return;
    }
    if (m_job.joinable())
        m_job.join(); // the last job has answered; collect its thread
    (this->*handler.value())(request);
}

bool ServeSession::targetOf(const Request &request, QString *path)
{
    const QJsonValue value = request.params.value(QStringLiteral("path"));
    if (!value.isString()) {
        fail(request, InvalidParams, QStringLiteral("\"path\" must be a string."));
        return false;
    }
    QString why;
    if (!m_guard.admits(value.toString(), &why, path)) {
        fail(request, Refused, why);
        return false;
    }
    return true;
}

bool ServeSession::targetOf(const Request &request, OpenDisk *disk, QString *path)
{
    const QJsonValue value = request.params.value(QStringLiteral("path"));
    if (!value.isString()) {
        fail(request, InvalidParams, QStringLiteral("\"path\" must be a string."));
        return false;
    }
    QString why;
    if (!m_guard.opens(value.toString(), disk, &why)) {
        // The guard's refusal never reaches the disk; one it admitted names it, then could not
        // read it (empty, unreadable), as a read by name failed before.
        fail(request, disk->path().isEmpty() ? Refused : Failed, why);
        return false;
    }
    *path = disk->path();
    return true;
}

void ServeSession::forgetReleasedOn(const QString &disk)
{
    for (auto *map : {&m_swappedOff, &m_swappedOn})
        for (auto it = map->begin(); it != map->end();)
            it = it.key().first == disk ? map->erase(it) : std::next(it);
    for (auto it = m_unmounted.begin(); it != m_unmounted.end();)
        it = it.key().first == disk ? m_unmounted.erase(it) : std::next(it);
}

bool ServeSession::userMayRead(const Request &request, const QString &disk, const QString &what)
{
    const ServedUser &user = m_guard.servedUser();
    QString why;
    if (!user.actsForUser() || userMayReadDisk(disk, user.uid, &why))
        return true;
    fail(request, Refused, QStringLiteral("%1 is refused: %2.").arg(what, why));
    return false;
}

void ServeSession::startJob(const Request &request, Job job, const QString &writes)
{
    if (!writes.isEmpty())
        forgetReleasedOn(writes);
    m_cancel = false;
    m_running = true;
    m_job = std::thread([this, request, job = std::move(job)] {
        const QJsonObject result = job(request.id);
        // Taken before the answer goes out, so a client that sends its next job as soon as it
        // reads this one's answer is not told to wait (dispatch joins this thread first).
        m_running = false;
        if (result.value(QStringLiteral("ok")).toBool()) {
            answer(request, result);
        } else {
            const std::lock_guard lock(m_writeMutex);
            m_write(errorLine(request.id, Failed, result.value(QStringLiteral("error")).toString(),
                              result));
        }
    });
}

void ServeSession::listDisks(const Request &request)
{
    answer(request, QJsonObject{{QStringLiteral("disks"),
                                 QJsonArray::fromStringList(partwise::listDisks())}});
}

void ServeSession::readDiskMethod(const Request &request)
{
    OpenDisk disk;
    QString path;
    if (!targetOf(request, &disk, &path))
        return;
    ServeParams params{request.params, {}};
    DiskReadOptions options;
    options.forcedSectorSize = params.sectorSize();
    options.askDrive = params.boolean("ask_drive", true);
    const AlignmentPolicy policy = params.policy();
    if (!params.problem.isEmpty())
        return fail(request, InvalidParams, params.problem);
    DiskReadResult read = readDisk(disk, options);
    // A copy onto this disk that stopped part-way: the window offers to finish it. Until then
    // the disk has no table and usually cannot be read, so a failed read names it too.
    const QString copyJournal = interruptedCopyJournal(path);
    if (!read.ok && !copyJournal.isEmpty()) {
        const std::lock_guard lock(m_writeMutex);
        m_write(errorLine(request.id, Failed, interruptedCopyText(path),
                          {{QStringLiteral("interrupted_copy"), copyJournal}}));
        return;
    }
    if (!read.ok)
        return fail(request, Failed, read.error);
    readLayers(&read.layout);
    // What boots from it, as `check` reads it: the window's info panel shows it, and its Apply
    // says before writing what a move does to it.
    BootReadOptions bootOptions;
    if (!read.layout.device.isImage) {
        if (!m_firmware)
            m_firmware = readFirmwareEntries();
        bootOptions.firmware = &*m_firmware;
    }
    bootOptions.diskFd = disk.fd(); // the disk the guard admitted, not its name again
    const BootInventory boot = readBootInventory(read.layout, bootOptions);
    // The check's object for people and scripts, and the whole layout for a window.
    QJsonObject device = deviceJson(read.layout, policy, &boot);
    device[QStringLiteral("layout")] = layoutToJson(read.layout);
    // A realignment or Apply of this disk that stopped part-way (a dropped connection, a
    // cancel, a crash): the window offers to finish it with resume.
    if (const QString journal =
            interruptedWriteJournal(path, RealignOptions().journalPathFor(path));
        !journal.isEmpty())
        device[QStringLiteral("interrupted_journal")] = journal;
    if (!copyJournal.isEmpty())
        device[QStringLiteral("interrupted_copy")] = copyJournal;
    answer(request, device);
}

void ServeSession::preview(const Request &request)
{
    OpenDisk disk;
    QString path;
    if (!targetOf(request, &disk, &path))
        return;
    ServeParams params{request.params, {}};
    const AlignmentPolicy policy = params.policy();
    const qint64 sectorSize = params.sectorSize();
    if (!params.problem.isEmpty())
        return fail(request, InvalidParams, params.problem);
    QList<Operation> operations;
    if (!planOf(request, &operations) || !pasteSourcesAdmitted(request, &operations))
        return;
    DiskReadOptions options;
    options.forcedSectorSize = sectorSize;
    const DiskReadResult read = readDisk(disk, options);
    if (!read.ok)
        return fail(request, Failed, read.error);
    if (QString error; !resolvePasteSources(&operations, &error))
        return fail(request, Failed, error);
    const PreviewResult result = previewOperations(read.layout, operations, policy);
    answer(request, QJsonObject{{QStringLiteral("ok"), result.ok},
                                {QStringLiteral("failed_index"), result.failedIndex},
                                {QStringLiteral("error"), result.error},
                                {QStringLiteral("device"), deviceJson(result.layout, policy)}});
}

void ServeSession::filesystemMinimum(const Request &request)
{
    OpenDisk disk;
    QString path;
    if (!targetOf(request, &disk, &path))
        return;
    ServeParams params{request.params, {}};
    const int number = int(params.integer("partition", 0, 1, 256));
    DiskReadOptions options;
    options.forcedSectorSize = params.sectorSize();
    options.askDrive = false;
    if (number == 0 && params.problem.isEmpty())
        params.problem = QStringLiteral("\"partition\" is required.");
    if (!params.problem.isEmpty())
        return fail(request, InvalidParams, params.problem);
    const DiskReadResult read = readDisk(disk, options);
    if (!read.ok)
        return fail(request, Failed, read.error);
    const PartitionInfo *partition = read.layout.partitionByNumber(number);
    if (!partition || partition->filesystem.isEmpty())
        return fail(
            request, Failed,
            QStringLiteral("%1 has no partition %2 with a filesystem.").arg(path).arg(number));
    // resize2fs -P reads every block group: seconds on a large disk, as read-disk's probing.
    const std::optional<qint64> limit =
        isPhysicalVolume(partition->filesystem)
            ? physicalVolumeMinimumBytes(read.layout, *partition)
            : filesystemShrinkLimitBytes(
                  partitionLocation(read.layout, partition->startSector, number),
                  partition->filesystem);
    // What this session, the one that will run the Resize, can do to it: the window's own may
    // differ (a root helper for a user's window).
    const ResizeAbilities here = resizeAbilitiesHere(
        partition->filesystem,
        read.layout.device.isImage ? FilesystemPlace::Image : FilesystemPlace::Disk);
    answer(request, QJsonObject{{QStringLiteral("partition"), number},
                                {QStringLiteral("filesystem"), partition->filesystem},
                                {QStringLiteral("minimum_bytes"),
                                 limit ? QJsonValue(double(*limit)) : QJsonValue()},
                                {QStringLiteral("cannot_shrink"), here.cannotShrink},
                                {QStringLiteral("cannot_grow"), here.cannotGrow}});
}

void ServeSession::apply(const Request &request)
{
    QString path;
    if (!targetOf(request, &path))
        return;
    ServeParams params{request.params, {}};
    ApplyOptions options;
    options.policy = params.policy();
    options.forcedSectorSize = params.sectorSize();
    // A queue that moves a partition a boot loader cannot follow runs only when accepted.
    options.acceptBootChange = params.boolean("accept_boot_change", false);
    if (!params.problem.isEmpty())
        return fail(request, InvalidParams, params.problem);
    QList<Operation> operations;
    if (!planOf(request, &operations) || !keysReadAsUser(request, &operations))
        return;
    if (!pasteSourcesAdmitted(request, &operations))
        return;
    startJob(
        request,
        [this, path, operations, options](const QJsonValue &id) {
            ApplyCallbacks callbacks;
            callbacks.log = [this, id](const QString &line) {
                notify(QStringLiteral("log"),
                       {{QStringLiteral("id"), id}, {QStringLiteral("line"), line}});
            };
            callbacks.ask = [this, id](const PartedMessage &message) {
                return m_questions.ask(
                    message,
                    [this, id](QJsonObject params) {
                        params[QStringLiteral("id")] = id;
                        notify(QStringLiteral("question"), params);
                    },
                    m_cancel);
            };
            callbacks.cancel = &m_cancel;
            callbacks.bytes = jobCallbacks(id).progress; // a move's or a paste's bytes
            callbacks.progress = [this, id](int done, int total) {
                notify(QStringLiteral("progress"), {{QStringLiteral("id"), id},
                                                    {QStringLiteral("operations_done"), done},
                                                    {QStringLiteral("operations_total"), total}});
            };
            const ApplyResult r = applyOperations(path, operations, options, callbacks);
            return QJsonObject{{QStringLiteral("ok"), r.ok},
                               {QStringLiteral("completed"), r.completed},
                               {QStringLiteral("resumable"), r.resumable},
                               {QStringLiteral("in_use"), r.inUse},
                               {QStringLiteral("error"), r.error},
                               {QStringLiteral("backup_folder"), r.backupFolder},
                               {QStringLiteral("journal"), r.journalPath}};
        },
        path);
}

void ServeSession::probe(const Request &request)
{
    QString path;
    if (!targetOf(request, &path))
        return;
    startJob(
        request,
        [this, path](const QJsonValue &id) {
            // The probe command's own JSON, and its progress lines as log notifications.
            ProbeCommandOptions options;
            options.target = path;
            options.json = true;
            options.assumeYes = true;
            options.probe.cancel = &m_cancel;
            auto throttle = std::make_shared<ProgressThrottle>(kProgressMilliseconds);
            options.probe.progress = [this, id, throttle](double fraction) {
                if (!throttle->due(fraction >= 1.0))
                    return;
                notify(QStringLiteral("progress"),
                       {{QStringLiteral("id"), id}, {QStringLiteral("fraction"), fraction}});
            };
            QString out;
            QString err;
            QTextStream outStream(&out);
            QTextStream errStream(&err);
            const int status = runProbeCommand(options, outStream, errStream, {});
            outStream.flush();
            errStream.flush();
            for (const QString &line :
                 err.split(QRegularExpression(QStringLiteral("[\r\n]+")), Qt::SkipEmptyParts))
                notify(QStringLiteral("log"),
                       {{QStringLiteral("id"), id}, {QStringLiteral("line"), line.trimmed()}});
            QJsonObject result = QJsonDocument::fromJson(out.toUtf8()).object();
            result[QStringLiteral("ok")] = status == ExitOk;
            if (status != ExitOk)
                result[QStringLiteral("error")] = err.trimmed();
            return result;
        },
        path);
}

int runServe()
{
    // A client that goes away mid-answer must not kill a job with SIGPIPE: its writes fail
    // instead, and the end of input cancels the job where `resume` can finish it.
    std::signal(SIGPIPE, SIG_IGN);
    QString why;
    const std::optional<ServedUser> user = servedUserFromEnvironment(&why);
    if (!user) {
        std::fprintf(stderr, "partwise-cli serve: %s\n", qPrintable(why));
        return ExitBadInput;
    }
    // Output never blocks the helper; a client that stops reading is gone, and its job is
    // cancelled as at the end of input (its disk lock goes with the job).
    ServeOutput output(STDOUT_FILENO);
    ServeSession *self = nullptr;
    ServeSession session(ServeTargetGuard(*user), [&output, &self](const QByteArray &line) {
        if (!output.push(line) && self)
            self->cancel();
    });
    self = &session;
    // Lines are read a byte at a time up to the limit, so a hostile endless line costs no more
    // memory than that; the rest of it is dropped and the line answered as unreadable.
    // Room for the longest line at once: it never moves, so wiping it wipes every copy of a
    // passphrase it held.
    QByteArray line;
    line.reserve(kMaxLineBytes + 1);
    const auto wipe = [&line] {
        ::explicit_bzero(line.data(), size_t(line.size()));
        line.truncate(0);
    };
    for (int c = getc_unlocked(stdin); c != EOF; c = getc_unlocked(stdin)) {
        if (c != '\n') {
            if (line.size() <= kMaxLineBytes)
                line.append(char(c));
            continue;
        }
        session.handleLine(line);
        wipe(); // it may have held a passphrase
    }
    if (!line.isEmpty())
        session.handleLine(line);
    wipe();
    // Nobody is left to answer: cancel, and give the job a few seconds to reach a safe point.
    // One blocked beyond that (a device that stopped answering) is left to the journal: the
    // helper ends anyway, as a power cut would end it, and `resume` finishes the move.
    session.cancel();
    for (int waited = 0; session.jobRunning() && waited < kEndOfInputGraceMs; waited += 50)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (session.jobRunning()) {
        std::fprintf(stderr,
                     "partwise-cli serve: the job did not stop within %d s of the end "
                     "of input; ending without it.\n",
                     kEndOfInputGraceMs / 1000);
        std::fflush(stderr);
        std::_Exit(ExitMisalignedOrFailed);
    }
    session.finish();
    output.drain(kEndOfInputGraceMs);
    return 0;
}

} // namespace partwise
