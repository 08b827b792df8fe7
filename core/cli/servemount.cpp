// The helper's unmount, mount, swapoff and swapon (README, "The helper protocol"). Each names a
// partition of the disk the request's "path" names, which passes the ServeTargetGuard first;
// the partition is found through sysfs, never by a name the client makes. Root working for a
// user unmounts only what users mount (ServeTargetGuard::admitsUnmountAt), mounts only on a
// folder of that user's (resolved once without links, mounted through its descriptor, nosuid and
// nodev) or under /run/media/USER, and mounts back only what this helper itself unmounted.
#include "cli/servesession.h"

#include "boot/partitionentries.h"
#include "device/diskwritelock.h"
#include "device/mountfolder.h"

#include <QFile>
#include <QJsonArray>

#include <algorithm>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

using namespace jsonrpc;

namespace {

QJsonArray placesJson(const QList<MountPlace> &places)
{
    QJsonArray out;
    for (const MountPlace &p : places)
        out.append(QJsonObject{{QStringLiteral("target"), p.target},
                               {QStringLiteral("type"), p.type},
                               {QStringLiteral("options"), p.vfsOptions}});
    return out;
}

QJsonArray holdersJson(const QList<HoldingProcess> &holders)
{
    QJsonArray out;
    for (const HoldingProcess &h : holders)
        out.append(
            QJsonObject{{QStringLiteral("pid"), qint64(h.pid)}, {QStringLiteral("name"), h.name}});
    return out;
}

// Why the kernel's node of partition `number` does not show the partition the disk's table (and
// so the window) shows, or empty when it does: a node the kernel still places where an older
// table had it would mount, or swap on, another partition's sectors. The disk is opened by the
// name the guard admitted (a device node, reached without links), read only.
QString writeJobRunning(const QString &disk, int number)
{
    return QStringLiteral("A realignment, Apply or copy is writing %1; partition %2 can be used "
                          "again once it has finished.")
        .arg(disk)
        .arg(number);
}

QString staleNodeReason(const QString &disk, int number, const PartitionNode &node)
{
    const int fd = ::open(QFile::encodeName(disk).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    int sectorSize = 0;
    PartitionEntries table;
    if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) &&
        ::ioctl(fd, BLKSSZGET, &sectorSize) == 0 && sectorSize > 0)
        table = readPartitionEntries(fd, sectorSize);
    if (fd >= 0)
        ::close(fd);
    const PartitionEntry *entry = table.ok ? table.byNumber(number) : nullptr;
    if (!entry)
        return QStringLiteral("The table of %1 could not be read to confirm that %2 is its "
                              "partition %3")
            .arg(disk, node.path)
            .arg(number);
    const qint64 start = entry->startSector * sectorSize;
    const qint64 size = entry->lengthSectors * sectorSize;
    if (node.startBytes == start && node.sizeBytes == size)
        return QString();
    return QStringLiteral("The kernel's %1 covers bytes %2-%3 of %4, but the table's partition %5 "
                          "covers bytes %6-%7; after a table change the kernel has not read "
                          "(partx -u %4, or a reboot), it shows other sectors")
        .arg(node.path)
        .arg(node.startBytes)
        .arg(node.startBytes + node.sizeBytes - 1)
        .arg(disk)
        .arg(number)
        .arg(start)
        .arg(start + size - 1);
}

} // namespace

bool ServeSession::mountTargetOf(const Request &request, bool forMount, QString *disk,
                                 MountRequest *asked, PartitionNode *node)
{
    if (!targetOf(request, disk))
        return false;
    if (const QString problem = readMountRequest(request.params, forMount, asked);
        !problem.isEmpty()) {
        fail(request, InvalidParams, problem);
        return false;
    }
    if (!m_guard.servedUser().privileged) {
        fail(request, Refused,
             QStringLiteral("Mounting, unmounting and swap need the administrator's helper."));
        return false;
    }
    QString why;
    if (!findPartitionNode(*disk, asked->partition, node, &why)) {
        fail(request, Refused, why + QLatin1Char('.'));
        return false;
    }
    return true;
}

