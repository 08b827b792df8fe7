#include "device/signaturewipe.h"

#include <blkid/blkid.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

QString systemReason()
{
    return QString::fromLocal8Bit(strerror(errno));
}

// One signature of `type` wiped per call; false when none was found or the wipe failed.
bool wipeOne(int fd, const QByteArray &type, bool *wiped)
{
    *wiped = false;
    blkid_probe probe = blkid_new_probe();
    if (!probe || blkid_probe_set_device(probe, fd, 0, 0) != 0) {
        blkid_free_probe(probe);
        return false;
    }
    blkid_probe_enable_superblocks(probe, 1);
    blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_TYPE);
    char *types[] = {const_cast<char *>(type.constData()), nullptr};
    blkid_probe_filter_superblocks_type(probe, BLKID_FLTR_ONLYIN, types);
    blkid_probe_enable_partitions(probe, 0);
    bool ok = true;
    while (blkid_do_probe(probe) == 0) {
        if (blkid_do_wipe(probe, 0) != 0) {
            ok = false;
            break;
        }
        *wiped = true;
    }
    blkid_free_probe(probe);
    return ok;
}

} // namespace

bool wipeWholeDiskSignatures(const QString &path, const QString &type, QString *error)
{
    const int fd = ::open(path.toLocal8Bit().constData(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        *error = QStringLiteral("Cannot open %1 to erase its %2 signature: %3.")
                     .arg(path, type, systemReason());
        return false;
    }
    bool wiped = false;
    const bool ok = wipeOne(fd, type.toLatin1(), &wiped) && (!wiped || ::fsync(fd) == 0);
    if (!ok)
        *error = QStringLiteral("Cannot erase the %1 signature of %2: %3.")
                     .arg(type, path, systemReason());
    ::close(fd);
    return ok;
}

} // namespace partwise
