#include "ops/copyrunner.h"

#include "base/humansize.h"
#include "base/nofollowfile.h"
#include "base/twoatatime.h"
#include "device/busycheck.h"
#include "device/diskidentity.h"
#include "device/diskwritelock.h"
#include "move/alignedbuffer.h"
#include "move/blockio.h"
#include "ops/copyboot.h"
#include "ops/copydata.h"
#include "ops/copydiscard.h"
#include "ops/copyjournal.h"
#include "ops/copyreferences.h"
#include "ops/copyshrink.h"
#include "ops/copytable.h"
#include "ops/partitioncopy.h"
#include "ops/tablebackup.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <vector>

namespace partwise {

using move::BlockIo;
using move::Extent;

namespace {

using Kind = PartitionInfo::Kind;
using Step = CopyJournal::Step;

constexpr qint64 kClearBytes = 1 << 20;

// The journal is named when it is not where resume looks by default.
QString resumeCommand(const QString &target, const QString &journalPath)
{
    if (journalPath.isEmpty() || journalPath == copyJournalPath(target))
        return QStringLiteral("partwise-cli resume %1").arg(target);
    return QStringLiteral("partwise-cli resume --journal %1 %2").arg(journalPath, target);
}

class CopyExecution
{
public:
    CopyExecution(CopyJournal &journal, QString journalPath, const CopyCallbacks &callbacks)
        : m_j(journal), m_path(std::move(journalPath)), m_cb(callbacks),
          m_data(journal, [this](const QString &line) { log(line); })
    {
    }

    void usePlanned(const CopyDataOf::Planned *planned) { m_data.usePlanned(planned); }

    CopyResult run()
    {
        m_result.journalPath = m_path;
        m_result.backupFolder = m_j.backupFolder;
        for (const CopyPartitionPlan &p : m_j.plan.partitions)
            m_total += p.data == CopyData::Shrunk ? p.bytesToCopy / 2 : p.bytesToCopy;
        m_timer.start();
        if (m_j.step == Step::Planned &&
            !(prepareShrinks() && openIo() && discardUnwritten() && clearTarget()))
            return m_result;
        if (m_j.step == Step::Copying) {
            if (!openIo())
                return m_result;
            for (int i = 0; i < m_j.plan.partitions.size(); ++i)
                if (!copyPartition(i))
                    return m_result;
            m_target.reset();
            m_source.reset();
            releaseClaim();
            if (!advance(Step::Fixing))
                return m_result;
        }
        releaseClaim();
        if (m_j.step == Step::Fixing) {
            if (!fixPartitions() || !followIdentities() || !advance(Step::Table))
                return m_result;
        }
        if (!writeTable())
            return m_result;
        CopyJournal::remove(m_path);
        removeScratch();
        log(QStringLiteral("Copy finished: %1 is ready.").arg(m_j.target));
        m_result.ok = true;
        return m_result;
    }

private:
    const CopyPlan &plan() const { return m_j.plan; }
    qint64 sss() const { return plan().sourceSectorSize; }
    qint64 tss() const { return plan().targetSectorSize; }

    void log(const QString &line)
    {
        if (m_cb.log)
            m_cb.log(line);
    }

    bool fail(const QString &error, bool resumable = true)
    {
        m_result.error = error;
        m_result.resumable = resumable;
        if (resumable && !error.contains(resumeCommand(m_j.target, m_path)))
            m_result.error += QStringLiteral(" Run `%1` to finish the copy.")
                                  .arg(resumeCommand(m_j.target, m_path));
        return false;
    }

    bool save()
    {
        QString error;
        return m_j.save(m_path, &error) || fail(error);
    }

    bool advance(Step step)
    {
        m_j.step = step;
        return save();
    }

    bool cancelled() const { return m_cb.cancel && m_cb.cancel->load(); }

    // Only the folder made for the scratch copies is emptied: a link of another user's in its
    // place (beside an image in /tmp) would have it empty whatever the link points at.
    void removeScratch()
    {
        struct stat st;
        if (!m_j.scratchFolder.isEmpty() &&
            ::lstat(QFile::encodeName(m_j.scratchFolder).constData(), &st) == 0 &&
            S_ISDIR(st.st_mode))
            QDir(m_j.scratchFolder).removeRecursively();
    }

