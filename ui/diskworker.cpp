#include "diskworker.h"

#include "device/diskenumerator.h"
#include "layer/layerreader.h"

void DiskWorker::listDisks()
{
    emit disksListed(::listDisks());
}

void DiskWorker::read(const QString &path, qint64 forcedSectorSize)
{
    DiskReadOptions options;
    options.forcedSectorSize = forcedSectorSize;
    options.askDrive = true; // the info panel shows the drive's own report (off the GUI thread)
    DiskReadResult result = readDisk(path, options);
    readLayers(&result.layout); // LUKS and LVM inside partitions, for the map and the panel
    emit diskRead(path, result);
}

void DiskWorker::createPracticeDisk(const PracticeDiskSpec &spec)
{
    QString error;
    if (::createPracticeDisk(spec, &error))
        emit imageCreated(spec.path, QString());
    else
        emit imageCreated(QString(),
                          error.isEmpty() ? tr("The image could not be created.") : error);
}

void DiskWorker::createDemoDisk(const QString &folder)
{
    QString error;
    const QString path = ::createDemoDisk(folder, &error);
    emit imageCreated(path, path.isEmpty() && error.isEmpty()
                                ? tr("The demo disk could not be created.")
                                : error);
}
