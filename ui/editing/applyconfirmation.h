#pragma once

// What the window asks before Apply writes: how many operations go to which disk, what each
// write destroys (formatting, deleting, a new table), that the table is backed up first but
// not the files, and the two things that could make the write lose data on this
// machine: a move journal kept in memory (a live session), and a drive whose SMART health is
// at risk.

#include "ops/operation.h"
#include "ops/operationboot.h"
#include "ops/operationpreview.h"
#include "table/disklayout.h"

#include <QList>
#include <QString>

#include <QCoreApplication>

struct ApplyConfirmation
{
    // The texts were the editing controller's, and keep their translations under its name.
    Q_DECLARE_TR_FUNCTIONS(EditingController)

public:
    // `path` is the disk's entry (this machine's path, or a helper's key), `name` what the
    // question calls it.
    static QString question(const QString &path, const QString &name,
                            const QList<partwise::Operation> &operations,
                            const partwise::DiskLayout &disk);
    // The commands that run beside the partitions' changes (pvresize of a physical volume),
    // as a paragraph to add; empty when none.
    static QString stepsText(const partwise::PreviewResult &preview);
    // What the queue's moves do to booting, as a paragraph to add; empty when nothing.
    static QString bootText(const partwise::OperationsBootEffect &boot);
};
