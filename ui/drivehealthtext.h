#pragma once

// The window's one sentence for a drive whose SMART health is at risk, said before anything
// moves on it (the Apply confirmation, the realign wizard's plan); core's riskyDriveWarning()
// is the same sentence for partwise-cli, which loads no translation.

#include <QString>

namespace partwise {
struct DriveHealth;
}

QString riskyDriveSentence(const partwise::DriveHealth &health);
