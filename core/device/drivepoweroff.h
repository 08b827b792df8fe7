#pragma once

// Power Off / Safely Remove of a USB drive, as udisks does where it runs (its Drive.PowerOff):
// nothing on the drive may be in use; the drive's caches are flushed, the kernel lets go of the
// disk (the SCSI device's sysfs "delete": the sd driver syncs the drive's cache and stops it),
// and the USB device is removed from its port (the USB device's sysfs "remove"), after which the
// stick can be pulled. Root only. The window goes through udisks2 where it runs
// (ui/mount/udisksclient) and through the helper's "power-off" where it does not.

#include <QString>
#include <QStringList>

namespace partwise {

struct PowerOffResult
{
    bool ok = false;
    QString error;
    bool refused = false; // nothing done: not a USB drive, in use, being written, not a disk
    QStringList busy;     // what holds it, when that was the reason
};

// Whether `diskPath` ("/dev/sdb") is a whole disk behind a USB device, which can be powered
// off; `why` says why not. `sysRoot` is where sysfs is read and written: another folder only in
// tests, which build a USB device's tree there.
bool canPowerOff(const QString &diskPath, QString *why,
                 const QString &sysRoot = QStringLiteral("/sys"));

// Every whole disk behind the same USB device goes with it, so each must be free (none in use,
// none being written); each is claimed exclusively until the device is removed.
PowerOffResult powerOffDrive(const QString &diskPath,
                             const QString &sysRoot = QStringLiteral("/sys"));

} // namespace partwise
