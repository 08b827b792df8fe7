#pragma once

// What this session can do to a filesystem where it lies, asked before anything is planned, so
// that a plan offers only what can run here and says why the rest is not offered.
//
// On a disk, the helper that writes runs as root and the tools get the partition's own node.
// Inside an image file it depends on who runs Partwise: root attaches a loop device over the
// partition; a plain user cannot, so the tools reach the partition as a file of its own
// (device/partitionfile.h, through FUSE) where that works, and read-only work falls back to a
// sparse scratch copy (fs/scratchcopy.h). Some limits hold everywhere and are known in advance:
// XFS never shrinks, the kernel resizes btrfs only while mounted (root) and never below
// 256 MiB, and every tool must be installed. The Filesystem Support dialog shows the same
// answers, so what it says "yes" to is what a plan offers.

#include "fs/filesystemsupport.h"

#include <QString>

#include <optional>

namespace partwise {

enum class FilesystemPlace { Disk, Image };

// Empty when this session can shrink `filesystem` (libblkid's name) to `newBytes` at `place`;
// otherwise why not, in a person's words, naming the package of a missing tool.
QString whyCannotShrinkHere(const QString &filesystem, qint64 newBytes, FilesystemPlace place);

// Empty when `action` on `filesystem` can run inside an image file in this session (tools
// installed or not: filesystemSupport() says that); otherwise why not.
QString imageLimitHere(const QString &filesystem, FilesystemAction action);

// Empty when this session can grow `filesystem` into a larger partition at `place`. XFS and
// btrfs keep their size when Partwise resizes their partition (they grow only while mounted),
// which is no reason to refuse.
QString whyCannotGrowHere(const QString &filesystem, FilesystemPlace place);

// What a Resize of a partition holding `filesystem` can do in this session: why its filesystem
// cannot shrink or grow here, each empty when it can. Only the filesystems Resize shrinks and
// grows unmounted (fs/filesystemresize.h's canShrinkUnmounted) are ever refused; the others
// keep their size.
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
