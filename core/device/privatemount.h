#pragma once

// A filesystem mounted read-write for Partwise's own edit and for nothing else: in a mount
// namespace of its own, on a thread of its own, so no other process sees it, an automounter
// cannot open files on it, and a kill leaves no mount behind (the namespace dies with the
// thread). Mounted nosuid, nodev, noexec and nosymfollow (no link on it is followed, even by a
// mistake of the caller), and unmounted before the call returns. Root only.

#include <QString>

#include <functional>

namespace partwise {

// Mounts `node` (a block device holding a `type` filesystem) and runs `work` on the thread that
// sees it, with a descriptor of its root folder (O_DIRECTORY, closed afterwards). False with
// `why` when it could not be mounted or unmounted, or when `work` returned false (its `why`).
bool withPrivateMount(const QString &node, const QString &type,
                      const std::function<bool(int rootFd, QString *why)> &work, QString *why);

} // namespace partwise
