#include "journalpreferences.h"

#include <QSettings>

namespace {

const char kFolderKey[] = "moves/journalFolder";

} // namespace

namespace JournalPreferences {

QString folder()
{
    return QSettings().value(kFolderKey).toString();
}

void setFolder(const QString &folder)
{
    QSettings settings;
    if (folder.isEmpty())
        settings.remove(kFolderKey);
    else
        settings.setValue(kFolderKey, folder);
}

} // namespace JournalPreferences
