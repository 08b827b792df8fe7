#include "ops/scratchtablecommit.h"

#include "base/positionedio.h"

#include <QFile>

#include <parted/parted.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <set>
#include <unistd.h>

namespace partwise {

namespace {

constexpr qint64 kBlock = 4096;

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

// The 4 KiB blocks holding the new table's metadata (libparted's own partitions of that type).
std::set<qint64> metadataBlocks(PedDisk *disk)
{
    std::set<qint64> blocks;
    const qint64 sector = disk->dev->sector_size;
    for (PedPartition *p = ped_disk_next_partition(disk, nullptr); p;
         p = ped_disk_next_partition(disk, p)) {
        if (!(p->type & PED_PARTITION_METADATA))
            continue;
        const qint64 first = p->geom.start * sector / kBlock;
        const qint64 last = ((p->geom.end + 1) * sector - 1) / kBlock;
        for (qint64 b = first; b <= last; ++b)
            blocks.insert(b);
    }
    return blocks;
}

bool readBlock(int fd, qint64 offset, QByteArray *data, qint64 diskBytes)
{
    data->resize(int(std::min(kBlock, diskBytes - offset)));
    return readFullAt(fd, data->data(), data->size(), offset) == data->size();
}

// Copies `blocks` of the disk into the scratch image.
bool copyBlocks(int diskFd, int scratch, const std::set<qint64> &blocks, qint64 diskBytes)
{
    QByteArray data;
    for (const qint64 b : blocks)
        if (!readBlock(diskFd, b * kBlock, &data, diskBytes) ||
            !writeFullAt(scratch, data.constData(), data.size(), b * kBlock))
            return false;
    return ::ftruncate(scratch, diskBytes) == 0;
}

// libparted's commit with the device opened by `path` instead of the disk's name.
bool commitTo(PedDisk *disk, const QByteArray &path)
{
    PedDevice *dev = disk->dev;
    if (dev->open_count != 0)
        return false;
    QByteArray name = path;
    char *const real = dev->path;
    dev->path = name.data();
    const bool ok = ped_disk_commit_to_dev(disk) != 0;
    dev->path = real;
    return ok;
}

} // namespace

bool commitTableToScratch(PedDisk *disk, int diskFd, qint64 diskBytes, const QString &folder,
                          std::vector<ScratchBlock> *changed, QString *error)
{
    const int scratch =
        ::open(QFile::encodeName(folder).constData(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (scratch < 0) {
        *error = QStringLiteral("Cannot create a scratch image in %1: %2; nothing was written.")
                     .arg(folder, systemError());
        return false;
    }
    const std::set<qint64> copied = metadataBlocks(disk);
    bool ok = copyBlocks(diskFd, scratch, copied, diskBytes) &&
              commitTo(disk, "/proc/self/fd/" + QByteArray::number(scratch));
    if (!ok)
        *error = QStringLiteral("libparted could not write the table to a scratch image; nothing "
                                "was written.");
    // Every block with data in the scratch image must be one copied from the disk.
    for (qint64 at = 0; ok && (at = ::lseek(scratch, at, SEEK_DATA)) >= 0; at += kBlock) {
        if (!copied.count(at / kBlock)) {
            *error = QStringLiteral("libparted wrote outside the table's sectors (at byte %1); "
                                    "nothing was written.")
                         .arg(at);
            ok = false;
        }
        at -= at % kBlock;
    }
    QByteArray before;
    QByteArray after;
    for (auto it = copied.begin(); ok && it != copied.end(); ++it) {
        const qint64 offset = *it * kBlock;
        ok = readBlock(diskFd, offset, &before, diskBytes) &&
             readBlock(scratch, offset, &after, diskBytes);
        if (ok && before != after)
            changed->push_back({offset, after});
        if (!ok)
            *error = QStringLiteral("Cannot read the scratch image: %1; nothing was written.")
                         .arg(systemError());
    }
    ::close(scratch);
    return ok;
}

} // namespace partwise
