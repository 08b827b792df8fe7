#include "recentimages.h"

#include <QFileInfo>
#include <QSettings>

namespace {

const char kKey[] = "recentImages";

} // namespace

namespace RecentImages {

QStringList load()
{
    return QSettings().value(kKey).toStringList();
}

void add(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList paths = load();
    paths.removeAll(absolute);
    paths.prepend(absolute);
    while (paths.size() > kMaximum)
        paths.removeLast();
    QSettings().setValue(kKey, paths);
}

void clear()
{
    QSettings().remove(kKey);
}

} // namespace RecentImages
