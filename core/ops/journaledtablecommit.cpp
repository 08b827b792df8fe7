#include "ops/journaledtablecommit.h"

#include "device/backingfile.h"
#include "fs/cowwindow.h"
#include "move/redorecord.h"
#include "ops/scratchtablecommit.h"
#include "table/partedcommit.h"

#include <QFile>
#include <QFileInfo>

#include <parted/parted.h>

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

// 'TABL' above the operation: no filesystem step's tag (realignexecution) looks like it.
constexpr quint64 kTableTag = quint64(0x5441424c) << 32;

void say(const RedoJournal &redo, const QString &line)
{
    if (redo.log)
        redo.log(line);
}

// The disk's (or image's) size, from a descriptor opened once.
qint64 sizeOf(const QString &target, int *fd, QString *error)
{
    *fd = openBackingFile(target, true, error);
    if (*fd < 0)
        return -1;
    const qint64 size = ::lseek(*fd, 0, SEEK_END);
    if (size <= 0) {
        *error = QStringLiteral("Cannot tell the size of %1.").arg(target);
        ::close(*fd);
        *fd = -1;
    }
    return size;
}

// libparted's commit with the disk's device opened by the view's name: every sector it reads
// or writes goes through that one descriptor. A device already open would keep its descriptor
// of the disk (libparted reuses it), so that is refused.
bool commitToView(PedDisk *disk, const QString &view, QString *error)
{
    PedDevice *dev = disk->dev;
    if (dev->open_count != 0) {
        *error = QStringLiteral("The disk is still open elsewhere in this process; nothing was "
                                "written.");
        return false;
    }
    QByteArray name = QFile::encodeName(view);
    char *const real = dev->path;
    dev->path = name.data();
    const bool ok = ped_disk_commit_to_dev(disk) != 0;
    dev->path = real;
    if (!ok)
        *error = QStringLiteral("libparted could not write the table; nothing was written.");
    return ok;
}

// Where no view can be had: libparted commits to a scratch image holding the table's sectors
// (ops/scratchtablecommit.h), and the blocks it changed are recorded.
bool recordScratchCommit(PedDisk *disk, int fd, const RedoRegion &region, const RedoJournal &redo,
                         QString *error)
{
    std::vector<ScratchBlock> blocks;
    if (!commitTableToScratch(disk, fd, region.bytes, QFileInfo(redo.path).absolutePath(), &blocks,
                              error))
        return false;
    const move::RedoBlockSource read = [&](qint64 i, qint64 *offset, qint64 *length, char *data) {
        const ScratchBlock &b = blocks[size_t(i)];
        *offset = b.offset;
        *length = b.data.size();
        std::memcpy(data, b.data.constData(), size_t(b.data.size()));
        return true;
    };
    if (!move::writeRedoRecord(redo.path, region, qint64(blocks.size()), read, error)) {
        *error += QStringLiteral(" Nothing was written to the disk.");
        return false;
    }
    return true;
}

