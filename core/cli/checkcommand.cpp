#include "cli/checkcommand.h"

#include "boot/bootinventory.h"
#include "device/diskenumerator.h"
#include "device/opendisk.h"
#include "layer/layerreader.h"
#include "report/checkreport.h"
#include "table/diskreader.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace partwise {

int runCheck(const CheckOptions &options, QTextStream &out, QTextStream &err)
{
    QStringList targets = options.targets;
    const bool everyDisk = targets.isEmpty();
    if (everyDisk) {
        targets = listDisks();
        if (targets.isEmpty()) {
            err << "No disks found. Run as root to see the machine's disks, or name a disk "
                   "image.\n";
            return ExitBadInput;
        }
    }

    bool anyMisaligned = false;
    bool anyError = false;
    QJsonArray devices;
    QJsonArray errors;
    DiskReadOptions readOptions;
    readOptions.forcedSectorSize = options.forcedSectorSize;
    readOptions.askDrive = true; // the report shows what the drive says (see DiskReadOptions)
    // This machine's firmware entries, read once: they name ESPs of its own disks only.
    const FirmwareEntries firmware = readFirmwareEntries();
    BootReadOptions bootOptions;
    bootOptions.firmware = &firmware;
    for (const QString &target : targets) {
        // Opened once: the reader, libblkid and the boot inventory all go through it.
        OpenDisk disk;
        QString openError;
        DiskReadResult read;
        if (disk.open(target, &openError)) {
            read = readDisk(disk, readOptions);
        } else {
            read.error = openError;
            read.accessDenied = disk.accessDenied();
        }
        if (!read.ok) {
            // Scanning every disk, one the system won't let us open (a sandbox, a locked
            // device) is reported but is not the user's bad input.
            anyError = anyError || !(everyDisk && read.accessDenied);
            err << "partwise-cli: " << read.error << "\n";
            errors.append(QJsonObject{{QStringLiteral("path"), target},
                                      {QStringLiteral("error"), read.error}});
            continue;
        }
        readLayers(&read.layout);
        DiskCheck check{read.layout, analyzeAlignment(read.layout, options.policy), {}};
        bootOptions.diskFd = disk.fd();
        check.boot = readBootInventory(read.layout, bootOptions);
        anyMisaligned = anyMisaligned || check.hasMisaligned();
        if (options.json)
            devices.append(diskCheckToJson(check));
        else
            out << diskCheckToText(check) << "\n";
    }
    if (options.json) {
        QJsonObject root{{QStringLiteral("devices"), devices}};
        if (!errors.isEmpty())
            root[QStringLiteral("errors")] = errors;
        out << QJsonDocument(root).toJson(QJsonDocument::Indented);
    }
    // Not one target read (a user without the rights to open any disk): nothing was checked,
    // and a script must not read that as "nothing misaligned".
    const bool nothingRead = errors.size() == targets.size();
    if (nothingRead && everyDisk)
        err << "partwise-cli: no disk could be read, so nothing was checked. Run as root (sudo) "
               "to check this machine's disks, or name a disk image.\n";
    out.flush();
    err.flush();
    if (anyError || nothingRead)
        return ExitBadInput;
    return anyMisaligned ? ExitMisalignedOrFailed : ExitOk;
}

} // namespace partwise
