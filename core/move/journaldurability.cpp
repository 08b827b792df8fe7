#include "journaldurability.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

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

// mountinfo escapes blanks and backslashes in paths as octal.
QString unescape(const QString &field)
{
    QString out;
    for (int i = 0; i < field.size(); ++i) {
        if (field[i] == QLatin1Char('\\') && i + 3 < field.size()) {
            out += QChar(field.mid(i + 1, 3).toInt(nullptr, 8));
            i += 3;
        } else {
            out += field[i];
        }
    }
    return out;
}

// The writable layer of the overlay mounted at the deepest mount point holding `dir`.
QString overlayUpperDir(const QString &dir)
{
    QFile mountinfo(QStringLiteral("/proc/self/mountinfo"));
    if (!mountinfo.open(QIODevice::ReadOnly))
        return QString();
    QString bestMount;
    QString upper;
    const QStringList lines = QString::fromLocal8Bit(mountinfo.readAll()).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        // id parent major:minor root mountpoint options [optional...] - type source super-options
        const int dash = line.indexOf(QLatin1String(" - "));
        if (dash < 0)
            continue;
        const QStringList left = line.left(dash).split(QLatin1Char(' '));
        const QStringList right = line.mid(dash + 3).split(QLatin1Char(' '));
        if (left.size() < 5 || right.size() < 3)
            continue;
        const QString mountPoint = unescape(left[4]);
        const bool holds = dir == mountPoint || mountPoint == QLatin1String("/") ||
                           dir.startsWith(mountPoint + QLatin1Char('/'));
        if (!holds || mountPoint.size() < bestMount.size())
            continue;
        bestMount = mountPoint;
        upper.clear();
        if (right[0] != QLatin1String("overlay"))
            continue;
        for (const QString &option : right[2].split(QLatin1Char(',')))
            if (option.startsWith(QLatin1String("upperdir=")))
                upper = unescape(option.mid(9));
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
