#pragma once

// The helper for this machine's disks when the window runs as a user, as it does when started
// from the menu: `pkexec /usr/bin/partwise-cli serve`. polkit's action
// org.partwise.Partwise.helper (auth_admin_keep) asks for an administrator's password once a
// session; the helper runs as root, the window never does. The helper takes image files only
// from the user who started it (pkexec tells it who, in PKEXEC_UID).
//
// pkexec wants the program's full path, which the action names: partwise-cli beside the window's
// own program (installed, or in the build tree), else the one on PATH. PARTWISE_PKEXEC names
// another program that takes pkexec's arguments (a test's stand-in).

#include "helperconnection.h"

HelperConnection::Command adminHelperCommand();