// Runs the commit on a copy-on-write view of the disk open as `fd` (closed here), or on a
// scratch image where no view can be had, and records what it wrote.
bool recordCommit(PedDisk *disk, int fd, const RedoRegion &region, const RedoJournal &redo,
                  QString *error)
{
    struct stat st
    {
    };
    // The view reads through the disk's cache; drop what another node of it may have left.
    if (::fstat(fd, &st) == 0 && S_ISBLK(st.st_mode))
        ::ioctl(fd, BLKFLSBUF, 0);
    CowWindow view(fd, region.bytes, 0, region.bytes, QFileInfo(redo.path).absolutePath());
    if (!view.ok()) {
        say(redo, QStringLiteral("  no copy-on-write view of the disk (%1): libparted writes the "
                                 "table to a scratch image of its sectors instead")
                      .arg(view.error()));
        const bool ok = recordScratchCommit(disk, fd, region, redo, error);
        ::close(fd);
        if (ok)
            say(redo, QStringLiteral("  the changed blocks of the new table journaled in %1")
                          .arg(redo.path));
        return ok;
    }
    ::close(fd);
    const bool committed = commitToView(disk, view.path(), error);
    if (!view.stopServing()) {
        *error = view.error() + QStringLiteral(" Nothing was written to the disk.");
        return false;
    }
    if (!committed)
        return false;
    const std::vector<CowWindow::Block> blocks = view.writtenBlocks();
    const move::RedoBlockSource read = [&](qint64 i, qint64 *offset, qint64 *length, char *data) {
        *offset = blocks[size_t(i)].offset;
        *length = blocks[size_t(i)].length;
        return view.readBlock(blocks[size_t(i)], data);
    };
    if (!move::writeRedoRecord(redo.path, region, qint64(blocks.size()), read, error)) {
        *error += QStringLiteral(" Nothing was written to the disk.");
        return false;
    }
    say(redo, QStringLiteral("  %1 blocks of the new table journaled in %2")
                  .arg(blocks.size())
                  .arg(redo.path));
    return true;
}

} // namespace

RedoJournal tableRedo(const QString &jobJournal, int operation,
                      const std::function<void(const QString &)> &log)
{
    RedoJournal r;
    r.path = jobJournal + QStringLiteral(".table.redo");
    r.tag = kTableTag | quint64(quint32(operation));
    r.log = log;
    return r;
}

bool commitTableJournaled(PedDisk *disk, bool isImage, const RedoJournal &redo, QString *error)
{
    const QString target = QString::fromLocal8Bit(disk->dev->path);
    int fd = -1;
    const qint64 size = sizeOf(target, &fd, error);
    if (fd < 0)
        return false;
    const RedoRegion region{0, size, redo.tag};
    // Resume has written an interrupted step's record already (replayTableRecord()) and removed
    // it: one still here is of no step of this job, and is never applied.
    if (move::checkRedoRecord(redo.path, region).state != RedoState::None) {
        say(redo, QStringLiteral("  discarding %1: it is of no step of this job").arg(redo.path));
        move::removeRedoRecord(redo.path);
    }
    if (!recordCommit(disk, fd, region, redo, error))
        return false;
    if (!applyJournaledRecord(target, region, redo, error)) {
        *error += QStringLiteral(" The new table is journaled in %1: resume writes it again.")
                      .arg(redo.path);
        return false;
    }
    // The disk holds the whole table, flushed: the record has served.
    move::removeRedoRecord(redo.path);
    return isImage || tellKernelOfTable(disk);
}

bool replayTableRecord(const QString &target, const RedoJournal &redo, QString *error)
{
    int fd = -1;
    const qint64 size = sizeOf(target, &fd, error);
    if (fd < 0)
        return false;
    ::close(fd);
    const RedoRegion region{0, size, redo.tag};
    const move::RedoCheck found = move::checkRedoRecord(redo.path, region);
    switch (found.state) {
    case RedoState::None:
        return true;
    case RedoState::Damaged:
        *error = QStringLiteral("The redo record %1 of an interrupted table write is damaged "
                                "(%2), so nothing was written. The table may be half written: "
                                "the backup taken before the job restores it.")
                     .arg(redo.path, found.problem);
        return false;
    case RedoState::Torn:
    case RedoState::Other:
        say(redo, QStringLiteral("  discarding %1: %2").arg(redo.path, found.problem));
        return move::removeRedoRecord(redo.path);
    case RedoState::Committed:
        break;
    }
    say(redo, QStringLiteral("  writing again the %1 journaled blocks of an interrupted table "
                             "write (%2)")
                  .arg(found.blocks)
                  .arg(redo.path));
    if (!applyJournaledRecord(target, region, redo, error))
        return false;
    move::removeRedoRecord(redo.path);
    return true;
}

} // namespace partwise
