// Opens /dev/fuse to every user while a test runs as a plain user through FUSE, or closes it to
// them while a test shows what a user cannot do without it.
#pragma once

#include <QString>

#include <sys/types.h>

namespace pwtest {

// Debian's udev rule gives /dev/fuse mode 0666, so on a desktop every user may mount FUSE
// through fusermount3. These containers have no udev and leave it 0600 root, which keeps a plain
// user out (fusermount3 opens it with the user's rights). While this lives, /dev/fuse has
// `mode`; the mode it had is put back on destruction (root only). This is the only place a test
// changes it.
class FuseModeWhileTesting
{
public:
    explicit FuseModeWhileTesting(mode_t mode);
    ~FuseModeWhileTesting();
    FuseModeWhileTesting(const FuseModeWhileTesting &) = delete;
    FuseModeWhileTesting &operator=(const FuseModeWhileTesting &) = delete;

    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }

private:
    mode_t m_oldMode = 0;
    bool m_changed = false;
    QString m_error;
};

// The desktop's 0666: a plain user may serve a partition as a file through FUSE.
class FuseOpenToUsers : public FuseModeWhileTesting
{
public:
    FuseOpenToUsers() : FuseModeWhileTesting(0666) {}
};

// 0600 root, as in these containers: a plain user has no FUSE (a machine without /dev/fuse
// at all is as closed, and is no error here).
class FuseClosedToUsers : public FuseModeWhileTesting
{
public:
    FuseClosedToUsers() : FuseModeWhileTesting(0600) {}
};

} // namespace pwtest
