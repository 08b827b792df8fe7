#include "ops/copysectorsize.h"

#include "fs/fatsectorsize.h"
#include "fs/filesystemkinds.h"
#include "fs/ntfssectorsize.h"

#include <algorithm>

namespace partwise {

bool convertsBootSector(const QString &filesystem)
{
    return isFatFilesystem(filesystem) || filesystem == QLatin1String("ntfs");
}

SectorSizeRule sectorSizeRule(const QString &filesystem, qint64 unitBytes,
                              const QByteArray &bootSector, qint64 sourceSectorSize,
                              qint64 targetSectorSize)
{
    const qint64 larger = std::max(sourceSectorSize, targetSectorSize);
    const auto carries = [&](const QString &what) {
        return SectorSizeRule{true, QStringLiteral("%1 carries over").arg(what)};
    };
    const auto refused = [&](const QString &why) { return SectorSizeRule{false, why}; };
    if (filesystem == QLatin1String("swap"))
        return carries(QStringLiteral("swap, made anew with its UUID and label,"));
    if (filesystem == QLatin1String("f2fs"))
        return carries(QStringLiteral("F2FS (4096-byte blocks)"));
    const QString units = QStringLiteral("%1 with %2-byte %3").arg(filesystem).arg(unitBytes);
    if (isExtFilesystem(filesystem) || filesystem == QLatin1String("btrfs")) {
        const QString unit = filesystem == QLatin1String("btrfs") ? QStringLiteral("sectors")
                                                                  : QStringLiteral("blocks");
        if (unitBytes >= larger)
            return carries(units.arg(unit));
        return refused(QStringLiteral("%1 cannot be read through %2-byte sectors; only blocks "
                                      "of %2 bytes or more carry over")
                           .arg(units.arg(unit))
                           .arg(larger));
    }
    if (filesystem == QLatin1String("xfs") || filesystem == QLatin1String("exfat")) {
        if (unitBytes >= targetSectorSize)
            return carries(units.arg(QStringLiteral("sectors")));
        return refused(QStringLiteral("%1 records sectors smaller than the target's %2-byte "
                                      "ones, so it cannot be read there")
                           .arg(units.arg(QStringLiteral("sectors")))
                           .arg(targetSectorSize));
    }
    if (convertsBootSector(filesystem)) {
        const SectorSizeVerdict v =
            filesystem == QLatin1String("ntfs")
                ? judgeNtfsSectorSize(bootSector, sourceSectorSize, targetSectorSize)
                : judgeFatSectorSize(bootSector, sourceSectorSize, targetSectorSize);
        return SectorSizeRule{v.converts, v.what};
    }
    if (filesystem.isEmpty())
        return refused(QStringLiteral("its contents are unknown, so what they record of the "
                                      "sector size is too"));
    return refused(
        QStringLiteral("%1 is not known to carry over between sector sizes").arg(filesystem));
}

} // namespace partwise
