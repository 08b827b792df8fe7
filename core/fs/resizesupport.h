#pragma once

#include "base/toolrunner.h"
#include "device/loopattachment.h"
#include "device/partitionfile.h"
#include "fs/filesystemsize.h"
#include "fs/scratchcopy.h"

#include <functional>
#include <optional>

namespace partwise {

// Pieces the filesystem resizers (fatresize, btrfsresize, f2fsresize, filesystemresize) share,
// and the read-only checks before and after a realignment (core/ops/partitionaccess).

// A device node for the tools that cannot work at an offset inside a file: the partition node
// itself, or for `bytes` from the filesystem's offset in an image: a loop device (root), else
// those bytes as a file through FUSE (device/partitionfile.h: reading and writing, no root),
// else, for read-only work, a scratch copy of them (fs/scratchcopy.h). Held while this lives.
// A fresh one per use caches no blocks from before another writer.
class FilesystemNode
{
public:
    FilesystemNode(const FilesystemLocation &where, qint64 bytes, bool readOnly);

    QString node() const { return m_node; }   // empty when there is none
    QString error() const { return m_error; } // why there is none

private:
    // Sets m_node to the partition's file through FUSE, or returns why there is none.
    QString servePartitionFile(const FilesystemLocation &where, qint64 bytes, bool readOnly);

    std::optional<LoopAttachment> m_loop;
    std::optional<PartitionFile> m_file; // without root
    std::optional<ScratchCopy> m_copy;   // read-only work without root or FUSE
    QString m_node;
    QString m_error;
};

// Runs `work` on a FilesystemNode over `bytes`; the loop device's error if there is none.
ToolResult onFilesystemNode(const FilesystemLocation &where, qint64 bytes, bool readOnly,
                            const std::function<ToolResult(const QString &node)> &work);

// The disk holding a partition node, and the partition's first byte on it (from sysfs);
// nothing when `node` is no partition.
std::optional<FilesystemLocation> partitionOnParentDisk(const QString &node);

// A read-only check before resizing: passed, or not run at all (its error names the package),
// are returned as they are; problems become the refusal `refusal`.
ToolResult refuseUnlessClean(const ToolResult &check, const QString &refusal);

// The first or last few lines of a tool's output, where it says what is wrong.
QString firstLines(const QString &output);
QString lastLines(const QString &output);

} // namespace partwise
