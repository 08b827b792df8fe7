#include "cli/applycommand.h"

#include "align/misalignmentreport.h"
#include "cli/unmountforjob.h"
#include "device/drivehealth.h"
#include "ops/identityfollow.h"
#include "ops/operationboot.h"
#include "ops/operationpreview.h"
#include "ops/pasteboot.h"
#include "ops/pastesource.h"
#include "ops/planfile.h"
#include "ops/tablebackup.h"
#include "ops/tablerestorecheck.h"
#include "report/checkreport.h"
#include "table/diskreader.h"

#include <QFile>
#include <QFileInfo>

namespace partwise {

int runApplyCommand(const ApplyCommandOptions &options, QTextStream &out, QTextStream &err,
                    const std::function<bool(const QString &)> &confirm)
{
    QFile planFile(options.planPath);
    if (!planFile.open(QIODevice::ReadOnly)) {
        err << "partwise-cli: cannot read the plan " << options.planPath << ": "
            << planFile.errorString() << "\n";
        return ExitBadInput;
    }
    QList<Operation> operations;
    QString error;
    if (!parsePlan(planFile.readAll(), &operations, &error)) {
        err << "partwise-cli: " << options.planPath << ": " << error << "\n";
        return ExitBadInput;
    }
    // A plan file has no other way to give a passphrase; refused before anything is written.
    for (int i = 0; i < operations.size(); ++i)
        if (operations[i].filesystem == QLatin1String("luks2") && operations[i].keyFile.isEmpty()) {
            err << "partwise-cli: " << options.planPath << ": operation " << i + 1
                << ": a LUKS2 volume needs \"key_file\", the file holding its passphrase (a "
                   "plan never holds a passphrase itself).\n";
            return ExitBadInput;
        }
    // What each paste copies, read (without writing) so the plan below shows it.
    if (!resolvePasteSources(&operations, &error)) {
        err << "partwise-cli: " << error << "\nNothing was changed.\n";
        return ExitBadInput;
    }
    DiskReadOptions ro;
    ro.forcedSectorSize = options.apply.forcedSectorSize;
    const DiskReadResult read = readDisk(options.target, ro);
    if (!read.ok) {
        err << "partwise-cli: " << read.error << "\n";
        return ExitBadInput;
    }
    chooseNewIdentities(read.layout, &operations); // shown below, and what Apply writes
    const PreviewResult preview = previewOperations(read.layout, operations, options.apply.policy);
    if (!preview.ok) {
        err << "partwise-cli: operation " << preview.failedIndex + 1 << " ("
            << operations.value(preview.failedIndex).description()
            << ") cannot be done: " << preview.error << "\nNothing was changed.\n";
        return ExitBadInput;
    }
    out << "Plan for " << options.target << ":\n";
    for (int i = 0; i < operations.size(); ++i) {
        out << "  " << i + 1 << ". " << operations[i].description() << "\n";
        for (const auto &[index, line] : preview.steps)
            if (index == i)
                out << "     " << line << "\n";
    }
    if (const QString destroyed =
            destroyedByNewTable(operations, options.target, read.layout.wholeDiskFilesystemName());
        !destroyed.isEmpty())
        out << "  " << destroyed << "\n";
    // What the moves do to booting; Apply itself checks again before it writes.
    OperationsBootEffect boot = readBootEffectOfOperations(read.layout, preview.moves);
    addPasteBootEffects(options.target, operations, preview.pastes, &boot);
    for (const QString &line : boot.lines())
        out << "  " << line << "\n";
    for (const QString &note : boot.notes)
        out << "  boot: " << note << "\n";
    out << "\nThe disk afterwards:\n"
        << diskCheckToText(
               {preview.layout, analyzeAlignment(preview.layout, options.apply.policy), {}});
    out.flush();
    if (boot.breaksBoot() && !options.apply.acceptBootChange) {
        err << "partwise-cli: this plan stops a boot loader working (\"boot BREAKS\" above), so "
               "nothing was changed. Run again with --accept-boot-change to apply it anyway, "
               "then repair it as shown.\n";
        return ExitMisalignedOrFailed;
    }
    if (!read.layout.device.isImage) {
        const DriveHealth health = judgeDriveHealth(readDriveReport(options.target));
        if (health.risky())
            err << "partwise-cli: warning: " << riskyDriveWarning(options.target, health) << "\n";
        err.flush();
    }
    if (!options.assumeYes &&
        !(confirm && confirm(QStringLiteral("Write these changes to %1?").arg(options.target)))) {
        err << "partwise-cli: not confirmed; nothing was changed (use --yes in scripts).\n";
        return ExitMisalignedOrFailed;
    }
    ApplyCallbacks callbacks;
    callbacks.log = [&out](const QString &line) {
        out << line << "\n";
        out.flush();
    };
    // A plan that changes the table needs every partition free; one of filesystem work only
    // (format, label, check) needs only its own.
    QList<ReleasedPartition> released;
    if (options.unmount) {
        QList<int> numbers;
        for (const Operation &op : operations)
            numbers << (op.changesTable() ? 0 : op.number);
        if (!releaseForJob(options.target, numbers.contains(0) ? QList<int>() : numbers, out, err,
                           &released))
            return ExitMisalignedOrFailed;
    }
    const ApplyResult result =
        applyOperations(options.target, operations, options.apply, callbacks);
    const bool restored = restoreAfterJob(released, result.resumable, out, err);
    if (!result.ok) {
        err << "partwise-cli: " << result.error << "\n";
        return result.completed == 0 && result.backupFolder.isEmpty() ? ExitBadInput
                                                                      : ExitMisalignedOrFailed;
    }
    return restored ? ExitOk : ExitMisalignedOrFailed;
}

int runRestoreCommand(const RestoreCommandOptions &options, QTextStream &out, QTextStream &err,
                      const std::function<bool(const QString &)> &confirm)
{
    const TableRestoreCheck check =
        checkTableRestore(options.backupFolder, options.target, options.journalPath);
    if (!check.ok()) {
        err << "partwise-cli: " << check.refusal << "\n";
        return ExitMisalignedOrFailed;
    }
    out << "Restoring the partition table of " << options.backupFolder << " onto " << options.target
        << ":\n";
    for (const QString &line : check.changes)
        out << "  " << line << "\n";
    if (check.changes.isEmpty())
        out << "  the partitions are the backup's already; the table's bytes go back\n";
    out << "No partition's data was moved since the backup: its data is where this table "
           "points.\n";
    out.flush();
    if (!options.assumeYes &&
        !(confirm &&
          confirm(QStringLiteral("Write this partition table to %1?").arg(options.target)))) {
        err << "partwise-cli: not confirmed; nothing was written (use --yes in scripts).\n";
        return ExitMisalignedOrFailed;
    }
    QString error;
    if (!restorePartitionTable(options.backupFolder, options.target, &error)) {
        err << "partwise-cli: " << error << "\n";
        return ExitMisalignedOrFailed;
    }
    out << "Restored the partition table of " << options.target << " from " << options.backupFolder
        << ".\n";
    // Written behind the kernel's back (raw sectors and sfdisk --no-tell-kernel): nothing on
    // the disk was in use, so it may read the table again now.
    if (!QFileInfo(options.target).isFile())
        out << "The kernel still knows the partitions as they were: run `partx -u "
            << options.target << "` (or reboot) before using them.\n";
    return ExitOk;
}

} // namespace partwise
