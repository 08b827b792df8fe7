#pragma once

// What a root helper inherits from the user who started it, beyond the environment.
//
// pkexec and sudo clean the environment, but a process started through them keeps the caller's
// resource limits, signal mask, ignored signals, open file descriptors and current folder: all
// chosen by the user, and all surviving the set-uid exec. systemd and udisks never meet this,
// since their services start from a manager's clean state; a helper started by pkexec must make
// that state itself, before it opens anything. Left as the user chose:
// - a file size limit would cut root's table backups and journals short (SIGXFSZ kills the
//   helper mid-write, or the write fails), and a CPU time limit would kill a move part way;
// - too few descriptors make opening fail while the helper looks for what holds a disk;
// - a blocked or ignored SIGTERM keeps a helper alive that should end; a closed stdout makes
//   the first file root opens its output, so answers would be written into it;
// - a descriptor left open hands a file of the user's to every tool root runs;
// - a core dump would write root's memory (keys, other users' data read from a disk) into the
//   user's current folder.
// The nice value and I/O priority stay as they came: the user may only lower them, and that only
// slows the user's own job.

#include <QString>

namespace partwise {

// Resets the above for a root helper working for another user; called first thing in main(),
// before anything opens a file. False, with `why` set, when a limit the user lowered for good
// (a hard limit) cannot be lifted again: the helper must then not serve.
bool resetInheritedStateForUser(QString *why);

} // namespace partwise
