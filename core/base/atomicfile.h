#pragma once

// Replacing a small file so that a crash or a power cut leaves the old file or the new one,
// whole, and never a torn mix or nothing at all.
//
// The recipe is the classic one: write the new content to `path` + ".new", fsync it, rename it
// over `path` (atomic within a filesystem), then fsync the folder, because a rename, like a
// new file's name, is only on the disk once its directory is. The write journal, the table
// backup and the store of drive measurements all need exactly this, and the move journal needs
// the last step for a file it builds itself; each used to carry its own copy.
//
// Failures are returned, not phrased: each caller words them its own way (and one of them may
// tolerate a folder that cannot be synced), so the result says which step failed and why.

#include <QByteArray>
#include <QString>

namespace partwise {

struct AtomicWrite
{
    enum class Failure {
        None,
        Write,      // the temporary file could not be written or synced
        Rename,     // it could not be put in place
        SyncFolder, // in place, but its folder could not be synced
    };
    Failure failure = Failure::None;
    QString tempPath; // where the content was written first
    QString reason;   // the system's words for the failure

    bool ok() const { return failure == Failure::None; }
};

// Writes `data` to `path` as described above. The folder must exist.
AtomicWrite writeFileAtomically(const QString &path, const QByteArray &data);

// fsyncs the folder holding `path`, so that a file created or renamed there survives a power
// cut. False when the folder cannot be opened or synced.
bool syncFolderOf(const QString &path);

} // namespace partwise
