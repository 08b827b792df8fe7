#include "ops/applyrunner.h"

#include "align/alignmentgeometry.h"
#include "device/busycheck.h"
#include "device/loopattachment.h"
#include "fs/filesystemformatter.h"
#include "fs/filesystemresize.h"
#include "fs/filesystemsize.h"
#include "fs/filesystemtools.h"
#include "ops/operationpreview.h"
#include "ops/partitionaccess.h"
#include "ops/realignrunner.h"
#include "ops/tablebackup.h"
#include "ops/tableeditor.h"
#include "table/diskreader.h"

namespace {

class ApplySession
{
public:
    ApplySession(const QString &target, const ApplyOptions &options,
                 const ApplyCallbacks &callbacks, ApplyResult &result)
        : m_target(target), m_options(options), m_callbacks(callbacks), m_result(result)
    {
    }

    void log(const QString &line)
    {
        m_result.log << line;
        if (m_callbacks.log)
            m_callbacks.log(line);
    }

    bool read(DiskLayout *layout, QString *error)
    {
        DiskReadOptions ro;
        ro.forcedSectorSize = m_options.forcedSectorSize;
        const DiskReadResult r = readDisk(m_target, ro);
        if (!r.ok) {
            *error = r.error;
            return false;
        }
        *layout = r.layout;
        return true;
    }

    bool runOne(const Operation &op, QString *error)
    {
        DiskLayout before;
        if (!read(&before, error))
            return false;
        if (op.type == Operation::Type::Resize)
            return resize(op, before, error);
        int number = op.number;
        if (op.changesTable()) {
            TableEditor editor(m_callbacks.ask);
            if (!editor.open(before, error) ||
                !editor.apply(op, m_options.policy, error, &number) || !editor.commit(error))
                return false;
        }
        if (op.type == Operation::Type::Create && op.filesystem.isEmpty())
            return true;
        if (op.type == Operation::Type::Create || op.type == Operation::Type::Format)
            return format(number, op, error);
        if (op.type == Operation::Type::SetLabel || op.type == Operation::Type::Check)
            return withDeviceNode(
                number, op.type == Operation::Type::Check && !op.repair, error,
                [&](const QString &node, const PartitionInfo &p) {
                    const ToolResult r = op.type == Operation::Type::Check
                                             ? checkFilesystem(node, p.filesystem, op.repair)
                                             : relabelFilesystem(node, p.filesystem, op.label);
                    log(QStringLiteral("  $ %1\n%2").arg(r.command, r.output.trimmed()));
                    if (!r.ok)
                        *error = r.error;
                    return r.ok;
                });
        return true;
    }

private:
    // Resize (and move, when the start changes): the filesystem shrinks before the partition
    // does and grows after it did; a new start moves the data through the journaled
    // realignment machinery, so a resize that moves is as crash-safe as a realignment.
    bool resize(const Operation &op, const DiskLayout &before, QString *error)
    {
        const PartitionInfo *old = before.partitionByNumber(op.number);
        if (!old) {
            *error = QStringLiteral("There is no partition %1.").arg(op.number);
            return false;
        }
        const qint64 ss = before.device.topology.logicalSectorSize;
        qint64 newStart = 0, newEnd = 0;
        {
            TableEditor editor(m_callbacks.ask);
            if (!editor.open(before, error) || !editor.apply(op, m_options.policy, error))
                return false;
            const PartitionInfo *p = editor.layout().partitionByNumber(op.number);
            newStart = p->startSector;
            newEnd = p->endSector;
        }
        const qint64 oldBytes = old->lengthSectors() * ss;
        const qint64 newBytes = (newEnd - newStart + 1) * ss;
        FilesystemLocation where = partitionLocation(before, old->startSector, op.number);
        const qint64 fsBytes = filesystemSizeBytes(where, old->filesystem).value_or(oldBytes);
        if (newBytes < fsBytes && !canShrinkUnmounted(old->filesystem)) {
            *error =
                QStringLiteral("The %1 filesystem on partition %2 cannot be shrunk by Partwise.")
                    .arg(old->filesystem)
                    .arg(op.number);
            return false;
        }
        if (newStart != old->startSector) {
            PreparedRealign prepared;
            prepared.ok = true;
            prepared.layout = before;
            prepared.plan.geometry =
                resolveAlignmentGeometry(before.device.topology, m_options.policy);
            PartitionMove m;
            m.number = op.number;
            m.kind = old->kind;
            m.filesystem = old->filesystem;
            m.label = old->label;
            m.uuid = old->uuid;
            m.oldStart = old->startSector;
            m.oldEnd = old->endSector;
            m.newStart = newStart;
            m.newEnd = newEnd;
            m.recreateSwap = old->filesystem == QLatin1String("swap");
            m.shrinkSectors = newBytes < fsBytes ? (fsBytes - newBytes + ss - 1) / ss : 0;
            prepared.plan.moves << m;
            RealignOptions ro;
            ro.policy = m_options.policy;
            ro.forcedSectorSize = m_options.forcedSectorSize;
            ro.backupRoot = m_options.backupRoot;
            ro.journalFolder = m_options.journalFolder;
            RealignCallbacks rc;
            rc.log = m_callbacks.log;
            const RealignResult moved = runRealignment(m_target, prepared, ro, rc);
            if (!moved.ok) {
                *error = moved.error;
                return false;
            }
            where.offset = newStart * ss;
        } else {
            if (newBytes < fsBytes &&
                !resized(resizeFilesystem(where, oldBytes, old->filesystem, newBytes), error))
                return false;
            TableEditor editor(m_callbacks.ask);
            if (!editor.open(before, error) || !editor.apply(op, m_options.policy, error) ||
                !editor.commit(error))
                return false;
        }
        if (newBytes > fsBytes && old->filesystem != QLatin1String("swap")) {
            if (!canGrowUnmounted(old->filesystem)) {
                log(QStringLiteral("  the %1 filesystem keeps its size; grow it once mounted")
                        .arg(old->filesystem));
                return true;
            }
            DiskLayout after;
            if (!read(&after, error))
                return false;
            where = partitionLocation(after, newStart, op.number);
            return resized(resizeFilesystem(where, newBytes, old->filesystem, newBytes), error);
        }
        if (old->filesystem == QLatin1String("swap") && newStart == old->startSector &&
            newBytes != oldBytes)
            return recreateSwap(op.number, *old, error);
        return true;
    }

