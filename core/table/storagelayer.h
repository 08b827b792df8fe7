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

    bool readable() const { return error.isEmpty() && dataOffsetBytes >= 0; }
};

using StorageLayers = QList<StorageLayer>; // outermost first

} // namespace partwise
