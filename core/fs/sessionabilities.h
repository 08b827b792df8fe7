#pragma once

// What this session can do to a filesystem where it lies: the one answer the Resize/Move
// dialog, Apply's preview and run, the realignment planner, Filesystem Support, the CLI and the
// helper all ask, so that none offers what another refuses, and a refusal says why.
//
// It joins three things: what Partwise runs for the filesystem at all (fs/filesystemsupport.h:
// XFS never shrinks, Partwise grows only ext2/3/4 and NTFS, ...), whether those tools are
// installed, and where the filesystem lies. A disk is written only as root (the window hands
// disks to a root helper). Inside an image file it depends on who runs Partwise: root attaches a
// loop device over the partition; a plain user cannot, so the tools reach the partition as a
// file of its own (device/partitionfile.h, through FUSE) where that works, and read-only work
// falls back to a sparse scratch copy (fs/scratchcopy.h); btrfs resizes only while mounted,
// which takes root everywhere.

#include "fs/filesystemsupport.h"

#include <QString>

#include <optional>

namespace partwise {

enum class FilesystemPlace { Disk, Image };

// Whether this session can do `action` to `filesystem` (libblkid's name) at `place`, and why
// not: in a person's words, naming the package of a missing tool. An unformatted partition ("")
// has nothing to grow, shrink or move, which every caller may do; contents Partwise does not know
// move whole and nothing else.
struct AbilityHere
{
    bool can = false;
    QString why; // when it cannot
};
AbilityHere filesystemAbilityHere(const QString &filesystem, FilesystemAction action,
                                  FilesystemPlace place);

// Empty when this session can shrink `filesystem` to `newBytes` at `place` (swap and "" are
// cut, swap recreated); otherwise why not. Adds btrfs's 256 MiB floor to filesystemAbilityHere.
QString whyCannotShrinkHere(const QString &filesystem, qint64 newBytes, FilesystemPlace place);

// Empty when `action` on `filesystem` can run inside an image file in this session (tools
// installed or not: filesystemSupport() says that); otherwise why not.
QString imageLimitHere(const QString &filesystem, FilesystemAction action);

// Empty when a partition holding `filesystem` may grow at `place`: the filesystem grows with it
// where Partwise grows it, and keeps its size where Partwise never grows it (XFS, btrfs, FAT,
// F2FS grow only by their own tools, some only while mounted), which is no reason to refuse.
// Not empty only where Partwise would grow it but cannot here (a tool missing, an image).
QString whyCannotGrowHere(const QString &filesystem, FilesystemPlace place);

// Whether the filesystem follows a growing partition (Partwise grows it) at `place`.
bool filesystemGrowsHere(const QString &filesystem, FilesystemPlace place);

// What a Resize of a partition holding `filesystem` can do in this session: why its filesystem
// cannot shrink, and why the partition cannot grow, each empty when it can.
struct ResizeAbilities
{
    QString cannotShrink;
    QString cannotGrow;
};
ResizeAbilities resizeAbilitiesHere(const QString &filesystem, FilesystemPlace place);

// What the Resize dialog learns from the session that will resize a filesystem (a helper's
// filesystem-minimum, or this one): how far it shrinks (nothing: cannot tell) and what that
// session cannot do (nothing: not asked).
struct FilesystemLimits
{
    std::optional<qint64> minimumBytes;
    std::optional<ResizeAbilities> here;
};

// Why a Resize of the partition holding `filesystem` from `oldBytes` to `newBytes` cannot run
// in this session, or empty. `sizeKept`: the size asked for is the one it has (a move), so a
// few sectors gained by alignment leave the filesystem as it is instead of growing it.
QString whyCannotResizeHere(const QString &filesystem, qint64 oldBytes, qint64 newBytes,
                            bool sizeKept, FilesystemPlace place);

// The smallest size the kernel lets btrfs be resized to.
constexpr qint64 kBtrfsMinimumBytes = qint64(256) << 20;

} // namespace partwise
