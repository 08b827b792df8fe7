#include "table/tablesignature.h"

#include <blkid/blkid.h>

namespace partwise {

QString probeTableSignature(const QString &path, qint64 logicalSectorSize)
{
    blkid_probe probe = blkid_new_probe_from_filename(path.toLocal8Bit().constData());
    if (!probe)
        return QString();
    blkid_probe_set_sectorsize(probe, unsigned(logicalSectorSize));
    blkid_probe_enable_superblocks(probe, 0);
    blkid_probe_enable_partitions(probe, 1);
    QString type;
    if (blkid_do_safeprobe(probe) == 0) {
        const char *value = nullptr;
        if (blkid_probe_lookup_value(probe, "PTTYPE", &value, nullptr) == 0 && value)
            type = QString::fromUtf8(value);
    }
    blkid_free_probe(probe);
    return type;
}

} // namespace partwise
