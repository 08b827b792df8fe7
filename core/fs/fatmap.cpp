#include "fs/fatmap.h"

#include "fs/partclonemap.h"

#include <QFile>
#include <QtEndian>

#include <algorithm>

namespace partwise {

using move::Extent;

namespace {

constexpr std::uint64_t kAlwaysCopied = 64 * 1024;
// Microsoft's FAT specification: the type follows from the count of clusters.
constexpr std::uint64_t kFat12Clusters = 4085;
constexpr std::uint64_t kFat16Clusters = 65525;
// FATs are compared and scanned in pieces of this many bytes, so memory stays small.
constexpr qint64 kChunkBytes = 4 * 1024 * 1024;

// Used runs in order; past the budget the smallest gaps are filled in (copied as if used).
class RunCollector
{
public:
    void add(std::uint64_t offset, std::uint64_t end)
    {
        if (!m_extents.empty()) {
            Extent &last = m_extents.back();
            if (offset <= last.offset + last.length + m_gap) {
                last.length = std::max(last.offset + last.length, end) - last.offset;
                return;
            }
        }
        m_extents.push_back({offset, end - offset});
        if (m_extents.size() > kMaxPartcloneExtents)
            coarsen();
    }
    std::vector<Extent> take() { return std::move(m_extents); }

private:
    void coarsen()
    {
        while (m_extents.size() > kMaxPartcloneExtents / 2) {
            m_gap = m_gap == 0 ? 64 * 1024 : m_gap * 2;
            std::size_t kept = 0;
            for (std::size_t i = 1; i < m_extents.size(); ++i) {
                Extent &last = m_extents[kept];
                const Extent &next = m_extents[i];
                if (next.offset <= last.offset + last.length + m_gap)
                    last.length = next.offset + next.length - last.offset;
                else
                    m_extents[++kept] = next;
            }
            m_extents.resize(kept + 1);
        }
    }

