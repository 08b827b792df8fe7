#pragma once

#include "align/alignmentpolicy.h"

// The alignment policy kept between sessions (QSettings "alignment/grainBytes",
// "alignment/trustDrive"); defaults are the policy's own (1 MiB, don't trust the drive).
namespace AlignmentPreferences {

partwise::AlignmentPolicy load();
void save(const partwise::AlignmentPolicy &policy);

} // namespace AlignmentPreferences
