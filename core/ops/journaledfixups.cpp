#include "ops/journaledfixups.h"

#include "device/backingfile.h"
#include "fs/filesystemposition.h"

#include <unistd.h>

namespace partwise {

namespace {

qint64 diskBytes(const QString &path)
{
    QString error;
    const int fd = openBackingFile(path, true, &error);
    if (fd < 0)
        return -1;
    const qint64 bytes = ::lseek(fd, 0, SEEK_END);
    ::close(fd);
    return bytes;
}

} // namespace

RedoJournal fixupRedo(const RedoJournal &step)
{
    RedoJournal r = step;
    r.path = step.path + QStringLiteral(".fixup.redo");
    r.what = QStringLiteral("blocks of the boot fix-up");
    return r;
}

bool updateHiddenSectorsJournaled(const FilesystemLocation &where, qint64 partitionBytes,
                                  const QString &filesystem, qint64 newStartSector,
                                  const RedoJournal &redo, QString *error)
{
    if (!recordsItsStart(where.path, where.offset, filesystem, newStartSector))
        return true;
    QString why;
    const ToolResult r =
        runToolJournaled(where, partitionBytes, redo, [&](const FilesystemLocation &view) {
            return updateHiddenSectors(view.path, view.offset, partitionBytes, filesystem,
                                       newStartSector, &why)
                       ? ToolResult::succeeded(QString())
                       : ToolResult::failed(why);
        });
    if (!r.ok) {
        *error = r.error;
        return false;
    }
    // Flushed in place: running the fix-up again finds it done, so the record has served.
    finishJournaledResize(redo);
    return true;
}

BootFixResult fixBootAfterMoveJournaled(const QString &diskPath, qint64 sectorSize, int number,
                                        qint64 oldStart, qint64 newStart, qint64 movedSectors,
                                        const RedoJournal &redo)
{
    BootFixResult fix;
    if (!bootFixNeeded(diskPath, sectorSize, number, oldStart, newStart))
        return fix;
    // GRUB writes the MBR and core.img's first sector at the new place; it reads the table,
    // which a GPT checks against the disk's size, so the view is the whole disk.
    const qint64 regionBytes = diskBytes(diskPath);
    if (regionBytes <= 0) {
        fix.ok = false;
        fix.error =
            QStringLiteral("Cannot read the size of %1 to check its boot loader.").arg(diskPath);
        return fix;
    }
    const ToolResult r = runToolJournaled(
        FilesystemLocation{diskPath, 0, true}, regionBytes, redo,
        [&](const FilesystemLocation &view) {
            fix = fixBootAfterMove(view.path, sectorSize, number, oldStart, newStart, movedSectors);
            return fix.ok ? ToolResult::succeeded(QString()) : ToolResult::failed(fix.error);
        });
    if (!r.ok) {
        fix.ok = false;
        fix.error = r.error;
        return fix;
    }
    if (fix.done.isEmpty() && !r.output.isEmpty())
        fix.done << r.output; // a committed record written again on resume
    finishJournaledResize(redo);
    return fix;
}

bool replayDiskFixupRecord(const QString &target, const RedoJournal &redo, QString *error)
{
    const move::RedoRegion region{0, diskBytes(target), redo.tag};
    const move::RedoCheck found = move::checkRedoRecord(redo.path, region);
    switch (found.state) {
    case move::RedoState::None:
    case move::RedoState::Other:
        return true;
    case move::RedoState::Torn:
        return move::removeRedoRecord(redo.path);
    case move::RedoState::Damaged:
        *error = QStringLiteral("The redo record %1 of an interrupted boot fix-up is damaged (%2), "
                                "so nothing was written. The disk's first sectors may be half "
                                "written: the backup taken before the job restores the table.")
                     .arg(redo.path, found.problem);
        return false;
    case move::RedoState::Committed:
        break;
    }
    if (redo.log)
        redo.log(QStringLiteral("  applying again the %1 journaled blocks of an interrupted step "
                                "(%2)")
                     .arg(found.blocks)
                     .arg(redo.path));
    if (!applyJournaledRecord(target, region, redo, error))
        return false;
    move::removeRedoRecord(redo.path);
    return true;
}

} // namespace partwise