    // The source only read; the target written, and claimed exclusively while its data is
    // copied (a block device open with O_EXCL fails for mounts and other claims meanwhile).
    bool openIo()
    {
        if (m_target)
            return true;
        if (QFileInfo(m_j.target).exists() && !QFileInfo(m_j.target).isFile()) {
            m_claim =
                ::open(QFile::encodeName(m_j.target).constData(), O_RDONLY | O_EXCL | O_CLOEXEC);
            if (m_claim < 0)
                return fail(QStringLiteral("%1 is in use (%2); nothing more was written.")
                                .arg(m_j.target, QString::fromLocal8Bit(std::strerror(errno))));
        }
        int error = 0;
        m_source = move::openFileBlockIo(m_j.source, BlockIo::Access::ReadOnly, &error);
        if (!m_source)
            return fail(QStringLiteral("Cannot read %1: %2")
                            .arg(m_j.source, QString::fromLocal8Bit(std::strerror(error))));
        m_target = move::openFileBlockIo(m_j.target, BlockIo::Access::ReadWrite, &error);
        if (!m_target)
            return fail(QStringLiteral("Cannot write %1: %2")
                            .arg(m_j.target, QString::fromLocal8Bit(std::strerror(error))));
        // A resume meets the disk the copy was planned for, or writes nothing.
        if (const qint64 size = qint64(m_target->size()); size != plan().targetSizeBytes) {
            m_target.reset();
            return fail(QStringLiteral("%1 now holds %2 bytes, not the %3 the copy was planned "
                                       "for; nothing more was written.")
                            .arg(m_j.target)
                            .arg(size)
                            .arg(plan().targetSizeBytes),
                        false);
        }
        return true;
    }

    void releaseClaim()
    {
        if (m_claim >= 0)
            ::close(m_claim);
        m_claim = -1;
    }

    bool ioFailed(const QString &what, int error)
    {
        return fail(
            QStringLiteral("%1: %2").arg(what, QString::fromLocal8Bit(std::strerror(error))));
    }

    bool readInto(BlockIo &io, move::AlignedBuffer &buffer, quint64 length, quint64 offset,
                  const QString &what)
    {
        const int e = io.readAt(buffer.data(), std::size_t(length), offset);
        return e == 0 || ioFailed(QStringLiteral("Reading %1 at byte %2 of %3")
                                      .arg(what)
                                      .arg(offset)
                                      .arg(io.path()),
                                  e);
    }

    // Filesystems that must shrink to fit are shrunk in a sparse copy of their own beside the
    // journal, before anything is written to the target: a refusal then changes nothing.
    bool prepareShrinks()
    {
        for (const CopyPartitionPlan &p : plan().partitions) {
            if (p.data != CopyData::Shrunk)
                continue;
            // Made as root's (or the user's) own 0700 folder, never through a link or into a
            // folder of another user's: the shrunk copies hold the source's data.
            if (QString why; !makePrivateFolder(m_j.scratchFolder, &why)) {
                CopyJournal::remove(m_path);
                return fail(QStringLiteral("Cannot make a folder for the shrunk copies: %1. "
                                           "Nothing was written to %2.")
                                .arg(why, m_j.target),
                            false);
            }
            log(QStringLiteral("Partition %1: shrinking a copy of its %2 filesystem to %3 bytes")
                    .arg(p.sourceNumber)
                    .arg(p.filesystem)
                    .arg(p.newFilesystemBytes));
            const QString error = shrinkIntoScratch(m_j.source, sss(), p, m_data.scratchPath(p),
                                                    [this](const QString &l) { log(l); });
            if (!error.isEmpty()) {
                removeScratch();
                CopyJournal::remove(m_path);
                return fail(error + QStringLiteral(" Nothing was written to %1.").arg(m_j.target),
                            false);
            }
        }
        return true;
    }

    // Before the first byte is copied: nothing on the target is worth keeping any more.
    bool discardUnwritten()
    {
        if (plan().discard == CopyDiscard::None)
            return true;
        const quint64 head = quint64(std::min<qint64>(kClearBytes, firstStartBytes()));
        const DiscardOutcome d = partwise::discardUnwritten(
            plan(), *m_target, [this](int i) { return m_data.extents(plan().partitions.at(i)); },
            head, kClearBytes, m_cb.cancel);
        if (d.cancelled)
            return fail(QStringLiteral("Cancelled; the target has no partition table yet."));
        const QString what =
            plan().discard == CopyDiscard::Holes
                ? QStringLiteral("Punched holes over %1 of %2 the copy does not write")
                : QStringLiteral("Discarded %1 of %2 the copy does not write (TRIM)");
        log(what.arg(humanSize(qint64(d.bytes)), m_j.target) +
            (d.error.isEmpty() ? QStringLiteral(".")
                               : QStringLiteral("; the rest was not: %1.").arg(d.error)));
        return true;
    }

