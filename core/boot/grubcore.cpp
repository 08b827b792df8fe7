#include "boot/grubcore.h"

#include "boot/bootcode.h"

#include <QtEndian>

#include <unistd.h>

namespace partwise {

namespace {

constexpr int kSector = 512;
constexpr int kFirstEntry = 0x1F4; // 0x200 minus one 12-byte entry
constexpr int kEntrySize = 12;
// diskboot.img's code and messages end before 0x150 in every GRUB 2 release; entries below
// that would be code, so a list that has not ended by then is not trusted.
constexpr int kLowestEntry = 0x150;

bool readSector(int fd, quint64 lba, QByteArray *out)
{
    out->resize(kSector);
    return ::pread(fd, out->data(), kSector, off_t(lba * kSector)) == kSector;
}

bool writeSector(int fd, quint64 lba, const QByteArray &data)
{
    return ::pwrite(fd, data.constData(), kSector, off_t(lba * kSector)) == kSector &&
           ::fsync(fd) == 0;
}

bool inRange(quint64 sector, qint64 start, qint64 length)
{
    return qint64(sector) >= start && qint64(sector) < start + length;
}

bool blocksInside(const QList<GrubBlock> &blocks, qint64 start, qint64 length)
{
    for (const GrubBlock &b : blocks)
        if (!inRange(b.start, start, length) || !inRange(b.start + b.sectors - 1, start, length))
            return false;
    return true;
}

QString repair(const QString &disk)
{
    return QStringLiteral("Reinstall GRUB from the system that boots from it: `grub-install %1`.")
        .arg(disk.isEmpty() ? QStringLiteral("/dev/sdX") : disk);
}

} // namespace

bool isGrubDiskboot(const QByteArray &s)
{
    return s.size() >= kSector &&
           s.left(kLowestEntry).contains(QByteArrayLiteral("loading\0.\0\r\n\0Geom\0Read\0 Error"));
}

std::optional<QList<GrubBlock>> readGrubBlockList(const QByteArray &s)
{
    if (!isGrubDiskboot(s))
        return std::nullopt;
    QList<GrubBlock> blocks;
    for (int at = kFirstEntry; at >= kLowestEntry; at -= kEntrySize) {
        GrubBlock b;
        b.start = qFromLittleEndian<quint64>(s.constData() + at);
        b.sectors = qFromLittleEndian<quint16>(s.constData() + at + 8);
        b.segment = qFromLittleEndian<quint16>(s.constData() + at + 10);
        if (b.sectors == 0)
            return blocks;
        blocks << b;
    }
    return std::nullopt;
}

void writeGrubBlockStarts(QByteArray *s, const QList<GrubBlock> &blocks)
{
    int at = kFirstEntry;
    for (const GrubBlock &b : blocks) {
        qToLittleEndian<quint64>(b.start, s->data() + at);
        at -= kEntrySize;
    }
}

GrubRelocation relocateGrubCore(int fd, qint64 oldStart, qint64 newStart, qint64 length,
                                const QString &disk)
{
    GrubRelocation r;
    QByteArray mbr;
    if (!readSector(fd, 0, &mbr)) {
        r.error = QStringLiteral("Cannot read the MBR of %1.").arg(disk);
        return r;
    }
    const std::optional<quint64> pointed = grubCoreSector(mbr);
    const bool fromOld = pointed && inRange(*pointed, oldStart, length);
    const bool fromNew = pointed && inRange(*pointed, newStart, length);
    if (!fromOld && !fromNew) {
        r.ok = true; // no GRUB 2 boot.img, or its core.img is elsewhere: nothing to follow
        return r;
    }
    const qint64 delta = newStart - oldStart;
    // Where the MBR points tells how far a run got: at the old place, diskboot.img is found
    // `delta` sectors further on (the copy); at the new place, right where it points.
    QByteArray sector;
    const bool oldIsCopy =
        fromOld && readSector(fd, *pointed + delta, &sector) && isGrubDiskboot(sector);
    QByteArray atPointer;
    const bool newIsHere =
        fromNew && readSector(fd, *pointed, &atPointer) && isGrubDiskboot(atPointer);
    if (oldIsCopy == newIsHere) {
        r.error =
            QStringLiteral("GRUB's boot.img in the MBR of %1 loads core.img from sector %2, "
                           "and core.img could %3 be told apart at the partition's new "
                           "place, so GRUB was left as it is. %4")
                .arg(disk)
                .arg(*pointed)
                .arg(oldIsCopy ? QStringLiteral("not") : QStringLiteral("neither be found nor"))
                .arg(repair(disk));
        return r;
    }
    const quint64 diskboot = oldIsCopy ? *pointed + delta : *pointed;
    if (!oldIsCopy)
        sector = atPointer;
    std::optional<QList<GrubBlock>> blocks = readGrubBlockList(sector);
    if (!blocks) {
        r.error = QStringLiteral("core.img's block list at sector %1 of %2 has no end, so GRUB was "
                                 "left as it is. %3")
                      .arg(diskboot)
                      .arg(disk, repair(disk));
        return r;
    }
    // The block list: at the old place still, or already moved. Where both places overlap
    // (a small move), the first entry decides: grub-install puts the rest of core.img right
    // after diskboot.img.
    bool listOld = blocksInside(*blocks, oldStart, length);
    bool listNew = blocksInside(*blocks, newStart, length);
    bool shift = listOld && !listNew;
    if (listOld && listNew && !blocks->isEmpty()) {
        const quint64 first = blocks->first().start;
        if (first == diskboot - delta + 1)
            shift = true;
        else if (first != diskboot + 1)
            listOld = listNew = false; // cannot tell: refused below
    }
    if (!listOld && !listNew) {
        r.error = QStringLiteral("core.img's block list at sector %1 of %2 names sectors outside "
                                 "its partition, so GRUB was left as it is. %3")
                      .arg(diskboot)
                      .arg(disk, repair(disk));
        return r;
    }
    if (shift) {
        for (GrubBlock &b : *blocks)
            b.start = quint64(qint64(b.start) + delta);
        writeGrubBlockStarts(&sector, *blocks);
        if (!writeSector(fd, diskboot, sector)) {
            r.error = QStringLiteral("Cannot write core.img's first sector (sector %1) of %2.")
                          .arg(diskboot)
                          .arg(disk);
            return r;
        }
        r.changed = true;
        r.done << QStringLiteral("core.img's block list now starts at sector %1")
                      .arg(blocks->isEmpty() ? diskboot : blocks->first().start);
    }
    if (oldIsCopy) {
        qToLittleEndian<quint64>(diskboot, mbr.data() + kGrubKernelSectorOffset);
        if (!writeSector(fd, 0, mbr)) {
            r.error = QStringLiteral("Cannot write the MBR of %1.").arg(disk);
            return r;
        }
        r.changed = true;
        r.done << QStringLiteral("boot.img in the MBR now loads core.img from sector %1 (was %2)")
                      .arg(diskboot)
                      .arg(*pointed);
    }
    r.ok = true;
    return r;
}

} // namespace partwise
