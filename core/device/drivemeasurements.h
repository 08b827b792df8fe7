#pragma once

// What the timing probe measured on a drive, remembered so that check, create and realign use
// it on every later run. A measurement belongs to the drive, not to the name the kernel gave
// it today (/dev/sdb may be another disk tomorrow), so it is kept under the drive's World Wide
// Name or serial number; a loop device is known by its backing file. A device with neither
// (an image file, a drive that tells nothing) has no key, and nothing is remembered for it.
//
// The store is one small JSON file: /var/lib/partwise/drives.json for root,
// $XDG_STATE_HOME/partwise/drives.json otherwise; `PARTWISE_DRIVE_STORE` names another file
// (tests). It is written atomically (write, fsync, rename, fsync of its folder); a file that is
// not a JSON object is never overwritten (it would take every other drive's measurement with
// it): saving and forgetting then fail with a sentence saying so. `error` may be null.

#include <QDateTime>
#include <QString>

#include <optional>

namespace partwise {

struct DriveMeasurement
{
    qint64 physicalSectorSize = 0; // bytes: the unit a partial write pays a read-modify-write for
    qint64 alignmentOffset = 0;    // bytes: where the first physical sector starts in LBA space
    double penaltyRatio = 1.0;     // straddling writes took this many times as long
    QDateTime measuredAt;
};

// The key of the drive behind `devicePath` (a disk or one of its partitions): "wwn:...",
// "serial:..." or "loop:<backing file>"; empty when the drive cannot be told apart.
QString driveKey(const QString &devicePath);

// The store's file (see above).
QString driveMeasurementStorePath();

std::optional<DriveMeasurement> loadDriveMeasurement(const QString &key);
bool saveDriveMeasurement(const QString &key, const DriveMeasurement &measurement, QString *error);
bool forgetDriveMeasurement(const QString &key, QString *error);

} // namespace partwise
