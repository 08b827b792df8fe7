#include "device/drivehealth.h"

namespace partwise {

namespace {

// NVMe's "percentage used" is the vendor's estimate of life used; 100 is the rated end.
constexpr qint64 kWornPercentage = 90;

void count(const std::optional<qint64> &value, const QString &what, QStringList *findings)
{
    if (value && *value > 0)
        findings->append(QStringLiteral("%1 %2").arg(*value).arg(what));
}

} // namespace

DriveHealth judgeDriveHealth(const DriveReport &r)
{
    DriveHealth health;
    if (!r.answered)
        return health;
    count(r.reallocatedSectors, QStringLiteral("reallocated sectors"), &health.findings);
    count(r.pendingSectors, QStringLiteral("sectors pending reallocation"), &health.findings);
    count(r.uncorrectableSectors, QStringLiteral("uncorrectable sectors"), &health.findings);
    count(r.mediaErrors, QStringLiteral("media errors"), &health.findings);
    if (r.percentageUsed && *r.percentageUsed >= kWornPercentage)
        health.findings << QStringLiteral("%1 % of its rated life used").arg(*r.percentageUsed);
    if (r.smartPassed == false) {
        health.findings.prepend(QStringLiteral("SMART overall health: failed"));
        health.status = DriveHealthStatus::Failing;
    } else if (!health.findings.isEmpty()) {
        health.status = DriveHealthStatus::Warning;
    } else if (r.smartPassed == true) {
        health.status = DriveHealthStatus::Good;
    }
    return health;
}

QString driveHealthName(DriveHealthStatus status)
{
    switch (status) {
    case DriveHealthStatus::Good:
        return QStringLiteral("good");
    case DriveHealthStatus::Warning:
        return QStringLiteral("warning");
    case DriveHealthStatus::Failing:
        return QStringLiteral("failing");
    case DriveHealthStatus::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString riskyDriveWarning(const QString &device, const DriveHealth &health)
{
    return QStringLiteral("%1 %2 (%3): copy your data off first; moving data on a failing drive "
                          "risks losing it.")
        .arg(device,
             health.status == DriveHealthStatus::Failing ? QStringLiteral("is failing")
                                                         : QStringLiteral("shows signs of failing"),
             health.findings.join(QStringLiteral(", ")));
}

} // namespace partwise
