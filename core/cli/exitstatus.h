#pragma once

namespace partwise {

// The exit statuses of partwise-cli, as the command-line contract (README) defines them. Every
// command in core/cli returns one; app/climain.cpp hands it to the shell unchanged.

enum ExitStatus { ExitOk = 0, ExitMisalignedOrFailed = 1, ExitBadInput = 2 };

} // namespace partwise
