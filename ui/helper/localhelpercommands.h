#pragma once

// The two helpers a window run as a user starts on this computer. Both are partwise-cli beside
// the window's own program (installed, or in the build tree), else the one on PATH.
//
// For this machine's disks, `pkexec /usr/bin/partwise-cli serve`: polkit's action
// org.partwise.Partwise.helper (auth_admin_keep) asks for an administrator's password once a
// session; the helper runs as root, the window never does. pkexec wants the program's full
// path, which the action names. PARTWISE_PKEXEC names another program that takes pkexec's
// arguments (a test's stand-in).
//
// For the user's own image files, `partwise-cli serve` as the user: no password, no more rights
// than the window, but the reading, writing and moving happen in another process, as for a
// disk, so one path (and one realignment wizard) serves both, and a crash in a filesystem tool
// or libparted ends the helper, not the window.

#include "helperconnection.h"

HelperConnection::Command adminHelperCommand();
HelperConnection::Command userHelperCommand();
