#include "journaldurability.h"

#include "base/mounttable.h"

#include <QFile>
#include <QFileInfo>

#include <linux/magic.h>
#include <sys/vfs.h>

namespace partwise::move {

namespace {

// The nearest folder of `path` that exists: the journal's own folder may not be made yet.
QString existingFolder(const QString &path)
{
    QString dir = QFileInfo(path).absolutePath();
    while (!QFileInfo(dir).isDir() && dir != QLatin1String("/"))
        dir = QFileInfo(dir).absolutePath();
    return dir;
}

bool inMemory(const QString &dir, QString *name)
{
    struct statfs fs;
    if (::statfs(QFile::encodeName(dir).constData(), &fs) != 0)
        return false;
    if (fs.f_type == TMPFS_MAGIC) {
        *name = QStringLiteral("tmpfs");
        return true;
    }
    if (fs.f_type == RAMFS_MAGIC) {
        *name = QStringLiteral("ramfs");
        return true;
    }
    return false;
}

// The writable layer of the overlay mounted at the deepest mount point holding `dir`.
QString overlayUpperDir(const QString &dir)
{
    QString bestMount;
    QString upper;
    for (const MountEntry &mount : readMountTable()) {
        const QString &mountPoint = mount.target;
        const bool holds = dir == mountPoint || mountPoint == QLatin1String("/") ||
                           dir.startsWith(mountPoint + QLatin1Char('/'));
        // Equal lengths: the later entry is mounted over the earlier one.
        if (!holds || mountPoint.size() < bestMount.size())
            continue;
        bestMount = mountPoint;
        upper = mount.type == QLatin1String("overlay")
                    ? mountOption(mount.fsOptions, QStringLiteral("upperdir"))
                    : QString();
    }
    return upper;
}

} // namespace

JournalDurability journalDurability(const QString &journalPath)
{
    JournalDurability result;
    const QString dir = existingFolder(journalPath);
    QString name;
    if (inMemory(dir, &name)) {
        result.filesystem = name;
    } else if (const QString upper = overlayUpperDir(dir);
               !upper.isEmpty() && inMemory(upper, &name)) {
        result.filesystem = QStringLiteral("overlay on %1").arg(name);
    } else {
        return result;
    }
    result.survivesPowerCut = false;
    result.warning =
        QStringLiteral("The move journal %1 would be kept in memory (%2, as in a live session): "
                       "a power cut during the move would lose it, and with it the record of "
                       "where the data is. Give a journal on a disk that is not being moved, "
                       "with --journal PATH (a USB stick will do).")
            .arg(journalPath, result.filesystem);
    return result;
}

} // namespace partwise::move
