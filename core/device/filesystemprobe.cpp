#include "device/filesystemprobe.h"

#include <blkid/blkid.h>
#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

QString lookup(blkid_probe probe, const char *name)
{
    const char *value = nullptr;
    if (blkid_probe_lookup_value(probe, name, &value, nullptr) == 0 && value)
        return QString::fromUtf8(value);
    return QString();
}

} // namespace

FilesystemProbe::FilesystemProbe(const QString &path, qint64 logicalSectorSize)
    : m_sectorSize(logicalSectorSize)
{
    m_fd = ::open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
}

FilesystemProbe::~FilesystemProbe()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

FilesystemIdentity FilesystemProbe::probe(qint64 offsetBytes, qint64 sizeBytes) const
{
    FilesystemIdentity id;
    if (m_fd < 0 || sizeBytes <= 0)
        return id;
    blkid_probe probe = blkid_new_probe();
    if (!probe)
        return id;
    if (blkid_probe_set_device(probe, m_fd, offsetBytes, sizeBytes) == 0) {
        blkid_probe_set_sectorsize(probe, unsigned(m_sectorSize));
        blkid_probe_enable_superblocks(probe, 1);
        blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID |
                                                     BLKID_SUBLKS_TYPE | BLKID_SUBLKS_VERSION);
        blkid_probe_enable_partitions(probe, 0);
        // safeprobe refuses ambiguous results (two signatures) instead of guessing.
        if (blkid_do_safeprobe(probe) == 0) {
            id.type = lookup(probe, "TYPE");
            id.label = lookup(probe, "LABEL");
            id.uuid = lookup(probe, "UUID");
            id.version = lookup(probe, "VERSION");
            id.blockSize = lookup(probe, "BLOCK_SIZE").toLongLong();
        }
    }
    blkid_free_probe(probe);
    return id;
}

} // namespace partwise
