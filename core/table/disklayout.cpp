#include "table/disklayout.h"

#include <QHash>

namespace partwise {

QList<PartitionInfo> DiskLayout::partitions() const
{
    QList<PartitionInfo> out;
    for (const auto &r : regions)
        if (!r.isFree())
            out << r;
    return out;
}

const PartitionInfo *DiskLayout::partitionByNumber(int number) const
{
    for (const auto &r : regions)
        if (!r.isFree() && r.number == number)
            return &r;
    return nullptr;
}

QString DiskLayout::wholeDiskFilesystemName() const
{
    return tableType.isEmpty() ? filesystemDisplayName(wholeDiskFilesystem) : QString();
}

bool DiskLayout::isHybridIso() const
{
    return !tableType.isEmpty() && wholeDiskFilesystem == QLatin1String("iso9660");
}

QString filesystemDisplayName(const QString &type)
{
    static const QHash<QString, QString> names{
        {QStringLiteral("xfs"), QStringLiteral("XFS")},
        {QStringLiteral("vfat"), QStringLiteral("FAT")},
        {QStringLiteral("ntfs"), QStringLiteral("NTFS")},
        {QStringLiteral("btrfs"), QStringLiteral("Btrfs")},
        {QStringLiteral("exfat"), QStringLiteral("exFAT")},
        {QStringLiteral("f2fs"), QStringLiteral("F2FS")},
        {QStringLiteral("crypto_LUKS"), QStringLiteral("LUKS")},
        {QStringLiteral("LVM2_member"), QStringLiteral("LVM")},
        {QStringLiteral("iso9660"), QStringLiteral("ISO 9660")},
    };
    return names.value(type, type);
}

} // namespace partwise
