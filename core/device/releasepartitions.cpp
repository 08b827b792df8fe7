#include "device/releasepartitions.h"

#include "base/shellquote.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace partwise {

namespace {

// The numbers of the partitions the kernel knows on `diskPath`.
QList<int> partitionNumbers(const QString &diskPath)
{
    struct stat st;
    if (::stat(QFile::encodeName(diskPath).constData(), &st) != 0 || !S_ISBLK(st.st_mode))
        return {};
    const QDir folder(
        QFileInfo(
            QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev)))
            .canonicalFilePath());
    QList<int> out;
    for (const QString &entry : folder.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile number(folder.filePath(entry + QStringLiteral("/partition")));
        if (number.open(QIODevice::ReadOnly))
            out << number.readAll().trimmed().toInt();
    }
    return out;
}

void say(const std::function<void(const QString &)> &log, const QString &line)
{
    if (log)
        log(line);
}

} // namespace

ReleaseOutcome releasePartitions(const QString &diskPath, const QList<int> &numbers,
                                 const std::function<void(const QString &)> &log)
{
    ReleaseOutcome out;
    const QList<int> wanted = numbers.isEmpty() ? partitionNumbers(diskPath) : numbers;
    for (const int number : wanted) {
        PartitionNode node;
        QString why;
        if (!findPartitionNode(diskPath, number, &node, &why))
            continue; // nothing of the kernel's to release (an image, a partition to be made)
        ReleasedPartition released{diskPath, number, node, {}, false, filesystemOf(node).uuid};
        if (swapIsOn(node)) {
            if (!swapOff(node, &why)) {
                out.error = why + QLatin1Char('.');
                break;
            }
            released.swap = true;
            say(log, QStringLiteral("Turned off swap on %1.").arg(node.path));
        }
        const UnmountOutcome unmount = unmountEverywhere(node);
        released.places = unmount.unmounted;
        for (const MountPlace &place : unmount.unmounted)
            say(log, QStringLiteral("Unmounted %1 from %2.").arg(node.path, place.target));
        if (released.swap || !released.places.isEmpty())
            out.released << released;
        if (!unmount.ok) {
            out.error = unmount.error;
            break;
        }
    }
    if (!out.error.isEmpty()) {
        // Refused: what was released goes back, so nothing changed.
        for (const QString &problem : restorePartitions(out.released, std::nullopt, log))
            out.error += QLatin1Char(' ') + problem;
        out.released.clear();
        return out;
    }
    out.ok = true;
    return out;
}

QStringList restorePartitions(const QList<ReleasedPartition> &released,
                              std::optional<uid_t> servedUser,
                              const std::function<void(const QString &)> &log)
{
    QStringList problems;
    for (const ReleasedPartition &r : released) {
        QString why;
        PartitionNode now;
        // A moved partition may come back with another device number (BLKPG removes and adds
        // it): its filesystem's UUID says whether it is the same one.
        if (!findPartitionNode(r.disk, r.number, &now, &why) || filesystemOf(now).uuid != r.uuid) {
            problems << QStringLiteral("Partition %1 (%2) holds another filesystem now, or is "
                                       "gone; it was not mounted back.")
                            .arg(r.number)
                            .arg(r.node.path);
            continue;
        }
        if (!r.places.isEmpty()) {
            if (mountBack(now, r.places, servedUser, &why))
                for (const MountPlace &place : r.places)
                    say(log,
                        QStringLiteral("Mounted %1 back on %2.").arg(r.node.path, place.target));
            else
                problems << QStringLiteral(
                                "%1 was not mounted back: %2 (mount it with: mount -t %3 "
                                "%4 %5).")
                                .arg(r.node.path, why, r.places.first().type,
                                     shellQuoted(r.node.path),
                                     shellQuoted(r.places.first().target));
        }
        if (r.swap) {
            if (swapOn(now, &why))
                say(log, QStringLiteral("Turned swap on %1 back on.").arg(r.node.path));
            else
                problems << QStringLiteral("%1 was not turned back on as swap: %2 (swapon %3).")
                                .arg(r.node.path, why, shellQuoted(r.node.path));
        }
    }
    return problems;
}

} // namespace partwise
