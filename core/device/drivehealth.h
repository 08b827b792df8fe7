#pragma once

// The drive's health at a glance: SMART's overall verdict and the counters that predict a
// failure, turned into one status a person can act on. "Failing" is SMART's own verdict;
// "warning" means the drive passes but has begun to lose sectors (reallocated, pending or
// uncorrectable), reports NVMe media errors, or has used 90 % of its rated life: the signs that
// Backblaze's and Google's drive studies found to precede most failures. Moving data on such a
// drive reads and writes every sector concerned, which is the worst thing to do to it before
// its data is safe elsewhere, so every move asks first.

#include "device/drivereport.h"

#include <QStringList>

namespace partwise {

enum class DriveHealthStatus { Unknown, Good, Warning, Failing };

struct DriveHealth
{
    DriveHealthStatus status = DriveHealthStatus::Unknown;
    QStringList findings; // "1520 reallocated sectors", "SMART overall health: failed", ...

    bool risky() const
    {
        return status == DriveHealthStatus::Warning || status == DriveHealthStatus::Failing;
    }
};

DriveHealth judgeDriveHealth(const DriveReport &report);

// "good", "warning", "failing" or "unknown", as check --json writes it.
QString driveHealthName(DriveHealthStatus status);

// Said before any move on a drive whose health is at risk.
QString riskyDriveWarning(const QString &device, const DriveHealth &health);

} // namespace partwise
