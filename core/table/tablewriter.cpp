#include "table/tablewriter.h"

#include "table/gptentrycount.h"
#include "table/partedcommit.h"
#include "table/parteddevice.h"
#include "table/partedpartition.h"
#include "table/partedsession.h"

#include <QFileInfo>

#include <parted/parted.h>

namespace partwise {

bool writeFreshTable(const QString &imagePath, qint64 sectorSize, const QString &tableType,
                     const QList<PartitionSpec> &partitions, QString *error)
{
    return writeFreshTableOn(imagePath, true, sectorSize, QFileInfo(imagePath).size(), tableType,
                             partitions, error);
}

bool writeFreshTableOn(const QString &imagePath, bool isImage, qint64 sectorSize, qint64 sizeBytes,
                       const QString &tableType, const QList<PartitionSpec> &partitions,
                       QString *error, int gptEntries)
{
    PartedSession session;
    PedDevice *dev = getPartedDevice(imagePath, isImage, sectorSize, sizeBytes);
    if (!dev) {
        *error = QStringLiteral("Cannot open %1: %2").arg(imagePath, session.errorText());
        return false;
    }
    PedDiskType *type = ped_disk_type_get(tableType.toLatin1().constData());
    PedDisk *disk = type ? ped_disk_new_fresh(dev, type) : nullptr;
    bool ok = disk != nullptr;
    if (ok && ped_disk_is_flag_available(disk, PED_DISK_CYLINDER_ALIGNMENT))
        ped_disk_set_flag(disk, PED_DISK_CYLINDER_ALIGNMENT, 0);
    // libparted writes no entry past its table's 128 (gptentrycount.h): those come after.
    const int partedEntries = ok ? ped_disk_get_max_primary_partition_count(disk) : 0;
    QList<PartitionSpec> beyond;
    for (int i = 0; ok && i < partitions.size(); ++i) {
        if (tableType == QLatin1String("gpt") && partitions[i].number > partedEntries) {
            beyond << partitions[i];
            continue;
        }
        ok = addExactPartition(disk, partitions[i]) != nullptr;
        if (!ok)
            *error = QStringLiteral("Cannot place partition %1 at sectors %2–%3: %4")
                         .arg(i + 1)
                         .arg(partitions[i].startSector)
                         .arg(partitions[i].endSector)
                         .arg(session.errorText());
    }
    if (ok) {
        ok = commitTable(disk, isImage);
        if (!ok)
            *error = QStringLiteral("Writing the table to %1 failed: %2")
                         .arg(imagePath, session.errorText());
    } else if (!disk) {
        *error = QStringLiteral("Cannot create a %1 table on %2: %3")
                     .arg(tableType, imagePath, session.errorText());
    }
    if (disk)
        ped_disk_destroy(disk);
    ped_device_destroy(dev);
    if (ok && !beyond.isEmpty())
        ok = addGptEntriesBeyondParted(imagePath, sectorSize, gptEntries, beyond, error);
    return ok;
}

} // namespace partwise
