#pragma once

// What pkexec's exit means for the administrator helper, in words a person can act on: polkit
// missing or not running, no agent to ask for the password, the password refused or the
// question dismissed. pkexec exits 127 when it could not get permission and 126 when the
// question was dismissed; its last line on stderr tells which (polkit's own words).
#include <QString>

// Empty when `exitCode` is neither of pkexec's own (the helper itself ended).
QString pkexecFailure(int exitCode, const QString &lastWords);
