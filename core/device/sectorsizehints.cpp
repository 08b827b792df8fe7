#include "device/sectorsizehints.h"

#include "device/filesystemprobe.h"
#include "device/tableentryprobe.h"

#include <QList>
#include <QMap>
#include <QSet>

namespace partwise {

namespace {

// The MBR's partitions (not extended containers nor type 0) as libblkid reads them with
// `sectorSize`.
QList<ProbedTableEntry> mbrEntries(const QString &path, qint64 sectorSize)
{
    QString type;
    QList<ProbedTableEntry> entries = probeTableEntries(path, sectorSize, &type);
    if (type != QLatin1String("dos"))
        return {};
    // An entry of type 0 is unused by convention (a hybrid ISO's covers the whole ISO).
    entries.removeIf([](const ProbedTableEntry &e) { return e.extended || e.mbrType == 0; });
    return entries;
}

// The filesystems that record their logical sector size, which libblkid gives as BLOCK_SIZE.
bool recordsSectorSize(const QString &type)
{
    return type == QLatin1String("vfat") || type == QLatin1String("ntfs") ||
           type == QLatin1String("exfat") || type == QLatin1String("xfs");
}

// Adds the hints of one reading: each filesystem found at a partition's start, unless that
// byte offset is where the other reading starts a partition (then both readings find the same
// filesystem, and it tells nothing).
void addHints(const QString &path, qint64 sectorSize, const QSet<qint64> &otherStarts,
              QMap<qint64, QStringList> *hints)
{
    const FilesystemProbe probe(path, sectorSize);
    for (const ProbedTableEntry &e : mbrEntries(path, sectorSize)) {
        if (otherStarts.contains(e.offset))
            continue;
        const FilesystemIdentity fs = probe.probe(e.offset, e.size);
        if (fs.isEmpty())
            continue;
        (*hints)[sectorSize] << QStringLiteral("partition %1 (%2) is found where the table "
                                               "counts %3-byte sectors")
                                    .arg(e.number)
                                    .arg(fs.type)
                                    .arg(sectorSize);
        // A FAT made with 4096-byte sectors on a 512-byte disk is found at 512-byte offsets, yet
        // says 4096: two hints that disagree.
        if (recordsSectorSize(fs.type) && fs.blockSize > 0 && fs.blockSize != sectorSize)
            (*hints)[fs.blockSize] << QStringLiteral("partition %1 (%2) records %3-byte sectors")
                                          .arg(e.number)
                                          .arg(fs.type)
                                          .arg(fs.blockSize);
    }
}

QSet<qint64> startsOf(const QList<ProbedTableEntry> &entries)
{
    QSet<qint64> starts;
    for (const ProbedTableEntry &e : entries)
        starts.insert(e.offset);
    return starts;
}

} // namespace

SectorSizeHints readSectorSizeHints(const QString &imagePath)
{
    SectorSizeHints result;
    QMap<qint64, QStringList> hints; // sector size → the hints pointing to it
    addHints(imagePath, 512, startsOf(mbrEntries(imagePath, 4096)), &hints);
    addHints(imagePath, 4096, startsOf(mbrEntries(imagePath, 512)), &hints);
    for (const QStringList &h : hints)
        result.reasons << h;
    if (hints.isEmpty() || (hints.size() == 1 && hints.contains(512)))
        return result;
    if (hints.size() == 1 && hints.contains(4096)) {
        result.bytes = 4096;
        return result;
    }
    result.doubt = QStringLiteral("its partitions disagree about the logical sector size (%1)")
                       .arg(result.reasons.join(QStringLiteral("; ")));
    return result;
}

} // namespace partwise
