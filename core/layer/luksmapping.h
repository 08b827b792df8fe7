#pragma once

// Unlocking and locking a LUKS1 or LUKS2 partition: its dm-crypt mapping opened with a
// passphrase (or a key file's bytes) and closed again, through libcryptsetup (root, and the
// kernel's dm-crypt). Partwise names the mapping itself, "luks-UUID" from the header, as udisks
// and systemd-cryptsetup do; no name a user chooses reaches device-mapper. While a mapping is
// open the partition is held (device/kernelholder.h): every job refuses to write it.

#include "base/secretbytes.h"
#include "device/filesystemprobe.h"

#include <QString>
#include <QStringList>

namespace partwise {

// The longest passphrase or key taken: cryptsetup's own default limit for a key file is 8 MiB,
// but a passphrase typed or stored for a partition editor is far shorter.
constexpr int kMaxLuksPassphraseBytes = 4096;

struct LuksUnlockResult
{
    bool ok = false;
    QString error;
    bool wrongPassphrase = false; // no key slot opened with it
    bool refused = false;         // nothing tried: no LUKS volume there, unlocked already, or
                                  // no passphrase of a length taken
    QString name;                 // "luks-UUID"
    QString mapperPath;           // "/dev/mapper/luks-UUID"
};

// Opens the LUKS volume on `partitionNode` ("/dev/sdb2") with `passphrase`.
LuksUnlockResult unlockLuks(const QString &partitionNode, const SecretBytes &passphrase);

// What libblkid finds on the whole of an open mapping ("/dev/mapper/luks-UUID").
FilesystemIdentity filesystemInsideMapping(const QString &mapperPath);

// The names of the open LUKS mappings over `partitionNode` (from sysfs: dm/uuid "CRYPT-LUKS…").
QStringList luksMappingsOf(const QString &partitionNode);

// Closes the LUKS mapping over `partitionNode`; `name` says which. False with `error` when none
// is open, or it is in use (a mounted filesystem inside).
bool lockLuks(const QString &partitionNode, QString *name, QString *error);

} // namespace partwise
