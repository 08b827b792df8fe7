#pragma once

#include "align/alignmentpolicy.h"
#include "ops/operation.h"
#include "table/disklayout.h"
#include "table/partedsession.h"

#include <QCoreApplication>
#include <QHash>

#include <memory>

typedef struct _PedDevice PedDevice;
typedef struct _PedDisk PedDisk;

namespace partwise {

struct RedoJournal; // fs/journaledresize.h

// Applies the table part of operations to libparted's in-memory copy of a disk. Nothing reaches
// the disk until commit(), so the same code previews the pending queue and applies it.
// Holds the libparted lock for its lifetime: keep it short-lived.
class TableEditor
{
    // Its errors reach the GUI's dialogs (translated there; partwise-cli stays English).
    Q_DECLARE_TR_FUNCTIONS(TableEditor)

public:
    explicit TableEditor(PartedSession::Resolver resolver = {});
    ~TableEditor();
    TableEditor(const TableEditor &) = delete;
    TableEditor &operator=(const TableEditor &) = delete;

    // Opens the disk `current` was read from, in the same sector size.
    bool open(const DiskLayout &current, QString *error);
    // Builds `current`'s table afresh on `scratch`, a file of the disk's size (sparse), with
    // every partition at its sector and number, its flags and name: a disk this process cannot
    // open (a helper's) is edited in libparted's terms all the same. commit() would write to
    // `scratch`, never to the disk.
    bool openReplica(const DiskLayout &current, const QString &scratch, QString *error);

    // Changes the in-memory table. For Create and Paste, `*number` receives the new partition's
    // number. A Paste needs its source read (ops/pastesource.h) and places a partition at least
    // as large as the source's filesystem, with its filesystem and label (the data follows in
    // Apply).
    bool apply(const Operation &op, const AlignmentPolicy &policy, QString *error,
               int *number = nullptr);

    // Moves partition `number` to exactly [start, end] (realignment; the data is moved
    // separately). libparted rewrites a logical partition's EBR.
    bool setGeometry(int number, qint64 start, qint64 end, QString *error);

    // The table as it now stands, with filesystems as the operations left them.
    DiskLayout layout() const;

    // Writes the table (and, for block devices, tells the kernel about it); with `redo`, through
    // a redo record a power cut cannot leave half applied (ops/journaledtablecommit.h).
    bool commit(QString *error, const RedoJournal *redo = nullptr);

    const PartedSession &session() const { return m_session; }

private:
    bool create(const Operation &op, const AlignmentPolicy &policy, QString *error, int *number,
                EndRounding rounding = EndRounding::Down);
    bool paste(const Operation &op, const AlignmentPolicy &policy, QString *error, int *number);
    bool resize(const Operation &op, const AlignmentPolicy &policy, QString *error);
    bool addReplicaPartition(const PartitionInfo &p, QString *error);
    void rememberFilesystems(const DiskLayout &current);
    QString replicaNode(int number) const;
    // Why an operation on a partition cannot be done to a disk whose whole device is a filesystem.
    QString wholeDiskRefusal(const Operation &op) const;
    struct FsInfo
    {
        QString filesystem, label, uuid;
    };

    PartedSession m_session;
    DiskLayout m_base;
    PedDevice *m_device = nullptr;
    PedDisk *m_disk = nullptr;
    QHash<qint64, FsInfo> m_filesystems; // by start sector: numbers shift, starts don't
    bool m_replica = false;
    bool m_newTable = false; // a NewTable replaced what was read (a hybrid ISO, a foreign label)
};

} // namespace partwise
