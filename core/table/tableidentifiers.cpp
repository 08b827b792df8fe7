#include "table/tableidentifiers.h"

#include <QFile>

#include <libfdisk/libfdisk.h>

#include <cstring>
#include <memory>

namespace partwise {

namespace {

struct ContextDeleter
{
    void operator()(fdisk_context *context) const { fdisk_unref_context(context); }
};
using Context = std::unique_ptr<fdisk_context, ContextDeleter>;

QString errnoText(int rc)
{
    return QString::fromLocal8Bit(std::strerror(rc < 0 ? -rc : rc));
}

// One partition's type and GUID into the in-memory table; nothing is written yet.
QString applyIdentity(fdisk_context *context, const PartitionIdentity &p)
{
    const std::size_t index = std::size_t(p.number - 1);
    if (!p.typeId.isEmpty()) {
        fdisk_parttype *type = fdisk_label_parse_parttype(fdisk_get_label(context, nullptr),
                                                          p.typeId.toLatin1().constData());
        if (!type)
            return QStringLiteral("the type %1 of partition %2 is not one the table knows")
                .arg(p.typeId)
                .arg(p.number);
        const int rc = fdisk_set_partition_type(context, index, type);
        fdisk_unref_parttype(type);
        if (rc < 0)
            return QStringLiteral("partition %1's type: %2").arg(p.number).arg(errnoText(rc));
    }
    if (!p.partitionGuid.isEmpty()) {
        fdisk_partition *entry = fdisk_new_partition();
        int rc = entry ? fdisk_partition_set_uuid(entry, p.partitionGuid.toLatin1().constData())
                       : -ENOMEM;
        if (rc == 0)
            rc = fdisk_set_partition(context, index, entry);
        fdisk_unref_partition(entry);
        if (rc < 0)
            return QStringLiteral("partition %1's GUID: %2").arg(p.number).arg(errnoText(rc));
    }
    return {};
}

} // namespace

bool setTableIdentifiers(int fd, const QString &path, qint64 sectorSize,
                         const QList<PartitionIdentity> &partitions, const QString &diskId,
                         QString *error)
{
    auto failed = [&](const QString &why) {
        *error = QStringLiteral("Setting the identifiers of %1's table failed: %2.").arg(path, why);
        return false;
    };
    Context context(fdisk_new_context());
    if (!context)
        return failed(errnoText(ENOMEM));
    int rc = fdisk_save_user_sector_size(context.get(), unsigned(sectorSize), unsigned(sectorSize));
    if (rc < 0)
        return failed(errnoText(rc));
    // By descriptor: the device the caller opened is the one written, whatever its name means
    // by now; libfdisk neither reopens nor closes it.
    rc = fdisk_assign_device_by_fd(context.get(), fd, QFile::encodeName(path).constData(), 0);
    if (rc < 0)
        return failed(errnoText(rc));
    if (!fdisk_has_label(context.get()))
        return failed(QStringLiteral("no partition table was found"));
    for (const PartitionIdentity &p : partitions)
        if (const QString why = applyIdentity(context.get(), p); !why.isEmpty())
            return failed(why);
    if (!diskId.isEmpty() &&
        (rc = fdisk_set_disklabel_id_from_string(context.get(), diskId.toLatin1().constData())) < 0)
        return failed(QStringLiteral("the disk identifier: %1").arg(errnoText(rc)));
    if ((rc = fdisk_write_disklabel(context.get())) < 0)
        return failed(errnoText(rc));
    // nosync: no global sync(); the device alone is flushed (deassign fsyncs it).
    if ((rc = fdisk_deassign_device(context.get(), 1)) < 0)
        return failed(errnoText(rc));
    return true;
}

} // namespace partwise