void ServeSession::unmountMethod(const Request &request)
{
    QString disk;
    MountRequest asked;
    PartitionNode node;
    if (!mountTargetOf(request, false, &disk, &asked, &node))
        return;
    // Nothing mounted is nothing to do: a window that frees a whole disk asks for each partition.
    const QList<MountPlace> places = mountPlacesOf(node);
    for (const MountPlace &place : places) {
        QString why;
        if (!m_mountedHere.contains(place.target) && !m_guard.admitsUnmountAt(place.target, &why))
            return fail(request, Refused, why + QLatin1Char('.'));
    }
    const ServedUser &user = m_guard.servedUser();
    const UnmountOutcome outcome =
        unmountEverywhere(node, user.actsForUser() ? std::optional<uid_t>(user.uid) : std::nullopt);
    const auto key = qMakePair(disk, asked.partition);
    if (!outcome.unmounted.isEmpty()) {
        // Remembered also when a later place stayed busy, so that "back" can undo the part done.
        ReleasedPartition &r = m_unmounted[key];
        if (r.places.isEmpty())
            r = ReleasedPartition{disk, asked.partition, node, {}, false, filesystemOf(node).uuid};
        // A place unmounted again (mounted by someone since) is remembered once.
        QList<MountPlace> places = outcome.unmounted;
        for (const MountPlace &earlier : std::as_const(r.places))
            if (std::none_of(places.cbegin(), places.cend(),
                             [&](const MountPlace &p) { return p.target == earlier.target; }))
                places << earlier;
        r.places = places;
    }
    // The folders this helper made under /run/media for its own mounts go with them.
    for (const MountPlace &place : outcome.unmounted)
        m_mountedHere.remove(place.target);
    for (const MountPlace &place : outcome.unmounted)
        if (m_mediaFolders.contains(place.target)) {
            QString why;
            if (removeMediaFolder(user.uid, place.target, &why))
                m_removedMediaFolders.insert(place.target);
            m_mediaFolders.remove(place.target);
        }
    if (!outcome.ok) {
        const std::lock_guard lock(m_writeMutex);
        m_write(
            errorLine(request.id, Refused, outcome.error,
                      QJsonObject{{QStringLiteral("holders"), holdersJson(outcome.holders)},
                                  {QStringLiteral("unmounted"), placesJson(outcome.unmounted)}}));
        return;
    }
    answer(request, QJsonObject{{QStringLiteral("device"), node.path},
                                {QStringLiteral("unmounted"), placesJson(outcome.unmounted)}});
}

void ServeSession::mountMethod(const Request &request)
{
    QString disk;
    MountRequest asked;
    PartitionNode node;
    if (!mountTargetOf(request, true, &disk, &asked, &node))
        return;
    // What is unmounted is what the kernel has mounted; what is mounted must be what was shown.
    if (const QString stale = staleNodeReason(disk, asked.partition, node); !stale.isEmpty())
        return fail(request, Refused, stale + QLatin1Char('.'));
    if (DiskWriteLock::heldByAJob(disk))
        return fail(request, Refused, writeJobRunning(disk, asked.partition));
    const ServedUser &user = m_guard.servedUser();
    const std::optional<uid_t> owner =
        user.actsForUser() ? std::optional<uid_t>(user.uid) : std::nullopt;
    QString why;
    if (asked.back) {
        const auto key = qMakePair(disk, asked.partition);
        const auto it = m_unmounted.constFind(key);
        if (it == m_unmounted.constEnd())
            return fail(request, Refused,
                        QStringLiteral("This helper did not unmount partition %1 of %2; choose "
                                       "a folder to mount it on.")
                            .arg(asked.partition)
                            .arg(disk));
        const ReleasedPartition released = it.value();
        for (const MountPlace &place : released.places)
            if (m_removedMediaFolders.contains(place.target) &&
                remakeMediaFolder(user.uid, place.target, &why)) {
                m_removedMediaFolders.remove(place.target);
                m_mediaFolders.insert(place.target);
            }
        const QStringList problems = restorePartitions({released}, owner, {});
        if (!problems.isEmpty())
            return fail(request, Failed, problems.join(QLatin1Char(' ')));
        m_unmounted.remove(key);
        for (const MountPlace &place : released.places)
            m_mountedHere.insert(place.target);
        return answer(request,
                      QJsonObject{{QStringLiteral("device"), node.path},
                                  {QStringLiteral("mounted"), placesJson(released.places)}});
    }
    if (!userMayRead(request, node.path, QStringLiteral("Mounting %1").arg(node.path)))
        return;
    QString folderPath = asked.folder;
    const int folder = asked.media
                           ? makeMediaFolder(user.uid, filesystemOf(node).label, &folderPath, &why)
                           : openMountFolder(asked.folder, owner, &why);
    if (folder < 0)
        return fail(request, Refused, why + QLatin1Char('.'));
    const bool mounted = mountOnFolder(node, folder, &why);
    ::close(folder);
    if (!mounted) {
        if (asked.media) // the folder was made for this mount only
            ::rmdir(QFile::encodeName(folderPath).constData());
        return fail(request, Failed, why + QLatin1Char('.'));
    }
    if (asked.media)
        m_mediaFolders.insert(folderPath);
    if (owner)
        m_mountedHere.insert(folderPath);
    answer(request, QJsonObject{{QStringLiteral("device"), node.path},
                                {QStringLiteral("mounted"), placesJson(mountPlacesOf(node))}});
}

