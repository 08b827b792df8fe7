// Opens /dev/fuse to every user while a test runs as a plain user through FUSE.
#pragma once

#include <QString>

#include <sys/types.h>

namespace pwtest {

// Debian's udev rule gives /dev/fuse mode 0666, so on a desktop every user may mount FUSE
// through fusermount3. These containers have no udev and leave it 0600 root, which keeps a plain
// user out (fusermount3 opens it with the user's rights). While this lives, /dev/fuse has the
// desktop's 0666; the mode it had is put back on destruction (root only). This is the only place
// a test changes it.
class FuseOpenToUsers
{
public:
    FuseOpenToUsers();
    ~FuseOpenToUsers();
    FuseOpenToUsers(const FuseOpenToUsers &) = delete;
    FuseOpenToUsers &operator=(const FuseOpenToUsers &) = delete;

    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }

private:
    mode_t m_oldMode = 0;
    bool m_changed = false;
    QString m_error;
};

} // namespace pwtest
