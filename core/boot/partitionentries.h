#pragma once

// What the partition table says about each partition beyond its place: the GPT type and
// partition GUIDs, or the MBR type byte, and the disk's own identifier. Read through libblkid's
// partition prober (the tables are never parsed by hand); boot loaders and firmware name
// partitions by exactly these.

#include <QList>
#include <QString>

namespace partwise {

inline constexpr char kBiosBootTypeGuid[] = "21686148-6449-6e6f-744e-656564454649";
inline constexpr char kEspTypeGuid[] = "c12a7328-f81f-11d2-ba4b-00a0c93ec93b";
inline constexpr int kEspMbrType = 0xEF;

struct PartitionEntry
{
    int number = 0;
    qint64 startSector = 0; // logical sectors of the disk
    qint64 lengthSectors = 0;
    QString typeGuid;      // GPT, lower case; empty on MBR
    int mbrType = 0;       // MBR type byte; 0 on GPT
    QString partitionGuid; // GPT, lower case; empty on MBR
    bool active = false;   // MBR boot indicator (0x80)

    // The partition's type as sfdisk --part-type takes it: the GPT type GUID, or the MBR type
    // byte as two hex digits.
    QString typeId() const
    {
        return typeGuid.isEmpty() ? QStringLiteral("%1").arg(mbrType, 2, 16, QLatin1Char('0'))
                                  : typeGuid;
    }
    bool isBiosBoot() const { return typeGuid == QLatin1String(kBiosBootTypeGuid); }
    bool isEsp() const { return typeGuid == QLatin1String(kEspTypeGuid) || mbrType == kEspMbrType; }
};

struct PartitionEntries
{
    bool ok = false;
    QString error;
    QString tableType; // "gpt" or "dos", as libblkid names them
    QString diskId;    // GPT disk GUID, or the MBR disk signature as 8 hex digits (lower case)
    QList<PartitionEntry> entries;

    const PartitionEntry *byNumber(int number) const;
};

// Reads the table of the disk or image open as `fd` (never written).
PartitionEntries readPartitionEntries(int fd, qint64 logicalSectorSize);

} // namespace partwise
