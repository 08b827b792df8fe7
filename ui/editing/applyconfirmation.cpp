#include "editing/applyconfirmation.h"

#include "device/drivehealth.h"
#include "drivehealthtext.h"
#include "editing/editingtext.h"
#include "journalpreferences.h"
#include "move/journaldurability.h"
#include "ops/writejournal.h"

#include <algorithm>

using namespace partwise;

namespace {

// A resize that gives a partition a new start copies its data through the journaled mover.
bool movesData(const QList<Operation> &operations)
{
    return std::any_of(operations.cbegin(), operations.cend(), [](const Operation &op) {
        return op.type == Operation::Type::Resize && op.startBytes >= 0;
    });
}

// "partition 5 (ext4 “music”)": what is on it as the disk was read, while no earlier operation
// of the queue changed the table (after one, its numbers may name other partitions).
QString partitionName(int number, const DiskLayout &disk, bool tableChanged)
{
    const PartitionInfo *p = tableChanged ? nullptr : disk.partitionByNumber(number);
    if (!p || p->filesystem.isEmpty())
        return ApplyConfirmation::tr("partition %1").arg(number);
    if (p->label.isEmpty())
        return ApplyConfirmation::tr("partition %1 (%2)").arg(number).arg(p->filesystem);
    return ApplyConfirmation::tr("partition %1 (%2 “%3”)").arg(number).arg(p->filesystem, p->label);
}

// What each write destroys, one line each: formatting, deleting, a new table.
QStringList destroyed(const QList<Operation> &operations, const DiskLayout &disk)
{
    QStringList lines;
    bool tableChanged = false;
    for (const Operation &op : operations) {
        const QString name = partitionName(op.number, disk, tableChanged);
        if (op.type == Operation::Type::Format)
            lines << ApplyConfirmation::tr("Formatting %1 as %2 erases every file on it.")
                         .arg(name, op.filesystem);
        else if (op.type == Operation::Type::Delete)
            lines << ApplyConfirmation::tr(
                         "Deleting %1 loses every file on it: nothing points at them afterwards.")
                         .arg(name);
        else if (op.type == Operation::Type::NewTable &&
                 (tableChanged || !disk.partitions().isEmpty()))
            lines << ApplyConfirmation::tr("The new partition table loses every partition on "
                                           "the disk, and every file on them.");
        tableChanged = tableChanged || op.changesTable();
    }
    return lines;
}

} // namespace

QString ApplyConfirmation::stepsText(const PreviewResult &preview)
{
    if (preview.steps.isEmpty())
        return QString();
    QString text = QStringLiteral("\n\n") + tr("With the partitions, Partwise runs:");
    for (const auto &[index, line] : preview.steps)
        text += QStringLiteral("\n• %1. %2").arg(index + 1).arg(line);
    return text;
}

QString ApplyConfirmation::question(const QString &path, const QString &name,
                                    const QList<Operation> &operations, const DiskLayout &disk)
{
    QString question = tr("Write %1 to %2 now?").arg(operationCountText(operations.size()), name);
    const QStringList lost = destroyed(operations, disk);
    if (!lost.isEmpty())
        question += QStringLiteral("\n");
    for (const QString &line : lost)
        question += QStringLiteral("\n• ") + line;
    // The backup holds the table, never the files: said so where files are lost.
    question += QStringLiteral("\n\n") +
                (lost.isEmpty() ? tr("The partition table is backed up first; the log says where "
                                     "and how to restore it.")
                                : tr("The partition table is backed up first (the log says where "
                                     "and how to restore it), but not the files: only a backup "
                                     "of your own brings them back."));
    // A helper's disk keeps its journal on the helper's machine, where this cannot look.
    if (movesData(operations) && !disk.device.readByHelper) {
        const partwise::move::JournalDurability journal = partwise::move::journalDurability(
            WriteJournal::defaultPath(path, JournalPreferences::folder()));
        if (!journal.survivesPowerCut)
            question += QStringLiteral("\n\n") +
                        tr("Moving data is journaled in memory here (%1, as in a live session): a "
                           "power cut during the move would lose the journal, and with it the "
                           "record of where the data is. Choose a folder for move journals on "
                           "another disk in Preferences, or keep the computer on mains power.")
                            .arg(journal.filesystem);
    }
    // The drive's report came with the disk (DiskService asks it off the GUI thread).
    if (!disk.device.isImage) {
        const DriveHealth health = judgeDriveHealth(disk.device.drive);
        if (health.risky())
            question += QStringLiteral("\n\n") + riskyDriveSentence(health);
    }
    return question;
}

QString ApplyConfirmation::bootText(const OperationsBootEffect &boot)
{
    if (boot.fixes.isEmpty() && !boot.breaksBoot())
        return QString();
    // The sentences are core's, in English, as the realignment wizard shows them.
    QString text = QStringLiteral("\n\n") + tr("What this does to booting:");
    for (const QString &line : boot.lines())
        text += QStringLiteral("\n• ") + line;
    if (boot.breaksBoot())
        text += QStringLiteral("\n\n") +
                tr("A boot loader stops working. Apply writes only once you accept that and "
                   "will repair it with the commands shown.");
    return text;
}
