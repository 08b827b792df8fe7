#include "fs/ntfssectorsize.h"

#include "fs/bytesat.h"

#include <QtEndian>

#include <optional>

namespace partwise {

namespace {

// Boot sector fields (NTFS's BIOS parameter block).
constexpr int kBytesPerSector = 0x0B;    // u16
constexpr int kSectorsPerCluster = 0x0D; // u8; above 128: 2^(256 - value) sectors
constexpr int kTotalSectors = 0x28;      // s64, the volume's size in its sectors

struct NtfsGeometry
{
    qint64 bytesPerSector = 0;
    qint64 clusterBytes = 0;
    qint64 totalSectors = 0;
};

bool isPowerOfTwo(qint64 v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

std::optional<NtfsGeometry> ntfsGeometry(const QByteArray &boot)
{
    if (boot.size() < 512 || boot.mid(3, 8) != QByteArrayLiteral("NTFS    ") ||
        quint8(boot[510]) != 0x55 || quint8(boot[511]) != 0xAA)
        return std::nullopt;
    NtfsGeometry g;
    g.bytesPerSector = qFromLittleEndian<quint16>(boot.constData() + kBytesPerSector);
    const int raw = quint8(boot[kSectorsPerCluster]);
    const bool exponent = raw > 128;
    if (raw == 0 || (exponent && 256 - raw > 24) || (!exponent && !isPowerOfTwo(raw)))
        return std::nullopt;
    const qint64 sectors = raw <= 128 ? raw : qint64(1) << (256 - raw);
    g.clusterBytes = g.bytesPerSector * sectors;
    g.totalSectors = qFromLittleEndian<qint64>(boot.constData() + kTotalSectors);
    if (!isPowerOfTwo(g.bytesPerSector) || g.bytesPerSector < 256 || g.bytesPerSector > 4096 ||
        g.totalSectors <= 0)
        return std::nullopt;
    return g;
}

quint8 encodedSectorsPerCluster(qint64 sectors)
{
    if (sectors <= 128)
        return quint8(sectors);
    int shift = 0;
    while ((qint64(1) << shift) < sectors)
        ++shift;
    return quint8(256 - shift);
}

} // namespace

SectorSizeVerdict judgeNtfsSectorSize(const QByteArray &bootSector, qint64 sourceSectorSize,
                                      qint64 targetSectorSize)
{
    const std::optional<NtfsGeometry> g = ntfsGeometry(bootSector);
    if (!g)
        return {false, QStringLiteral("its NTFS boot sector does not read as one, so its sector "
                                      "size cannot be rewritten")};
    if (g->bytesPerSector != sourceSectorSize)
        return {false, QStringLiteral("ntfs records %1-byte sectors on a disk of %2-byte ones")
                           .arg(g->bytesPerSector)
                           .arg(sourceSectorSize)};
    if (g->clusterBytes % targetSectorSize != 0)
        return {false, QStringLiteral("ntfs with %1-byte clusters: only clusters of %2 bytes or "
                                      "more can be counted in %2-byte sectors")
                           .arg(g->clusterBytes)
                           .arg(targetSectorSize)};
    return {true, QStringLiteral("ntfs with %1-byte clusters is converted (its boot sector's "
                                 "bytes per sector %2 -> %3, sectors per cluster and total "
                                 "sectors with it, the backup boot sector moved to the end)")
                      .arg(g->clusterBytes)
                      .arg(sourceSectorSize)
                      .arg(targetSectorSize)};
}

bool convertNtfsSectorSize(const QString &path, qint64 offset, qint64 partitionBytes,
                           qint64 sourceSectorSize, qint64 targetSectorSize, QString *error)
{
    BytesAt disk(path);
    if (!disk.open(error))
        return false;
    const std::optional<NtfsGeometry> g = ntfsGeometry(disk.read(offset, 512));
    if (g && g->bytesPerSector == targetSectorSize)
        return true; // done by an earlier run: the primary is written last
    const SectorSizeVerdict verdict =
        judgeNtfsSectorSize(disk.read(offset, 512), sourceSectorSize, targetSectorSize);
    if (!verdict.converts) {
        *error = QStringLiteral("The copied NTFS at byte %1 cannot be converted: %2.")
                     .arg(offset)
                     .arg(verdict.what);
        return false;
    }
    // The boot sector is the filesystem's to say: a size past its partition is refused before
    // it is multiplied (or written beyond the partition).
    if (g->totalSectors > partitionBytes / g->bytesPerSector) {
        *error = QStringLiteral("The copied NTFS at byte %1 claims more sectors than its "
                                "partition holds; it was not converted.")
                     .arg(offset);
        return false;
    }
    // The volume keeps its clusters; its size in the new sectors rounds down to whole ones,
    // which still hold every cluster since a cluster is whole sectors of either size.
    const qint64 newTotal = g->totalSectors * g->bytesPerSector / targetSectorSize;
    QByteArray sector = disk.read(offset, targetSectorSize); // NTFS's boot code stays with it
    if (sector.isEmpty() || (newTotal + 1) * targetSectorSize > partitionBytes) {
        *error = QStringLiteral("The copied NTFS at byte %1 leaves no room for its backup boot "
                                "sector in %2-byte sectors.")
                     .arg(offset)
                     .arg(targetSectorSize);
        return false;
    }
    qToLittleEndian<quint16>(quint16(targetSectorSize), sector.data() + kBytesPerSector);
    sector[kSectorsPerCluster] = char(encodedSectorsPerCluster(g->clusterBytes / targetSectorSize));
    qToLittleEndian<qint64>(newTotal, sector.data() + kTotalSectors);
    // ntfs-3g and ntfsfix look for the backup, a copy of the whole first sector, in the
    // partition's last sector; chkdsk puts it just past the volume. Both, where they differ.
    const qint64 last = offset + partitionBytes - targetSectorSize;
    const qint64 pastVolume = offset + newTotal * targetSectorSize;
    if (!disk.write(last, sector, error) ||
        (pastVolume != last && !disk.write(pastVolume, sector, error)))
        return false;
    return disk.write(offset, sector, error);
}

} // namespace partwise
