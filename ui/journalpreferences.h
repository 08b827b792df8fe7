#pragma once

#include <QString>

// Where moves of a disk keep their journals, kept between sessions (QSettings
// "moves/journalFolder"). Empty means the default, /var/lib/partwise/moves; a live session
// sets a folder on another disk, since a journal in memory does not survive a power cut.
// Images keep their journals beside them whatever this says.
namespace JournalPreferences {

QString folder();
void setFolder(const QString &folder);

} // namespace JournalPreferences
