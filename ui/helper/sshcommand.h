#pragma once

// The command that starts `partwise-cli serve` on another machine: ssh to `[user@]host`, then
// the helper there, through `sudo -n` when the account is not root (a password prompt could
// not be answered: the window has no terminal, so sudo must be allowed without one).
//
// The destination is checked before it goes near ssh: a leading "-" would be read as an
// option (`-oProxyCommand=…` runs a command here), and spaces or shell characters have no
// place in a host name. PARTWISE_SSH names another program that takes ssh's arguments (a
// wrapper with the site's options, or a test's stand-in).

#include "helperconnection.h"

struct SshTarget
{
    QString destination; // [user@]host
    bool useSudo = false;
};

// Empty when `destination` may be handed to ssh; otherwise why not.
QString sshDestinationProblem(const QString &destination);
HelperConnection::Command sshHelperCommand(const SshTarget &target);
