#include "fs/journaledresize.h"

#include "base/positionedio.h"

#include "device/backingfile.h"
#include "fs/cowwindow.h"
#include "fs/filesystemresize.h"
#include "fs/resizesupport.h"

#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

using move::RedoRegion;
using move::RedoState;

namespace {

void say(const RedoJournal &redo, const QString &line)
{
    if (redo.log)
        redo.log(line);
}

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

// What the view reads: the image, or the disk holding a partition node (so the filesystem
// keeps its place on its disk, which FAT records), else the node itself.
FilesystemLocation viewSource(const FilesystemLocation &where)
{
    if (where.isImage)
        return where;
    if (const std::optional<FilesystemLocation> disk = partitionOnParentDisk(where.path))
        return *disk;
    return FilesystemLocation{where.path, 0, true};
}

// Runs the tool on a copy-on-write view and commits what it wrote to the redo record. Where no
// view can be had (FUSE closed to a user's session: /dev/fuse 0600, no fuse module) the tool
// writes in place, as every partition editor's does, `*inPlace` says so and the log names the
// step as unguarded: refusing would leave a plain user's copy or realignment of their own image
// half done on such a machine.
ToolResult runInView(const FilesystemLocation &where, const RedoRegion &region,
                     const RedoJournal &redo, const JournaledTool &tool, bool *inPlace)
{
    *inPlace = false;
    const FilesystemLocation source = viewSource(where);
    QString error;
    const int fd = openBackingFile(source.path, true, &error);
    if (fd < 0)
        return ToolResult::failed(error);
    struct stat st
    {
    };
    // Blocks written through the partition node may still sit in the disk's own cache.
    if (::fstat(fd, &st) == 0 && S_ISBLK(st.st_mode))
        ::ioctl(fd, BLKFLSBUF, 0);
    const qint64 end = ::lseek(fd, 0, SEEK_END);
    if (end < source.offset + region.bytes) {
        ::close(fd);
        return ToolResult::failed(
            QStringLiteral("The filesystem's range lies outside %1.").arg(source.path));
    }
    CowWindow view(fd, source.offset + region.bytes, source.offset, region.bytes,
                   QFileInfo(redo.path).absolutePath());
    ::close(fd);
    if (!view.ok()) {
        say(redo, QStringLiteral("  no copy-on-write view of the filesystem (%1): the tool writes "
                                 "in place, unjournaled, so a power cut during it may leave the "
                                 "filesystem half changed")
                      .arg(view.error()));
        *inPlace = true;
        return tool(where);
    }
    const ToolResult r = tool(FilesystemLocation{view.path(), source.offset, true});
    const bool served = view.stopServing();
    if (!r.ok)
        return r;
    if (!served)
        return ToolResult::failed(
            QStringLiteral("%1 Nothing was written to the disk.").arg(view.error()));
    const std::vector<CowWindow::Block> blocks = view.writtenBlocks();
    const move::RedoBlockSource read = [&](qint64 i, qint64 *offset, qint64 *length, char *data) {
        *offset = blocks[size_t(i)].offset;
        *length = blocks[size_t(i)].length;
        return view.readBlock(blocks[size_t(i)], data);
    };
    if (!move::writeRedoRecord(redo.path, region, qint64(blocks.size()), read, &error))
        return ToolResult::failed(QStringLiteral("%1 Nothing was written to the disk.").arg(error));
    say(redo,
        QStringLiteral("  %1 %2 journaled in %3").arg(blocks.size()).arg(redo.what, redo.path));
    return r;
}

} // namespace

ToolResult resizeFilesystemJournaled(const FilesystemLocation &where, qint64 partitionBytes,
                                     const QString &filesystem, qint64 newBytes,
                                     const RedoJournal &redo)
{
    if (filesystem.isEmpty() || filesystem == QLatin1String("swap"))
        return resizeFilesystem(where, partitionBytes, filesystem, newBytes);
    return runToolJournaled(where, std::max(partitionBytes, newBytes), redo,
                            [&](const FilesystemLocation &view) {
                                return resizeFilesystem(view, partitionBytes, filesystem, newBytes);
                            });
}

ToolResult runToolJournaled(const FilesystemLocation &where, qint64 regionBytes,
                            const RedoJournal &redo, const JournaledTool &tool)
{
    const RedoRegion region{where.isImage ? where.offset : 0, regionBytes, redo.tag};
    const move::RedoCheck found = move::checkRedoRecord(redo.path, region);
    ToolResult r = ToolResult::succeeded(QString());
    bool inPlace = false;
    switch (found.state) {
    case RedoState::Damaged:
        return ToolResult::failed(
            QStringLiteral("The redo record %1 of this step is damaged (%2), so nothing was "
                           "written. The filesystem may be half-changed: check it with its own "
                           "tool before going on.")
                .arg(redo.path, found.problem));
    case RedoState::Committed:
        say(redo, QStringLiteral("  applying again the %1 journaled blocks of an interrupted "
                                 "step (%2)")
                      .arg(found.blocks)
                      .arg(redo.path));
        r = ToolResult::succeeded(
            QStringLiteral("%1 journaled blocks applied again").arg(found.blocks));
        break;
    case RedoState::Torn:
    case RedoState::Other:
        say(redo, QStringLiteral("  discarding %1: %2").arg(redo.path, found.problem));
        move::removeRedoRecord(redo.path);
        [[fallthrough]];
    case RedoState::None:
        r = runInView(where, region, redo, tool, &inPlace);
        if (!r.ok || inPlace)
            return r;
        break;
    }
    QString error;
    if (!applyJournaledRecord(where.path, region, redo, &error))
        return ToolResult::failed(
            QStringLiteral("%1 The change is journaled in %2: resume applies it again.")
                .arg(error, redo.path));
    return r;
}

bool applyJournaledRecord(const QString &target, const RedoRegion &region, const RedoJournal &redo,
                          QString *error)
{
    if (redo.writer)
        return move::applyRedoRecord(redo.path, region, redo.writer, error);
    const int fd = openBackingFile(target, false, error);
    if (fd < 0)
        return false;
    const move::RedoBlockWriter write = [fd](qint64 at, const char *data, qint64 length) {
        return writeFullAt(fd, data, length, at);
    };
    bool ok = move::applyRedoRecord(redo.path, region, write, error);
    // The step counts as done only once the drive says the blocks are on it.
    if (ok && ::fsync(fd) != 0) {
        *error = QStringLiteral("Flushing %1 failed: %2").arg(target, systemError());
        ok = false;
    }
    ::close(fd);
    return ok;
}

bool finishJournaledResize(const RedoJournal &redo)
{
    return move::removeRedoRecord(redo.path);
}

} // namespace partwise
