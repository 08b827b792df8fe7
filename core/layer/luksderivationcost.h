#pragma once

// What trying a passphrase on a LUKS header would cost, judged before any is tried. A header is
// data whoever wrote the stick chose, and libcryptsetup derives a key for every active key slot
// (and checks each candidate against the volume key digest) in the caller's process, with no
// way to stop it: PBKDF2 with 2^32-1 iterations ran for about an hour in the root helper, deaf
// to its input. cryptsetup's own benchmark sets around a million PBKDF2 iterations, or a few
// Argon2 passes, for two seconds; headers far beyond that are refused.

#include <QString>

struct crypt_device;

namespace partwise {

inline constexpr quint32 kMaxPbkdf2Iterations = 1U << 26; // about 30 s on a fast core
inline constexpr quint32 kMaxArgon2Passes = 64;
inline constexpr quint32 kMaxArgon2MemoryKb = 4U << 20; // cryptsetup's own limit, 4 GiB

// Why unlocking the header loaded in `cd` (read from `node`) would cost too much, or empty.
QString luksDerivationCostProblem(crypt_device *cd, const QString &node);

} // namespace partwise