    std::vector<Extent> m_extents;
    std::uint64_t m_gap = 0;
};

bool powerOfTwo(quint32 v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

} // namespace

std::optional<std::vector<Extent>> fatUsedExtents(const QString &device, qint64 offsetBytes,
                                                  qint64 sizeBytes, QString *error)
{
    const QString where =
        QStringLiteral("The FAT filesystem at byte %1 of %2").arg(offsetBytes).arg(device);
    auto refuse = [&](const QString &why) -> std::optional<std::vector<Extent>> {
        if (error)
            *error = where + QStringLiteral(": ") + why;
        return std::nullopt;
    };
    if (offsetBytes < 0 || sizeBytes <= 0)
        return refuse(QStringLiteral("invalid range of %1 bytes.").arg(sizeBytes));
    QFile file(device);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(file.errorString());
    auto readAt = [&](qint64 offset, qint64 length) -> QByteArray {
        if (!file.seek(offsetBytes + offset))
            return {};
        return file.read(length);
    };

    const QByteArray boot = readAt(0, 512);
    if (boot.size() != 512)
        return refuse(QStringLiteral("its boot sector cannot be read."));
    const auto *b = reinterpret_cast<const uchar *>(boot.constData());
    if ((b[0] != 0xEB && b[0] != 0xE9) || b[510] != 0x55 || b[511] != 0xAA)
        return refuse(QStringLiteral("no FAT boot sector (jump or signature missing)."));
    const quint32 bytesPerSector = qFromLittleEndian<quint16>(b + 11);
    const quint32 sectorsPerCluster = b[13];
    const quint32 reserved = qFromLittleEndian<quint16>(b + 14);
    const quint32 fats = b[16];
    const quint32 rootEntries = qFromLittleEndian<quint16>(b + 17);
    const quint32 total16 = qFromLittleEndian<quint16>(b + 19);
    const quint32 media = b[21];
    const quint32 fatSize16 = qFromLittleEndian<quint16>(b + 22);
    const quint32 total32 = qFromLittleEndian<quint32>(b + 32);
    const quint32 fatSize32 = qFromLittleEndian<quint32>(b + 36);
    if (bytesPerSector < 512 || bytesPerSector > 4096 || !powerOfTwo(bytesPerSector) ||
        !powerOfTwo(sectorsPerCluster) || reserved == 0 || fats == 0 || fats > 2 ||
        (media != 0xF0 && media < 0xF8))
        return refuse(QStringLiteral("its boot sector has fields out of range."));
    if (total16 != 0 && total32 != 0 && total16 != total32)
        return refuse(QStringLiteral("its boot sector gives two different sizes."));
    const bool fat32Layout = fatSize16 == 0;
    const std::uint64_t totalSectors = total16 != 0 ? total16 : total32;
    const std::uint64_t fatSectors = fat32Layout ? fatSize32 : fatSize16;
    if (totalSectors == 0 || fatSectors == 0)
        return refuse(QStringLiteral("its boot sector gives no size."));
    if (fat32Layout != (rootEntries == 0) || (rootEntries * 32) % bytesPerSector != 0)
        return refuse(QStringLiteral("its root directory entries do not fit its layout."));
    const std::uint64_t sector = bytesPerSector;
    const std::uint64_t rootSectors = rootEntries * 32ULL / sector;
    const std::uint64_t fatStart = reserved;
    const std::uint64_t dataStart = reserved + fats * fatSectors + rootSectors;
    if (totalSectors <= dataStart || totalSectors * sector > std::uint64_t(sizeBytes))
        return refuse(QStringLiteral("it is larger than its partition or has no data area."));
    const std::uint64_t clusters = (totalSectors - dataStart) / sectorsPerCluster;
    if (clusters < kFat12Clusters)
        return refuse(QStringLiteral("FAT12 is not mapped."));
    const bool fat32 = clusters >= kFat16Clusters;
    if (fat32 != fat32Layout)
        return refuse(QStringLiteral("its cluster count (%1) says FAT%2, its boot sector "
                                     "layout FAT%3.")
                          .arg(clusters)
                          .arg(fat32 ? 32 : 16)
                          .arg(fat32Layout ? 32 : 16));
    const std::uint64_t entryBytes = fat32 ? 4 : 2;
    if (fatSectors * sector / entryBytes < clusters + 2 || clusters + 2 > 0x0FFFFFF0ULL)
        return refuse(QStringLiteral("its FAT is too small for its clusters."));
    if (fat32) {
        const quint32 extFlags = qFromLittleEndian<quint16>(b + 40);
        const quint32 version = qFromLittleEndian<quint16>(b + 42);
        const quint32 rootCluster = qFromLittleEndian<quint32>(b + 44);
        if (extFlags & 0x80)
            return refuse(QStringLiteral("its FAT copies are not mirrored."));
        if (version != 0 || rootCluster < 2 || rootCluster >= clusters + 2)
            return refuse(QStringLiteral("its FAT32 fields are out of range."));
    }
    // The state byte below is only there after an extended boot signature.
    if (b[fat32 ? 66 : 38] != 0x29 && b[fat32 ? 66 : 38] != 0x28)
        return refuse(QStringLiteral("its boot sector has no extended boot signature."));
    // Linux marks a mounted FAT dirty in the boot sector, Windows clears FAT entry 1's
    // clean-shutdown bit; either way its allocation was not finished.
    if (b[fat32 ? 65 : 37] & 0x01)
        return refuse(QStringLiteral("it is marked dirty (not unmounted cleanly); run fsck.fat "
                                     "on it."));

    // Every FAT copy must say the same; the used entries of the first are the map.
    const std::uint64_t usedFatBytes = (clusters + 2) * entryBytes;
    const std::uint64_t clusterBytes = sector * sectorsPerCluster;
    const std::uint64_t dataOffset = dataStart * sector;
    const quint32 mask = fat32 ? 0x0FFFFFFF : 0xFFFF;
    const quint32 reservedFrom = fat32 ? 0x0FFFFFF0 : 0xFFF0; // reserved values, then bad, EOC
    const quint32 bad = fat32 ? 0x0FFFFFF7 : 0xFFF7;
    RunCollector runs;
    runs.add(0, std::max(kAlwaysCopied, dataOffset));
    std::uint64_t runStart = 0; // first cluster of the current used run, 0 if none
    for (std::uint64_t done = 0; done < usedFatBytes;) {
        const qint64 length = qint64(std::min<std::uint64_t>(kChunkBytes, usedFatBytes - done));
        const QByteArray first = readAt(qint64(fatStart * sector + done), length);
        if (first.size() != length)
            return refuse(QStringLiteral("its FAT cannot be read."));
        for (quint32 copy = 1; copy < fats; ++copy) {
            if (readAt(qint64((fatStart + copy * fatSectors) * sector + done), length) != first)
                return refuse(QStringLiteral("its FAT copies differ; run fsck.fat on it."));
        }
        const auto *p = reinterpret_cast<const uchar *>(first.constData());
        const std::uint64_t firstEntry = done / entryBytes;
        const std::uint64_t count = std::uint64_t(length) / entryBytes;
        for (std::uint64_t i = 0; i < count; ++i) {
            const std::uint64_t cluster = firstEntry + i;
            const quint32 entry = (fat32 ? qFromLittleEndian<quint32>(p + i * 4)
                                         : qFromLittleEndian<quint16>(p + i * 2)) &
                                  mask;
            if (cluster == 0) {
                if ((entry & 0xFF) != media)
                    return refuse(QStringLiteral("its FAT does not start with its media byte."));
                continue;
            }
            if (cluster == 1) {
                if (!(entry & (fat32 ? 0x08000000u : 0x8000u)))
                    return refuse(QStringLiteral("it was not shut down cleanly; run fsck.fat "
                                                 "on it."));
                continue;
            }
            if (entry == 1 || (entry >= clusters + 2 && entry < reservedFrom) ||
                (entry >= reservedFrom && entry < bad))
                return refuse(QStringLiteral("cluster %1's FAT entry 0x%2 is not a valid one.")
                                  .arg(cluster)
                                  .arg(entry, 0, 16));
            if (entry != 0 && runStart == 0)
                runStart = cluster;
            if (entry == 0 && runStart != 0) {
                runs.add(dataOffset + (runStart - 2) * clusterBytes,
                         dataOffset + (cluster - 2) * clusterBytes);
                runStart = 0;
            }
        }
        done += std::uint64_t(length);
    }
    const std::uint64_t clustersEnd = dataOffset + clusters * clusterBytes;
    if (runStart != 0)
        runs.add(dataOffset + (runStart - 2) * clusterBytes, clustersEnd);
    // Past the last cluster: the sectors too few for a cluster and the partition's rest.
    if (clustersEnd < std::uint64_t(sizeBytes))
        runs.add(clustersEnd, std::uint64_t(sizeBytes));
    std::vector<Extent> extents = runs.take();
    for (Extent &e : extents) // the first 64 KiB may lie past a tiny partition
        e.length =
            std::min<std::uint64_t>(e.offset + e.length, std::uint64_t(sizeBytes)) - e.offset;
    return extents;
}

} // namespace partwise
