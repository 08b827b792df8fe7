#pragma once

#include "backgroundjob.h"
#include "boot/bootinventory.h"
#include "ops/practicedisk.h"
#include "table/diskreader.h"

#include <QObject>

#include <memory>
#include <optional>

// The slow disk work, off the GUI thread so the window paints at once and fills in as disks
// are read: listing disks, reading a table (libparted, blkid probing, the drive's own report)
// with what boots from the disk (once per read, for the info panel and Apply), and creating
// practice images (mkfs tools). The jobs run one after another, in the order they were asked for,
// as BackgroundJobs; their results come back as signals on the GUI thread.
class DiskService : public QObject
{
    Q_OBJECT

public:
    explicit DiskService(QObject *parent = nullptr);
    // Lets the job under way finish (libparted cannot be interrupted) and drops the others.
    ~DiskService() override = default;

    void listDisks();
    void read(const QString &path, qint64 forcedSectorSize = 0);
    // Reads `path` again only when its size or partition table is not `shape` (diskRead's):
    // the kernel says "changed" each time udev sees a disk closed after writing, and reading
    // one (libparted opens it read-write) is such a close. Otherwise says diskUnchanged().
    void readIfChanged(const QString &path, const QString &shape);
    void createPracticeDisk(const partwise::PracticeDiskSpec &spec);
    void createDemoDisk(const QString &folder);

signals:
    void disksListed(const QStringList &paths);
    // `boot`: what boots from the disk; absent when it could not be read. `identity`: what the
    // disk was when the read began (device/diskidentity.h), empty when that could not be told;
    // `shape`: its size and table as libblkid read them then, for readIfChanged().
    void diskRead(const QString &path, const partwise::DiskReadResult &result,
                  const std::optional<partwise::BootInventory> &boot, const QString &identity,
                  const QString &shape);
    void diskUnchanged(const QString &path);
    // `path` is the image created; `error` says why not when it is empty.
    void imageCreated(const QString &path, const QString &error);

private:
    // This machine's firmware boot entries, read by the first job that reads one of its disks
    // (efibootmgr reads NVRAM: once per run). Only jobs touch it, and they run one at a time.
    std::shared_ptr<std::optional<partwise::FirmwareEntries>> m_firmware =
        std::make_shared<std::optional<partwise::FirmwareEntries>>();
    BackgroundJob m_jobs;
};

Q_DECLARE_METATYPE(partwise::DiskReadResult)
Q_DECLARE_METATYPE(std::optional<partwise::BootInventory>)
Q_DECLARE_METATYPE(partwise::PracticeDiskSpec)
