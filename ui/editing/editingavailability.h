#pragma once

// Which editing actions are offered for what is selected, and for each a sentence: what it does
// when offered, why not when greyed. A greyed item that says nothing leaves a person guessing,
// and Qt shows no tooltip on a disabled menu item: the sentence is the action's status tip too,
// which ui/disabledactionhints shows in the status bar while the mouse is over the item.

#include "editing/editingcontroller.h"
#include "table/disklayout.h"

#include <QString>

#include <optional>

struct EditingSituation
{
    std::optional<partwise::DiskLayout> base;      // the disk as read; none: no disk shown
    partwise::DiskLayout shown;                    // as the queue leaves it
    std::optional<partwise::PartitionInfo> region; // selected, in `shown`
    bool queued = false;                           // operations are pending
    QString previewError;                          // why the queue cannot be applied
    bool resizeThroughHelper = false;              // a helper reads the disk and cannot measure
};

struct ActionOffer
{
    bool enabled = false;
    QString tip; // what it does, or why it is not offered
};

// Every action but Copy, Paste (editingclipboard) and Undo/Redo (the undo group's own).
ActionOffer editingOffer(EditingController::Action action, const EditingSituation &situation);

// Why nothing can be written to the disk shown, or empty; Copy Partition and Copy Disk read it.
QString readOnlyReason(const partwise::DiskLayout &base);

// Sets the action's enabled state, its tooltip and its status tip from `offer`.
void applyOffer(QAction *action, const ActionOffer &offer);
