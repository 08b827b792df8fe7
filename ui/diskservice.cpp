#include "diskservice.h"

#include "boot/partitionentries.h"
#include "device/diskenumerator.h"
#include "device/diskidentity.h"
#include "layer/layerreader.h"

#include <QFile>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace partwise;

namespace {

// What the disk is, its size and its table as libblkid reads them, opened read-only (closing a disk
// opened to write makes udev announce a change: this must not). Empty when it cannot be opened.
QString shapeOf(const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return QString();
    struct stat st;
    quint64 bytes = 0;
    int sectorSize = 512;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        bytes = quint64(st.st_size);
    else if (::ioctl(fd, BLKGETSIZE64, &bytes) != 0 || ::ioctl(fd, BLKSSZGET, &sectorSize) != 0)
        bytes = 0;
    const PartitionEntries table = readPartitionEntries(fd, sectorSize);
    ::close(fd);
    // What the disk is, too: a clone of a disk's table on another disk is not that disk.
    QStringList parts{diskIdentityOf(path), QString::number(bytes), table.tableType, table.diskId};
    for (const PartitionEntry &e : table.entries)
        parts << QStringLiteral("%1:%2+%3:%4")
                     .arg(e.number)
                     .arg(e.startSector)
                     .arg(e.lengthSectors)
                     .arg(e.typeId());
    return parts.join(u'|');
}

} // namespace

DiskService::DiskService(QObject *parent) : QObject(parent)
{
    // For queued connections and QSignalSpy on the signals.
    qRegisterMetaType<DiskReadResult>();
    qRegisterMetaType<std::optional<BootInventory>>();
    qRegisterMetaType<PracticeDiskSpec>();
}

void DiskService::listDisks()
{
    m_jobs.enqueue(
        [this] {
            const QStringList paths = ::listDisks();
            return std::function<void()>([this, paths] { emit disksListed(paths); });
        },
        QStringLiteral("partwise-disk-list"));
}

void DiskService::readIfChanged(const QString &path, const QString &shape)
{
    m_jobs.enqueue(
        [this, path, shape] {
            const bool same = !shape.isEmpty() && shapeOf(path) == shape;
            return std::function<void()>([this, path, same] {
                if (same)
                    emit diskUnchanged(path);
                else
                    read(path);
            });
        },
        QStringLiteral("partwise-disk-check"));
}

void DiskService::read(const QString &path, qint64 forcedSectorSize)
{
    m_jobs.enqueue(
        [this, path, forcedSectorSize, firmware = m_firmware] {
            const QString identity = diskIdentityOf(path);
            const QString shape = shapeOf(path);
            DiskReadOptions options;
            options.forcedSectorSize = forcedSectorSize;
            options.askDrive = true; // the info panel shows the drive's own report
            DiskReadResult result = readDisk(path, options);
            readLayers(&result.layout); // LUKS and LVM inside partitions, for map and panel
            std::optional<BootInventory> boot;
            if (result.ok) {
                BootReadOptions bootOptions;
                if (!result.layout.device.isImage) {
                    if (!*firmware)
                        *firmware = readFirmwareEntries();
                    bootOptions.firmware = &**firmware;
                }
                boot = readBootInventory(result.layout, bootOptions);
            }
            return std::function<void()>([this, path, result, boot, identity, shape] {
                emit diskRead(path, result, boot, identity, shape);
            });
        },
        QStringLiteral("partwise-disk-read"));
}

void DiskService::createPracticeDisk(const PracticeDiskSpec &spec)
{
    m_jobs.enqueue(
        [this, spec] {
            QString error;
            QString path;
            if (::createPracticeDisk(spec, &error)) {
                path = spec.path;
                error.clear();
            } else if (error.isEmpty()) {
                error = tr("The image could not be created.");
            }
            return std::function<void()>([this, path, error] { emit imageCreated(path, error); });
        },
        QStringLiteral("partwise-practice-disk"));
}

void DiskService::createDemoDisk(const QString &folder)
{
    m_jobs.enqueue(
        [this, folder] {
            QString error;
            const QString path = ::createDemoDisk(folder, &error);
            if (path.isEmpty() && error.isEmpty())
                error = tr("The demo disk could not be created.");
            return std::function<void()>([this, path, error] { emit imageCreated(path, error); });
        },
        QStringLiteral("partwise-demo-disk"));
}
