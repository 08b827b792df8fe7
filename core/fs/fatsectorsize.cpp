#include "fs/fatsectorsize.h"

#include "fs/bytesat.h"

#include <QStringList>
#include <QtEndian>

#include <optional>

namespace partwise {

namespace {

// Boot sector fields (FAT's BIOS parameter block, FAT32's extension).
constexpr int kBytesPerSector = 0x0B;    // u16
constexpr int kSectorsPerCluster = 0x0D; // u8
constexpr int kReserved = 0x0E;          // u16
constexpr int kRootEntries = 0x11;       // u16, 0 on FAT32
constexpr int kTotal16 = 0x13;           // u16, 0 when the 32-bit count is used
constexpr int kFatSize16 = 0x16;         // u16, 0 on FAT32
constexpr int kTotal32 = 0x20;           // u32
constexpr int kFatSize32 = 0x24;         // u32
constexpr int kFsInfo = 0x30;            // u16, a sector of the reserved area
constexpr int kBackupBoot = 0x32;        // u16, a sector of the reserved area

struct FatGeometry
{
    qint64 bytesPerSector = 0, sectorsPerCluster = 0, reserved = 0, total = 0, fatSize = 0;
    qint64 fsInfo = 0, backupBoot = 0; // 0: none
    bool fat32 = false;
};

bool isPowerOfTwo(qint64 v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

std::optional<FatGeometry> fatGeometry(const QByteArray &boot)
{
    if (boot.size() < 512 || quint8(boot[510]) != 0x55 || quint8(boot[511]) != 0xAA)
        return std::nullopt;
    const auto u16 = [&](int at) { return qint64(qFromLittleEndian<quint16>(boot.data() + at)); };
    const auto u32 = [&](int at) { return qint64(qFromLittleEndian<quint32>(boot.data() + at)); };
    FatGeometry g;
    g.bytesPerSector = u16(kBytesPerSector);
    g.sectorsPerCluster = quint8(boot[kSectorsPerCluster]);
    g.reserved = u16(kReserved);
    g.fat32 = u16(kFatSize16) == 0 && u16(kRootEntries) == 0;
    g.total = u16(kTotal16) != 0 ? u16(kTotal16) : u32(kTotal32);
    g.fatSize = g.fat32 ? u32(kFatSize32) : u16(kFatSize16);
    if (g.fat32) {
        // 0 and 0xFFFF mean none; anything outside the reserved area is taken as none too.
        g.fsInfo = u16(kFsInfo) < g.reserved ? u16(kFsInfo) : 0;
        g.backupBoot = u16(kBackupBoot) < g.reserved ? u16(kBackupBoot) : 0;
    }
    if (!isPowerOfTwo(g.bytesPerSector) || g.bytesPerSector < 512 || g.bytesPerSector > 4096 ||
        !isPowerOfTwo(g.sectorsPerCluster) || g.reserved == 0 || g.fatSize == 0 || g.total == 0)
        return std::nullopt;
    return g;
}

// The geometry in sectors of `newSize`, or why it does not convert exactly.
std::optional<FatGeometry> converted(const FatGeometry &g, qint64 newSize, QString *why)
{
    FatGeometry n = g;
    n.bytesPerSector = newSize;
    if (newSize > g.bytesPerSector) {
        const qint64 r = newSize / g.bytesPerSector;
        QStringList inexact;
        if (g.reserved % r != 0)
            inexact << QStringLiteral("%1 reserved sectors").arg(g.reserved);
        if (g.fatSize % r != 0)
            inexact << QStringLiteral("a FAT of %1 sectors").arg(g.fatSize);
        if (g.sectorsPerCluster % r != 0)
            inexact
                << QStringLiteral("%1-byte clusters").arg(g.sectorsPerCluster * g.bytesPerSector);
        if (!inexact.isEmpty()) {
            *why = QStringLiteral("FAT32 with %1 does not convert exactly to %2-byte sectors")
                       .arg(inexact.join(QStringLiteral(", ")))
                       .arg(newSize);
            return std::nullopt;
        }
        n.reserved /= r, n.fatSize /= r, n.sectorsPerCluster /= r;
        n.total /= r; // the clusters' count stays: the data area starts on a whole new sector
    } else {
        const qint64 r = g.bytesPerSector / newSize;
        n.reserved *= r, n.fatSize *= r, n.sectorsPerCluster *= r, n.total *= r;
        if (n.sectorsPerCluster > 128 || n.reserved > 0xFFFF || n.total > 0xFFFFFFFFLL ||
            n.fatSize > 0xFFFFFFFFLL) {
            *why = QStringLiteral("FAT32 with %1-byte clusters cannot be counted in %2-byte "
                                  "sectors (at most 128 sectors a cluster)")
                       .arg(g.sectorsPerCluster * g.bytesPerSector)
                       .arg(newSize);
            return std::nullopt;
        }
    }
    // FSInfo stays in sector 1; the backup boot sector (with a backup FSInfo after it) goes to
    // sector 6 as mkfs.fat puts it, or to sector 2 when a reserved area of 4 sectors holds no 6.
    const qint64 needed = g.backupBoot != 0 ? 4 : (g.fsInfo != 0 ? 2 : 1);
    if (n.reserved < needed) {
        *why = QStringLiteral("FAT32 with %1 reserved sectors keeps too few in %2-byte ones for "
                              "its FSInfo and backup boot sector")
                   .arg(g.reserved)
                   .arg(newSize);
        return std::nullopt;
    }
    n.fsInfo = g.fsInfo != 0 ? 1 : 0;
    n.backupBoot = g.backupBoot == 0 ? 0 : (n.reserved >= 8 ? 6 : 2);
    return n;
}

QByteArray sectorOf(const QByteArray &first512, qint64 size)
{
    QByteArray sector(size, '\0');
    sector.replace(0, 512, first512.left(512));
    return sector;
}

} // namespace

SectorSizeVerdict judgeFatSectorSize(const QByteArray &bootSector, qint64 sourceSectorSize,
                                     qint64 targetSectorSize)
{
    const std::optional<FatGeometry> g = fatGeometry(bootSector);
    if (!g)
        return {false, QStringLiteral("its FAT boot sector does not read as one, so its sector "
                                      "size cannot be rewritten")};
    if (!g->fat32)
        return {false, QStringLiteral("FAT12/16 count their root directory in sectors too; only "
                                      "FAT32 is converted")};
    if (g->bytesPerSector != sourceSectorSize)
        return {false, QStringLiteral("vfat records %1-byte sectors on a disk of %2-byte ones")
                           .arg(g->bytesPerSector)
                           .arg(sourceSectorSize)};
    QString why;
    if (!converted(*g, targetSectorSize, &why))
        return {false, why};
    return {true, QStringLiteral("FAT32 with %1-byte clusters is converted (bytes per sector "
                                 "%2 -> %3; reserved sectors, FAT size and sectors per cluster "
                                 "counted anew, FSInfo and backup boot sector moved)")
                      .arg(g->sectorsPerCluster * g->bytesPerSector)
                      .arg(sourceSectorSize)
                      .arg(targetSectorSize)};
}

bool convertFatSectorSize(const QString &path, qint64 offset, qint64 partitionBytes,
                          qint64 sourceSectorSize, qint64 targetSectorSize, QString *error)
{
    BytesAt disk(path);
    if (!disk.open(error))
        return false;
    const QByteArray boot = disk.read(offset, 512);
    const std::optional<FatGeometry> g = fatGeometry(boot);
    if (g && g->bytesPerSector == targetSectorSize)
        return true; // done by an earlier run: the primary is written last
    const SectorSizeVerdict verdict = judgeFatSectorSize(boot, sourceSectorSize, targetSectorSize);
    QString why;
    const std::optional<FatGeometry> n =
        verdict.converts ? converted(*g, targetSectorSize, &why) : std::nullopt;
    if (!n) {
        *error = QStringLiteral("The copied FAT at byte %1 cannot be converted: %2.")
                     .arg(offset)
                     .arg(verdict.what);
        return false;
    }
    // The boot sector is the filesystem's to say; what it says must stay inside the partition,
    // or the writes below would land in the next one.
    if (n->total * targetSectorSize > partitionBytes ||
        n->reserved * targetSectorSize > partitionBytes) {
        *error = QStringLiteral("The copied FAT at byte %1 claims more sectors than its partition "
                                "holds; it was not converted.")
                     .arg(offset);
        return false;
    }
    const QByteArray fsInfo =
        g->fsInfo ? disk.read(offset + g->fsInfo * g->bytesPerSector, 512) : QByteArray();
    if (g->fsInfo && fsInfo.isEmpty()) {
        *error = QStringLiteral("Cannot read the FSInfo sector of the FAT at byte %1.").arg(offset);
        return false;
    }
    QByteArray head = boot;
    char *b = head.data();
    qToLittleEndian<quint16>(quint16(targetSectorSize), b + kBytesPerSector);
    b[kSectorsPerCluster] = char(n->sectorsPerCluster);
    qToLittleEndian<quint16>(quint16(n->reserved), b + kReserved);
    if (qFromLittleEndian<quint16>(b + kTotal16) != 0)
        qToLittleEndian<quint16>(quint16(n->total), b + kTotal16);
    else
        qToLittleEndian<quint32>(quint32(n->total), b + kTotal32);
    qToLittleEndian<quint32>(quint32(n->fatSize), b + kFatSize32);
    qToLittleEndian<quint16>(quint16(n->fsInfo), b + kFsInfo);
    qToLittleEndian<quint16>(quint16(n->backupBoot), b + kBackupBoot);
    // The boot sector's bytes past the first 512 held 512-byte sectors' boot code, FSInfo and
    // backups; in a 4096-byte sector they would be read as boot code, so they are cleared.
    const QByteArray sector = sectorOf(head, targetSectorSize);
    const QByteArray infoSector = n->fsInfo ? sectorOf(fsInfo, targetSectorSize) : QByteArray();
    const auto at = [&](qint64 s) { return offset + s * targetSectorSize; };
    if (n->fsInfo && !disk.write(at(n->fsInfo), infoSector, error))
        return false;
    if (n->backupBoot && (!disk.write(at(n->backupBoot), sector, error) ||
                          (n->fsInfo && !disk.write(at(n->backupBoot + 1), infoSector, error))))
        return false;
    return disk.write(offset, sector, error);
}

} // namespace partwise
