#include "table/gptentrycount.h"

#include <QFile>

#include <libfdisk/libfdisk.h>

#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <unistd.h>

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

// A libfdisk context on `fd` holding a GPT read with `sectorSize`-byte sectors, or null.
Context gptContext(int fd, const QString &path, qint64 sectorSize)
{
    Context context(fdisk_new_context());
    if (!context ||
        fdisk_save_user_sector_size(context.get(), unsigned(sectorSize), unsigned(sectorSize)) <
            0 ||
        fdisk_assign_device_by_fd(context.get(), fd, QFile::encodeName(path).constData(), 0) < 0 ||
        !fdisk_is_label(context.get(), GPT))
        return nullptr;
    return context;
}

// One partition into the in-memory table; nothing is written yet.
int addEntry(fdisk_context *context, const PartitionSpec &spec)
{
    fdisk_partition *entry = fdisk_new_partition();
    if (!entry)
        return -ENOMEM;
    int rc = fdisk_partition_set_partno(entry, size_t(spec.number - 1));
    if (rc == 0)
        rc = fdisk_partition_set_start(entry, fdisk_sector_t(spec.startSector));
    if (rc == 0)
        rc = fdisk_partition_set_size(entry, fdisk_sector_t(spec.endSector - spec.startSector + 1));
    if (rc == 0 && !spec.name.isEmpty())
        rc = fdisk_partition_set_name(entry, spec.name.toUtf8().constData());
    if (rc == 0)
        rc = fdisk_add_partition(context, entry, nullptr);
    fdisk_unref_partition(entry);
    return rc;
}

} // namespace

bool addGptEntriesBeyondParted(const QString &path, qint64 sectorSize, int entryCount,
                               const QList<PartitionSpec> &partitions, QString *error)
{
    auto failed = [&](const QString &why) {
        *error = QStringLiteral("Writing the GPT entries libparted cannot write (past 128) on %1 "
                                "failed: %2.")
                     .arg(path, why);
        return false;
    };
    for (const PartitionSpec &p : partitions)
        entryCount = std::max(entryCount, p.number);
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return failed(errnoText(errno));
    bool ok = false;
    if (const Context context = gptContext(fd, path, sectorSize); !context) {
        failed(QStringLiteral("no GPT was found"));
    } else if (int rc = fdisk_gpt_set_npartitions(context.get(), uint32_t(entryCount)); rc < 0) {
        failed(QStringLiteral("%1 entries: %2").arg(entryCount).arg(errnoText(rc)));
    } else {
        ok = true;
        for (const PartitionSpec &p : partitions)
            if (ok && (rc = addEntry(context.get(), p)) < 0)
                ok = failed(QStringLiteral("partition %1: %2").arg(p.number).arg(errnoText(rc)));
        // nosync: no global sync(); the device alone is flushed (deassign fsyncs it).
        if (ok && ((rc = fdisk_write_disklabel(context.get())) < 0 ||
                   (rc = fdisk_deassign_device(context.get(), 1)) < 0))
            ok = failed(errnoText(rc));
    }
    ::close(fd);
    return ok;
}

} // namespace partwise
