#pragma once

// A storage layer inside a partition: a LUKS volume, an LVM physical volume. Plain data, kept
// with the partition it belongs to (PartitionInfo::layers); core/layer reads them.
//
// A partition that starts on the grain is not enough when its data starts further in: a LUKS
// payload or an LVM physical volume's first extent sits at an offset inside the partition, and
// the filesystem on top is only as aligned as that offset. core/layer reads them with the
// layer's own library or tool (libcryptsetup, the LVM tools' JSON report), never by parsing
// headers; how they are judged is align's business (judgeByte), like a partition's start.

#include <QList>
#include <QString>

namespace partwise {

// One stretch of a logical volume on this physical volume (an LV may have several, and may go on
// on other PVs of its group): where its extents start, from the partition's and the disk's first
// byte, as pvs --segments reports them.
struct LogicalVolumeExtents
{
    QString name;
    qint64 dataOffsetBytes = -1;
    qint64 absoluteOffsetBytes = -1;
    qint64 sizeBytes = 0;
    bool active = false; // its device-mapper device exists
};

struct StorageLayer
{
    QString type;    // as libblkid names it: crypto_LUKS, LVM2_member, linux_raid_member
    QString version; // "1" or "2" for LUKS, "lvm2" for a PV, the md metadata version
    QString uuid;
    qint64 dataOffsetBytes = -1;     // from the partition's first byte; -1 when unreadable
    qint64 absoluteOffsetBytes = -1; // from the disk's first byte
    // Why the layer could not be read (the tool's or the library's reason); empty when it was.
    QString error;
    // How the misalignment could be fixed, since moving the partition cannot fix it.
    QString remedy;
    // An LVM physical volume's group, its extent size and its logical volumes here; empty for a
    // PV in no group and for other layers.
    QString volumeGroup;
    qint64 extentSizeBytes = 0;
    QList<LogicalVolumeExtents> logicalVolumes;

    bool readable() const { return error.isEmpty() && dataOffsetBytes >= 0; }
    // Whether a logical volume of the group here is active (so the group holds the partition).
    bool volumeGroupActive() const
    {
        for (const LogicalVolumeExtents &lv : logicalVolumes)
            if (lv.active)
                return true;
        return false;
    }
};

using StorageLayers = QList<StorageLayer>; // outermost first

} // namespace partwise
