#include "ops/journaledfixups.h"

#include "fs/filesystemposition.h"

#include <algorithm>

namespace partwise {

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
    // GRUB writes the MBR and core.img's first sector at the new place; it reads the table and
    // both places. Nothing past the later of them is in the view's writable range.
    const qint64 regionBytes = (std::max(oldStart, newStart) + movedSectors) * sectorSize;
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

} // namespace partwise
