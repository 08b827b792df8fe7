#pragma once

// Whom `partwise-cli serve` works for, and what it may therefore do.
//
// pkexec starts the helper as root and names the user who asked in PKEXEC_UID; sudo names them
// in SUDO_UID. Those are the only word the helper has of whom it serves, and a mistake there
// hands root's rights to the wrong person, so reading them fails closed: a value that is not a
// plain user number, or two that disagree, ends the helper with a message instead of falling
// back to root. A helper not running as root serves its own user and ignores both (a user can
// set any variable for their own programs).

#include <QString>

#include <optional>
#include <sys/types.h>

namespace partwise {

struct ServedUser
{
    uid_t uid = 0;
    bool privileged = false; // the helper runs as root
    // Root, started for another user (pkexec, sudo): the user's requests get root's rights only
    // for what the threat model allows (ARCHITECTURE.md, "The root helper").
    bool actsForUser() const { return privileged && uid != 0; }
};

// From the effective uid and the environment as above; nullopt with `why` set when the
// variables cannot be trusted.
std::optional<ServedUser> servedUserFromEnvironment(QString *why);

// A plain decimal user number: no sign, no spaces, not (uid_t)-1. Exposed for the tests.
std::optional<uid_t> parseUserNumber(const QByteArray &text);

// Root, started by pkexec or sudo on someone's behalf (PKEXEC_UID or SUDO_UID set at all).
bool startedForAnotherUser();

// A root helper acting for a user starts from a clean environment: a fixed PATH of the system's
// own folders, the locale for messages, PKEXEC_UID and SUDO_UID, and nothing else (no
// PARTWISE_* test hooks, no LD_*, no TMPDIR or HOME of the user's choosing). Called first thing
// in main(), before anything reads a variable.
void resetEnvironmentForUser();

} // namespace partwise
