#pragma once

#include <QList>
#include <QString>

namespace partwise {

// What a copied partition keeps of its source's entry beyond its place, flags and name: the
// type (a GPT type GUID, or an MBR type byte in hex) and the GPT partition GUID. Empty fields
// are left as the table has them.
struct PartitionIdentity
{
    int number = 0; // the kernel's numbering: 1-4 primary, 5 on logical
    QString typeId;
    QString partitionGuid;
};

// Sets the identities and the disk identifier (a GPT disk GUID, or an MBR signature as
// "0x1234abcd"; empty keeps it) of the table on `fd`, in one write of the table and one flush.
// libparted 3.5 (Debian 12) sets neither arbitrary types nor GUIDs; libfdisk sets both, as
// sfdisk does, and this way a copy pays one flush where one sfdisk run per field paid one each.
// `sectorSize` is the table's (an image file has none of its own); `path` only names the target
// in messages. Returns false with `error` when nothing was written
// or the write failed.
bool setTableIdentifiers(int fd, const QString &path, qint64 sectorSize,
                         const QList<PartitionIdentity> &partitions, const QString &diskId,
                         QString *error);

} // namespace partwise