void ServeSession::swapOffMethod(const Request &request)
{
    QString disk;
    MountRequest asked;
    PartitionNode node;
    if (!mountTargetOf(request, false, &disk, &asked, &node))
        return;
    // Active swap is the system's, whoever turned it on (fstab, a systemd unit, GPT auto-swap):
    // for a user, only what this helper itself turned on for them goes off. Turning off other
    // swap would let any program of the user push the machine into memory pressure and free
    // the partition for writing.
    const auto key = qMakePair(disk, asked.partition);
    const bool wasOn = swapIsOn(node); // off already: nothing to do, as for unmount
    if (m_guard.servedUser().actsForUser() && wasOn &&
        m_swappedOn.value(key, QStringLiteral("-")) != filesystemOf(node).uuid)
        return fail(request, Refused,
                    QStringLiteral("Swap on partition %1 of %2 is the system's: it stays on. An "
                                   "administrator may turn it off with: swapoff %3.")
                        .arg(asked.partition)
                        .arg(disk, node.path));
    QString why;
    if (wasOn && !swapOff(node, &why))
        return fail(request, Failed, why + QLatin1Char('.'));
    if (wasOn) {
        m_swappedOff.insert(key, filesystemOf(node).uuid);
        m_swappedOn.remove(key);
    }
    answer(request, QJsonObject{{QStringLiteral("device"), node.path},
                                {QStringLiteral("swap"), false},
                                {QStringLiteral("was_on"), wasOn}});
}

void ServeSession::swapOnMethod(const Request &request)
{
    QString disk;
    MountRequest asked;
    PartitionNode node;
    if (!mountTargetOf(request, false, &disk, &asked, &node))
        return;
    if (const QString stale = staleNodeReason(disk, asked.partition, node); !stale.isEmpty())
        return fail(request, Refused, stale + QLatin1Char('.'));
    if (DiskWriteLock::heldByAJob(disk))
        return fail(request, Refused, writeJobRunning(disk, asked.partition));
    // Root's memory would be written to the device and read back from it: for a user, only a swap
    // area this helper turned off goes back on. Any other could be the user's own (a loop device
    // over the user's image, as udisks sets up without a password; a stick taken away later).
    const auto key = qMakePair(disk, asked.partition);
    if (m_guard.servedUser().actsForUser()) {
        const auto it = m_swappedOff.constFind(key);
        if (it == m_swappedOff.constEnd() || it.value() != filesystemOf(node).uuid)
            return fail(request, Refused,
                        QStringLiteral("This helper did not turn off swap on partition %1 of %2; "
                                       "an administrator may turn it on with: swapon %3.")
                            .arg(asked.partition)
                            .arg(disk, node.path));
    }
    QString why;
    if (!swapOn(node, &why))
        return fail(request, Failed, why + QLatin1Char('.'));
    if (const auto it = m_swappedOff.constFind(key); it != m_swappedOff.constEnd())
        m_swappedOn.insert(key, it.value());
    m_swappedOff.remove(key);
    answer(request,
           QJsonObject{{QStringLiteral("device"), node.path}, {QStringLiteral("swap"), true}});
}

} // namespace partwise
