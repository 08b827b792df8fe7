#pragma once

// A word quoted for a POSIX shell, for the commands Partwise prints for a person to paste
// (often as root): any file name, quotes, spaces, `$(…)` and newlines included, pastes as
// that one word and nothing else.

#include <QString>

namespace partwise {

QString shellQuoted(const QString &word);

} // namespace partwise