    // The target's old table and what sits in its first and last MiB go; then the source's boot
    // code goes into the first sector (without the 0x55AA signature, so nothing reads as a
    // table yet) and GRUB's core.img into the gap after it or into the BIOS boot partition.
    bool clearTarget()
    {
        const quint64 size = m_target->size();
        const quint64 head = quint64(std::min<qint64>(kClearBytes, firstStartBytes()));
        move::AlignedBuffer zeros(kClearBytes);
        std::memset(zeros.data(), 0, kClearBytes);
        if (const int e = m_target->writeAt(zeros.data(), head, 0))
            return ioFailed(QStringLiteral("Clearing the start of %1").arg(m_j.target), e);
        const quint64 tail = std::min<quint64>(kClearBytes, size);
        if (const int e = m_target->writeAt(zeros.data(), tail, size - tail))
            return ioFailed(QStringLiteral("Clearing the end of %1").arg(m_j.target), e);
        if (plan().copiesBootCode || plan().gapSectors > 0) {
            move::AlignedBuffer sector(4096);
            if (!readInto(*m_source, sector, 4096, 0, QStringLiteral("the source's MBR")))
                return false;
            std::memset(sector.data() + 440, 0, 4096 - 440);
            if (const int e = m_target->writeAt(sector.data(), 4096, 0))
                return ioFailed(QStringLiteral("Writing the boot code of %1").arg(m_j.target), e);
        }
        if (plan().gapSectors > 0) {
            const quint64 bytes = quint64(plan().gapSectors) * 512;
            const quint64 to = plan().addsBiosBoot ? quint64(plan().biosBootStart * tss()) : 512;
            move::AlignedBuffer gap(bytes + 4096);
            if (const int e = m_source->readAt(gap.data(), bytes + 512, 0))
                return ioFailed(QStringLiteral("Reading GRUB's core.img from %1").arg(m_j.source),
                                e);
            if (const int e = m_target->writeAt(gap.data() + 512, bytes, to))
                return ioFailed(QStringLiteral("Writing GRUB's core.img to %1").arg(m_j.target), e);
        }
        if (const int e = m_target->sync())
            return ioFailed(QStringLiteral("Syncing %1").arg(m_j.target), e);
        log(QStringLiteral("Cleared the old table of %1.").arg(m_j.target));
        return advance(Step::Copying);
    }

    qint64 firstStartBytes() const
    {
        qint64 first = plan().addsBiosBoot ? plan().biosBootStart : LLONG_MAX;
        for (const CopyPartitionPlan &p : plan().partitions)
            first = std::min(first, p.newStart);
        return first * tss();
    }

    void report(int index, CopyProgress::Step kind, const QString &step)
    {
        if (!m_cb.progress)
            return;
        CopyProgress progress;
        progress.partitionIndex = index;
        progress.partitionCount = plan().partitions.size();
        progress.partition = plan().partitions[index].sourceNumber;
        progress.stepKind = kind;
        progress.step = step;
        progress.bytesDone = m_done;
        progress.bytesTotal = m_total;
        const double seconds = m_timer.elapsed() / 1000.0;
        progress.bytesPerSecond = seconds > 0 ? m_doneThisRun / seconds : 0;
        progress.secondsLeft =
            progress.bytesPerSecond > 0
                ? double(m_total - std::min(m_total, m_done)) / progress.bytesPerSecond
                : 0;
        m_cb.progress(progress);
    }

