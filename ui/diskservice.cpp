#include "diskservice.h"

#include "device/diskenumerator.h"
#include "layer/layerreader.h"

using namespace partwise;

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

void DiskService::read(const QString &path, qint64 forcedSectorSize)
{
    m_jobs.enqueue(
        [this, path, forcedSectorSize, firmware = m_firmware] {
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
            return std::function<void()>(
                [this, path, result, boot] { emit diskRead(path, result, boot); });
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
