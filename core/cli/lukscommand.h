#pragma once

// `partwise-cli unlock` and `lock`: a LUKS partition's mapping opened with a passphrase read
// from standard input (or a key file) and closed again (layer/luksmapping.h). The passphrase
// never comes from the command line or the environment.

#include <QString>
#include <QTextStream>

namespace partwise {

struct LuksCommandOptions
{
    QString target; // the disk
    int partition = 0;
    bool json = false;
    QString keyFile; // unlock: the key's bytes, whole; empty: a passphrase on standard input
};

// Exit 0 unlocked (the mapping and the filesystem inside printed), 1 when it did not open (a
// wrong passphrase), 2 for a target or partition that is not there or holds no LUKS volume.
int runUnlockCommand(const LuksCommandOptions &options, QTextStream &out, QTextStream &err);
// Exit 0 locked, 1 when the mapping is in use, 2 when nothing is unlocked there.
int runLockCommand(const LuksCommandOptions &options, QTextStream &out, QTextStream &err);

} // namespace partwise