    bool copyPartition(int i)
    {
        const CopyPartitionPlan &p = plan().partitions[i];
        if (p.data == CopyData::None || p.data == CopyData::Recreate || m_j.verified[i]) {
            m_done += p.data == CopyData::Shrunk ? p.bytesToCopy / 2 : p.bytesToCopy;
            return true;
        }
        std::unique_ptr<BlockIo> scratch;
        BlockIo *from = m_source.get();
        if (p.data == CopyData::Shrunk) {
            int error = 0;
            scratch =
                move::openFileBlockIo(m_data.scratchPath(p), BlockIo::Access::ReadOnly, &error);
            if (!scratch)
                return fail(QStringLiteral("The shrunk copy of partition %1 (%2) is gone; start "
                                           "the copy again.")
                                .arg(p.sourceNumber)
                                .arg(m_data.scratchPath(p)),
                            false);
            from = scratch.get();
        }
        const std::vector<Extent> chunks = copyChunksOf(m_data.extents(p));
        quint64 bytes = 0;
        for (const Extent &c : chunks)
            bytes += c.length;
        const quint64 planned = p.data == CopyData::Shrunk ? p.bytesToCopy / 2 : p.bytesToCopy;
        m_total = m_total - std::min(m_total, planned) + bytes;
        const QString signature = copyChunkSignature(chunks);
        if (m_j.chunkSignatures[i] != signature) {
            m_j.chunkSignatures[i] = signature;
            m_j.chunksDone[i] = 0;
            if (!save())
                return false;
        }
        log(QStringLiteral("Partition %1 -> %2: copying %3 chunks")
                .arg(p.sourceNumber)
                .arg(p.targetNumber)
                .arg(chunks.size()));
        ChunkCopyRequest request;
        request.from = from;
        request.fromBase = quint64(m_data.offset(p));
        request.to = m_target.get();
        request.toBase = quint64(p.newStart * tss());
        request.chunks = chunks;
        request.chunksDone = m_j.chunksDone[i];
        request.verify = m_j.verify;
        request.what = QStringLiteral("partition %1").arg(p.sourceNumber);
        request.cancelledText = QStringLiteral("Cancelled; the target has no partition table yet.");
        request.cancel = m_cb.cancel;
        request.persist = [&](qint64 done, QString *error) {
            m_j.chunksDone[i] = done;
            if (!m_j.save(m_path, error))
                return false;
            report(i, CopyProgress::Step::Copying, QStringLiteral("copying"));
            return true;
        };
        request.copied = [this](quint64 bytes, bool now) {
            m_done += bytes;
            if (now)
                m_doneThisRun += bytes;
        };
        request.verifying = [&] {
            report(i, CopyProgress::Step::Verifying, QStringLiteral("verifying"));
        };
        request.log = [this](const QString &line) { log(line); };
        const ChunkCopyResult copied = copyChunks(request);
        if (!copied.ok)
            return fail(copied.error);
        m_j.verified[i] = true;
        return save();
    }

    struct FixOutcome
    {
        bool ok = true;
        QString check, error;
        QStringList lines;
    };

    // What each filesystem records of itself, at its new place: done by offset inside the
    // target, before the table exists. Each step finds what an earlier run did and does it again
    // safely. The partitions are apart, so two are finished at a time (each one's check is most
    // of the copy's fixed cost); their log lines follow in partition order.
    bool fixPartitions()
    {
        const int count = int(plan().partitions.size());
        std::vector<FixOutcome> outcomes(static_cast<std::size_t>(count));
        twoAtATime(count, [&](int i) {
            if (m_j.fixed.at(i))
                return;
            FixOutcome &o = outcomes[std::size_t(i)];
            RedoJournal redo;
            redo.path = m_path + QStringLiteral(".p%1").arg(i + 1);
            redo.tag = quint64(i + 1);
            o.ok = finishCopiedFilesystem(
                m_j.target, plan().sourceSectorSize, tss(), plan().partitions.at(i), plan().newIds,
                redo, [&o](const QString &line) { o.lines << line; }, &o.check, &o.error);
        });
        QString firstError;
        for (int i = 0; i < count; ++i) {
            const FixOutcome &o = outcomes[std::size_t(i)];
            for (const QString &line : o.lines)
                log(line);
            if (!o.check.isEmpty())
                m_result.checks << o.check;
            if (o.ok)
                m_j.fixed[i] = true;
            else if (firstError.isEmpty())
                firstError = o.error;
        }
        if (!save())
            return false;
        return firstError.isEmpty() || fail(firstError);
    }

    // With new ids, what the copied files name follows them; repeated whole on a resume.
    bool followIdentities()
    {
        QString error;
        return followCopiedIdentities(
                   plan(), [this](const QString &line) { log(line); }, &m_result.checks, &error) ||
               fail(error);
    }

    // Last of all the table: only now does the target read as a disk with partitions.
    bool writeTable()
    {
        QString error;
        return writeCopyTable(
                   m_j, [this](const QString &line) { log(line); }, &error) ||
               fail(error);
    }