    bool resized(const ToolResult &r, QString *error)
    {
        log(QStringLiteral("  $ %1").arg(r.command));
        if (!r.ok)
            *error = r.error;
        return r.ok;
    }

    bool recreateSwap(int number, const PartitionInfo &old, QString *error)
    {
        Operation op;
        op.filesystem = QStringLiteral("swap");
        op.label = old.label;
        return format(number, op, error, old.uuid);
    }

    bool partition(int number, DiskLayout *layout, PartitionInfo *part, QString *error)
    {
        if (!read(layout, error))
            return false;
        const PartitionInfo *p = layout->partitionByNumber(number);
        if (!p) {
            *error = QStringLiteral("Partition %1 is not on the disk.").arg(number);
            return false;
        }
        *part = *p;
        return true;
    }

    bool format(int number, const Operation &op, QString *error, const QString &uuid = QString())
    {
        DiskLayout layout;
        PartitionInfo p;
        if (!partition(number, &layout, &p, error))
            return false;
        const qint64 ss = layout.device.topology.logicalSectorSize;
        FormatRequest req;
        req.filesystem = op.filesystem;
        req.label = op.label;
        req.uuid = uuid;
        const FilesystemLocation where = partitionLocation(layout, p.startSector, number);
        req.targetIsImage = where.isImage;
        req.target = where.path;
        req.offsetBytes = p.startSector * ss;
        req.sizeBytes = p.lengthSectors() * ss;
        req.startSector = p.startSector;
        req.logicalSectorSize = ss;
        req.grainBytes =
            resolveAlignmentGeometry(layout.device.topology, m_options.policy).grainBytes;
        const ToolResult r = formatFilesystem(req);
        log(QStringLiteral("  $ %1").arg(r.command));
        if (!r.ok)
            *error = r.error;
        return r.ok;
    }

