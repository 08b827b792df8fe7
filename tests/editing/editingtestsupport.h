// Helpers shared by the editing suites: images, exact comparisons of layouts and queues,
// screenshots, and an Apply through the Apply dialog's worker thread.
#pragma once

#include "editing/applydialog.h"
#include "ops/operation.h"
#include "table/disklayout.h"

#include <QList>
#include <QString>
#include <QStringList>

class QTemporaryDir;

inline constexpr qint64 kMiB = qint64(1) << 20;

// An empty (sparse) file of `bytes` in `dir`; empty string on failure.
QString blankImage(const QTemporaryDir &dir, const QString &name, qint64 bytes);
// <build>/screenshots/NAME.png (the folder is created).
QString screenshotPath(const QString &name);

// Everything a region shows, so two layouts can be compared exactly.
QString fingerprint(const partwise::DiskLayout &layout);
// Every field of an operation, for exact comparisons of queues and plans.
QString describeFully(const partwise::Operation &op);
QStringList describeAll(const QList<partwise::Operation> &ops);

// The row of partition `number` in `layout`, or -1.
int rowOf(const partwise::DiskLayout &layout, int number);
const partwise::PartitionInfo *largestFree(const partwise::DiskLayout &layout,
                                           bool insideExtended = false);
partwise::Operation newTable(const QString &type);

// Applies through ApplyDialog's worker thread and waits for it.
partwise::ApplyResult applyWithDialog(const QString &target, const QList<partwise::Operation> &ops,
                                      qint64 forcedSectorSize, QString *log = nullptr,
                                      const QString &screenshot = QString());
