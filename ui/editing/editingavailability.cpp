#include "editing/editingavailability.h"

#include "fs/filesystemuuid.h"

#include <QAction>
#include <QCoreApplication>

using namespace partwise;

namespace {

using Action = EditingController::Action;

// The translation context of the sentences below.
class EditingAvailability
{
    Q_DECLARE_TR_FUNCTIONS(EditingAvailability)
};

ActionOffer yes(const QString &does)
{
    return {true, does};
}

ActionOffer no(const QString &why)
{
    return {false, why};
}

// What each action does, shown while it is offered.
QString does(Action action, const EditingSituation &s)
{
    switch (action) {
    case Action::NewTable:
        return EditingAvailability::tr(
            "Replace the partition table with a new, empty one: every partition on the "
            "disk is lost");
    case Action::Create:
        return EditingAvailability::tr("Create a partition in the selected unallocated space");
    case Action::Resize:
        return EditingAvailability::tr("Change the size of the partition or move it");
    case Action::Delete:
        return EditingAvailability::tr("Delete the selected partition: its files are lost");
    case Action::Format:
        return EditingAvailability::tr(
            "Create a new filesystem on the partition: its files are lost");
    case Action::SetLabel:
        return EditingAvailability::tr("Change the label of the filesystem");
    case Action::SetName:
        return EditingAvailability::tr("Change the name of the GPT partition");
    case Action::Flags:
        return EditingAvailability::tr("Set the flags of the partition (boot, esp, …)");
    case Action::Check:
        return EditingAvailability::tr(
            "Check the filesystem with its own tool, and repair it if asked");
    case Action::NewUuid:
        return EditingAvailability::tr("Give the %1 filesystem a new random UUID")
            .arg(s.region->filesystem);
    case Action::NewPartitionGuid:
        return EditingAvailability::tr("Give the GPT partition a new unique GUID (its PARTUUID)");
    case Action::Clear:
        return EditingAvailability::tr("Forget every pending operation");
    case Action::SavePlan:
        return EditingAvailability::tr("Save the queue as a plan file for partwise-cli apply");
    case Action::LoadPlan:
        return EditingAvailability::tr("Queue the operations of a plan file");
    case Action::Apply:
        return EditingAvailability::tr("Write the pending operations to the disk");
    default:
        return QString();
    }
}

bool needsPartition(Action a)
{
    return a == Action::Resize || a == Action::Delete || a == Action::Format ||
           a == Action::SetLabel || a == Action::SetName || a == Action::Flags ||
           a == Action::Check || a == Action::NewUuid || a == Action::NewPartitionGuid;
}

bool needsFilesystemSpace(Action a) // the partition itself holds data, not logical partitions
{
    return a == Action::Resize || a == Action::Format || a == Action::SetLabel ||
           a == Action::Check || a == Action::NewUuid || a == Action::NewPartitionGuid;
}

// Why an action on the selected partition is not offered, or empty.
QString partitionProblem(Action a, const EditingSituation &s)
{
    const std::optional<PartitionInfo> &r = s.region;
    if (!r || r->isFree())
        return EditingAvailability::tr(
            "Select a partition first: this acts on a partition, not on unallocated "
            "space.");
    if (needsFilesystemSpace(a) && r->isContainer())
        return EditingAvailability::tr(
            "An extended partition only holds the logical partitions inside it: select "
            "one of them.");
    const bool gpt = s.shown.tableType == QLatin1String("gpt");
    if ((a == Action::SetName || a == Action::NewPartitionGuid) && !gpt)
        return a == Action::SetName
                   ? EditingAvailability::tr(
                         "Only GPT partitions have names; this disk has an MBR (msdos) table.")
                   : EditingAvailability::tr(
                         "Only GPT partitions have a GUID; this disk has an MBR (msdos) table.");
    const bool noFs = r->filesystem.isEmpty();
    if ((a == Action::SetLabel || a == Action::Check || a == Action::NewUuid) && noFs)
        return EditingAvailability::tr("Partition %1 holds no filesystem Partwise recognises.")
            .arg(r->number);
    if (a == Action::NewUuid && !canChangeFilesystemUuid(r->filesystem))
        return EditingAvailability::tr(
                   "Partwise cannot give a %1 filesystem a new UUID; it can for ext2/3/4, XFS, "
                   "btrfs, FAT, exFAT, NTFS and swap.")
            .arg(r->filesystem);
    if (a == Action::Resize && s.resizeThroughHelper)
        return EditingAvailability::tr(
            "Resizing is not offered yet for a disk its helper reads; use partwise-cli "
            "apply on that machine, or realign.");
    return QString();
}

} // namespace

QString readOnlyReason(const DiskLayout &base)
{
    if (!base.device.readOnly)
        return QString();
    return EditingAvailability::tr(
               "%1 is read-only: Partwise reads it and writes nothing to it. Copy Partition and "
               "Drive → Copy Disk To… copy from it.")
        .arg(base.device.path);
}

ActionOffer editingOffer(Action a, const EditingSituation &s)
{
    if (!s.base)
        return no(EditingAvailability::tr("Open a disk or a disk image first."));
    if (const QString readOnly = readOnlyReason(*s.base); !readOnly.isEmpty())
        return no(readOnly);
    if (a == Action::NewTable || a == Action::LoadPlan)
        return yes(does(a, s));
    if (a == Action::Clear || a == Action::SavePlan || a == Action::Apply) {
        if (!s.queued)
            return no(EditingAvailability::tr("No operations are pending."));
        if (a == Action::Apply && !s.previewError.isEmpty())
            return no(EditingAvailability::tr("The pending operations cannot be applied: %1")
                          .arg(s.previewError));
        return yes(does(a, s));
    }
    if (s.shown.tableType.isEmpty())
        return no(EditingAvailability::tr(
            "This disk has no partition table: create one with New Partition Table… "
            "first."));
    if (a == Action::Create)
        return s.region && s.region->isFree()
                   ? yes(does(a, s))
                   : no(EditingAvailability::tr(
                         "Select unallocated space first: a new partition goes there."));
    if (needsPartition(a))
        if (const QString problem = partitionProblem(a, s); !problem.isEmpty())
            return no(problem);
    return yes(does(a, s));
}

void applyOffer(QAction *action, const ActionOffer &offer)
{
    action->setEnabled(offer.enabled);
    action->setToolTip(offer.tip);
    action->setStatusTip(offer.tip);
}
