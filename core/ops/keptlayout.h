#pragma once

#include "device/exclusiveclaim.h"
#include "device/opendisk.h"
#include "move/blockio.h"
#include "table/disklayout.h"

#include <QByteArray>

#include <memory>
#include <optional>

namespace partwise {

// A disk as a write job knows it between its steps: read whole once (tables, filesystems,
// through one open descriptor), then kept as the job's own writes leave it. Before a later step
// only what another program could have changed is looked at again, cheaply: the name still
// leads to the disk opened, and the sectors holding the table hold the bytes the job left.
// Reading the whole disk before every step (filesystem probes of every partition each time)
// was most of a realignment's time.
class KeptLayout
{
public:
    // `resumeCommand` is what a person runs to finish after a refusal.
    KeptLayout(const QString &target, qint64 sectorSize, const QString &resumeCommand);
    // The same for `opened`, the disk the job's entry opened (and planned from): no second
    // open by name. Null: the target is opened on the first read.
    KeptLayout(std::shared_ptr<const OpenDisk> opened, const QString &target, qint64 sectorSize,
               const QString &resumeCommand);

    // The layout: read the first time, verified unchanged afterwards.
    bool read(DiskLayout *layout, QString *error);
    // Takes the table's digest again after a write of the job's own (data may cover a stretch
    // libparted counted as the table's, a boot fix writes sector 0).
    bool settle(QString *error);
    // After the job's own table write: `written` (the editor's table after its commit) is the
    // disk's now; partitions keep their numbers and contents, only their places change.
    bool adoptWrittenTable(DiskLayout written, QString *error);
    // Claims the disk read (device/exclusiveclaim.h) through its descriptor, so the claim is of
    // the device the layout came from; opens it first if nothing was read yet.
    bool claim(ExclusiveClaim *claim, bool forTableWrite, QString *why);
    // How the job's mover opens files: the target through the descriptor read (once opened),
    // anything else (its journals) by name.
    move::BlockIoOpener blockIoOpener() const;

private:
    bool ensureOpen(QString *error);
    bool tableDigest(QByteArray *digest, QString *error) const;
    bool unchanged(QString *error) const;

    QString m_target;
    qint64 m_sectorSize;
    QString m_resume;
    std::shared_ptr<const OpenDisk> m_disk;
    std::optional<DiskLayout> m_layout;
    QByteArray m_digest;
};

} // namespace partwise
