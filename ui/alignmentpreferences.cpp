#include "alignmentpreferences.h"

#include <QSettings>

using namespace partwise;

namespace {

const char kGrainKey[] = "alignment/grainBytes";
const char kTrustKey[] = "alignment/trustDrive";

} // namespace

namespace AlignmentPreferences {

AlignmentPolicy load()
{
    const QSettings settings;
    AlignmentPolicy policy;
    const qint64 grain = settings.value(kGrainKey, AlignmentPolicy::kDefaultGrain).toLongLong();
    // A hand-edited or corrupt value must not reach the modulo arithmetic in core/align.
    if (grain >= 512 && grain % 512 == 0)
        policy.grainBytes = grain;
    policy.trustDrive = settings.value(kTrustKey, false).toBool();
    return policy;
}

void save(const AlignmentPolicy &policy)
{
    QSettings settings;
    settings.setValue(kGrainKey, policy.grainBytes);
    settings.setValue(kTrustKey, policy.trustDrive);
}

} // namespace AlignmentPreferences
