#pragma once

// GRUB 2 for BIOS, as grub-install leaves it: boot.img in the MBR records the absolute sector
// of core.img's first sector (diskboot.img, see bootcode.h), and diskboot.img ends with a block
// list saying where the rest of core.img lies. Both are absolute sectors of 512 bytes, so when
// the sectors holding core.img move (a BIOS boot partition realigned), both must follow.
//
// diskboot.img's layout (GRUB's boot/i386/pc/diskboot.S, learnt from its source, not copied):
// the code and its messages "loading", ".", "\r\n", "Geom", "Read", " Error" come first; the
// block list grows downwards from the end of the sector: the first entry at 0x1F4, the next at
// 0x1E8, and so on, 12 bytes each (start sector: 64-bit, number of sectors: 16-bit, load
// segment: 16-bit, little-endian), ended by an entry whose number of sectors is 0.
// grub-install merges contiguous sectors into one entry, so core.img embedded in a BIOS boot
// partition has one entry: the sector after diskboot.img, for the rest of core.img.

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace partwise {

struct GrubBlock
{
    quint64 start = 0;
    quint16 sectors = 0;
    quint16 segment = 0;
};

// diskboot.img's messages, in order, in the sector.
bool isGrubDiskboot(const QByteArray &sector);

// The block list of a diskboot.img sector, without its terminator; nullopt when the sector is
// no diskboot.img or no terminator comes before the code (then nothing in it may be trusted).
std::optional<QList<GrubBlock>> readGrubBlockList(const QByteArray &sector);

// Writes the start sectors of `blocks` back into the entries readGrubBlockList() read them
// from (same count; lengths and segments are never changed).
void writeGrubBlockStarts(QByteArray *sector, const QList<GrubBlock> &blocks);

struct GrubRelocation
{
    bool ok = false;
    bool changed = false; // something was written
    QString error;        // when !ok: what is wrong and the command that repairs it
    QStringList done;     // what was rewritten, for the log
};

// After the `lengthSectors` sectors at `oldStart` were copied to `newStart` (512-byte sectors)
// on the disk open read-write as `fd`, points GRUB at its core.img there: the block list in
// core.img's first sector, then boot.img's sector in the MBR (last, so that whatever the MBR
// says tells how far a run got). Idempotent: a run after a kill, or a second run, finds what is
// done and leaves it. Nothing is written when the MBR holds no GRUB 2 boot.img or points
// outside both places. `disk` names the disk in messages ("grub-install /dev/sdb").
GrubRelocation relocateGrubCore(int fd, qint64 oldStart, qint64 newStart, qint64 lengthSectors,
                                const QString &disk);

} // namespace partwise