    CopyJournal &m_j;
    QString m_path;
    const CopyCallbacks &m_cb;
    CopyResult m_result;
    std::unique_ptr<BlockIo> m_source, m_target;
    int m_claim = -1;
    CopyDataOf m_data;
    quint64 m_total = 0, m_done = 0, m_doneThisRun = 0;
    QElapsedTimer m_timer;

public:
    ~CopyExecution() { releaseClaim(); }
};

CopyResult refused(const QString &error)
{
    CopyResult result;
    result.error = error;
    return result;
}

} // namespace

CopyResult runCopy(const PreparedCopy &prepared, const CopyOptions &options,
                   const CopyCallbacks &callbacks)
{
    const CopyPlan &plan = prepared.plan;
    if (!prepared.ok)
        return refused(prepared.error);
    if (!plan.ok())
        return refused(plan.refused.join(QLatin1Char(' ')));
    if (const QString boot = copyBootRefusal(plan, options.acceptBootChange); !boot.isEmpty())
        return refused(boot);
    // One write job per disk: another helper's Apply, realign or copy of this target waits.
    const DiskWriteLock lock(plan.target);
    if (!lock.ok())
        return refused(lock.error());
    const QString path = prepared.journalPath;
    if (QFile::exists(path))
        return refused(QStringLiteral("A copy onto %1 is unfinished (%2): run `partwise-cli "
                                      "resume %1` first.")
                           .arg(plan.target, path));
    // What was free when the plan was made is asked again right before the first write.
    QStringList busy = copySourceRefusals(plan.source, prepared.source.device.isImage);
    for (const QString &r : busyReasons(plan.target, 0))
        busy << QStringLiteral("The target is in use: ") + r;
    if (!busy.isEmpty())
        return refused(busy.join(QLatin1Char(' ')) + QStringLiteral(" Nothing was written."));

    TableBackup backup;
    QString error;
    const QString root = options.backupRoot.isEmpty() ? defaultBackupRoot() : options.backupRoot;
    if (!backupPartitionTable(plan.target, plan.targetSizeBytes, root, &backup, &error))
        return refused(error + QStringLiteral(" Nothing was written."));
    if (callbacks.log)
        callbacks.log(QStringLiteral("The target's table was saved in %1.").arg(backup.folder));

    CopyJournal journal;
    journal.source = plan.source;
    journal.target = plan.target;
    journal.targetIdentity = diskIdentityOf(plan.target);
    journal.verify = options.verify;
    journal.backupFolder = backup.folder;
    journal.plan = plan;
    for (const CopyPartitionPlan &p : plan.partitions) {
        (void)p;
        journal.chunksDone << 0;
        journal.chunkSignatures << QString();
        journal.verified << false;
        journal.fixed << false;
        if (p.data == CopyData::Shrunk)
            journal.scratchFolder = path + QStringLiteral(".scratch");
    }
    if (!journal.save(path, &error))
        return refused(error + QStringLiteral(" Nothing was written."));
    CopyExecution execution(journal, path, callbacks);
    const CopyDataOf::Planned planned{prepared.facts, prepared.sourceHold};
    if (prepared.sourceHold)
        execution.usePlanned(&planned);
    return execution.run();
}

CopyResult resumeCopy(const QString &target, const QString &journalPath,
                      const CopyCallbacks &callbacks)
{
    const DiskWriteLock lock(target); // the copy may still be running in another process
    if (!lock.ok())
        return refused(lock.error());
    const QString path = journalPath.isEmpty() ? copyJournalPath(target) : journalPath;
    CopyJournal journal;
    QString error;
    if (!CopyJournal::load(path, &journal, &error))
        return refused(error);
    if (!isSameDisk(journal.targetIdentity, target, &error))
        return refused(QStringLiteral("The copy journal %1 is not resumed on %2: %3. Nothing was "
                                      "written; the table of the disk it was written for, as it "
                                      "was before the copy, is saved in %4.")
                           .arg(path, target, error, journal.backupFolder));
    if (journal.target != target &&
        QFileInfo(journal.target).canonicalFilePath() != QFileInfo(target).canonicalFilePath())
        return refused(QStringLiteral("The journal %1 is of a copy onto %2, not %3.")
                           .arg(path, journal.target, target));
    if (!QFileInfo::exists(journal.source))
        return refused(QStringLiteral("The copy's source %1 is not there; it is needed to finish.")
                           .arg(journal.source));
    QStringList busy = copySourceRefusals(journal.source, QFileInfo(journal.source).isFile());
    if (journal.step == CopyJournal::Step::Planned || journal.step == CopyJournal::Step::Copying)
        for (const QString &r : busyReasons(target, 0))
            busy << QStringLiteral("The target is in use: ") + r;
    if (!busy.isEmpty())
        return refused(busy.join(QLatin1Char(' ')));
    if (callbacks.log)
        callbacks.log(QStringLiteral("Resuming the copy of %1 onto %2 at step %3.")
                          .arg(journal.source, target, copyStepName(journal.step)));
    return CopyExecution(journal, path, callbacks).run();
}

} // namespace partwise