    template <typename Action>
    bool withDeviceNode(int number, bool readOnly, QString *error, Action action)
    {
        DiskLayout layout;
        PartitionInfo p;
        if (!partition(number, &layout, &p, error))
            return false;
        const FilesystemLocation where = partitionLocation(layout, p.startSector, number);
        if (!where.isImage)
            return action(where.path, p);
        const qint64 ss = layout.device.topology.logicalSectorSize;
        LoopAttachment loop(m_target, p.startSector * ss, p.lengthSectors() * ss, readOnly);
        if (!loop.ok()) {
            *error = loop.error();
            return false;
        }
        return action(loop.device(), p);
    }

    QString m_target;
    const ApplyOptions &m_options;
    const ApplyCallbacks &m_callbacks;
    ApplyResult &m_result;
};

QStringList busyFor(const QString &target, const QList<Operation> &operations)
{
    QStringList reasons;
    for (const Operation &op : operations) {
        if (op.type == Operation::Type::Create || (op.type == Operation::Type::Check && !op.repair))
            continue;
        const int number = op.type == Operation::Type::NewTable ? 0 : op.number;
        for (const QString &r : busyReasons(target, number))
            if (!reasons.contains(r))
                reasons << r;
    }
    return reasons;
}

QString summary(const DiskLayout &layout)
{
    QStringList rows;
    for (const PartitionInfo &p : layout.partitions())
        rows << QStringLiteral("#%1 %2–%3 %4")
                    .arg(p.number)
                    .arg(p.startSector)
                    .arg(p.endSector)
                    .arg(p.filesystem);
    return rows.isEmpty() ? QStringLiteral("no partitions") : rows.join(QStringLiteral("; "));
}

} // namespace

ApplyResult applyOperations(const QString &target, const QList<Operation> &operations,
                            const ApplyOptions &options, const ApplyCallbacks &callbacks)
{
    ApplyResult result;
    ApplySession session(target, options, callbacks, result);
    DiskLayout current;
    if (!session.read(&current, &result.error))
        return result;
    if (current.device.readOnly) {
        result.error = QStringLiteral("%1 is read-only; nothing was changed.").arg(target);
        return result;
    }
    const PreviewResult preview = previewOperations(current, operations, options.policy);
    if (!preview.ok) {
        result.error = QStringLiteral("Operation %1 (%2) cannot be done: %3 Nothing was changed.")
                           .arg(preview.failedIndex + 1)
                           .arg(operations.value(preview.failedIndex).description(), preview.error);
        return result;
    }
    if (const QStringList busy = busyFor(target, operations); !busy.isEmpty()) {
        result.error = QStringLiteral("Refusing to change partitions in use: %1. Unmount them (or "
                                      "swapoff) and try again; nothing was changed.")
                           .arg(busy.join(QStringLiteral("; ")));
        return result;
    }

    TableBackup backup;
    const QString root = options.backupRoot.isEmpty() ? defaultBackupRoot() : options.backupRoot;
    if (!backupPartitionTable(target, current.device.sizeBytes, root, &backup, &result.error)) {
        result.error = QStringLiteral("Could not back up the partition table, so nothing was "
                                      "changed: %1")
                           .arg(result.error);
        return result;
    }
    result.backupFolder = backup.folder;
    session.log(QStringLiteral("Partition table backed up to %1\n%2")
                    .arg(backup.folder, backup.restoreInstructions));

    for (int i = 0; i < operations.size(); ++i) {
        session.log(QStringLiteral("[%1/%2] %3")
                        .arg(i + 1)
                        .arg(operations.size())
                        .arg(operations[i].description()));
        QString error;
        if (!session.runOne(operations[i], &error)) {
            DiskLayout now;
            QString readError;
            const QString state = session.read(&now, &readError) ? summary(now) : readError;
            result.error = QStringLiteral("Operation %1 (%2) failed: %3\nOperations 1–%4 were "
                                          "applied; the rest were not. The disk now holds: %5.\n"
                                          "The table before Apply is saved in %6.")
                               .arg(i + 1)
                               .arg(operations[i].description(), error)
                               .arg(i)
                               .arg(state, backup.folder);
            session.log(result.error);
            return result;
        }
        result.completed = i + 1;
        if (callbacks.progress)
            callbacks.progress(i + 1, operations.size());
    }
    result.ok = true;
    session.log(QStringLiteral("All %1 operations applied.").arg(operations.size()));
    return result;
}
