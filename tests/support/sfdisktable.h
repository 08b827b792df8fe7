// The independent source of expected geometry: `sfdisk -J` (or, for images whose logical
// sector size the file cannot tell, `fdisk -b N -l`).
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

namespace pwtest {

struct SfdiskPartition
{
    QString node;
    int number = 0;    // from the node name: img5, /dev/loop0p5 -> 5
    qint64 start = 0;  // in logical sectors
    qint64 size = 0;   // in logical sectors
    QString type;      // MBR id in hex ("83", "5") or GPT type GUID
    QString kind;      // "primary", "extended" or "logical" (GPT: always primary)
    QJsonObject entry; // the whole entry `sfdisk -J` gave (name, attrs, uuid, bootable, ...)

    qint64 end() const { return start + size - 1; }
};

struct SfdiskTable
{
    bool ok = false;
    QString error;
    QString label;       // "dos" or "gpt"
    int sectorSize = 0;  // logical sector size the table was read with
    qint64 firstLba = 0; // GPT only
    QList<SfdiskPartition> partitions;

    // Table name as the check JSON spells it: "msdos" or "gpt".
    QString partedLabel() const;
    const SfdiskPartition *find(int number) const;
    // Every partition's start sector, in table order.
    QList<qint64> starts() const;

    // `sfdisk -J device`: the sector size is the device's (512 for image files).
    static SfdiskTable read(const QString &device);
    // `fdisk -b sectorSize -l image`: for 4Kn images (GPT only).
    static SfdiskTable readWithSectorSize(const QString &image, int sectorSize);
    // Makes `image` a file of `bytes` and writes `script` ("label: dos\nstart=63, ...") on it
    // with sfdisk; false with sfdisk's words in *error when it refuses.
    static bool writeImage(const QString &image, qint64 bytes, const QByteArray &script,
                           QString *error);
};

} // namespace pwtest
