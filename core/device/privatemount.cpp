#include "device/privatemount.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#include <thread>

namespace partwise {

namespace {

QString reason(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

// Any folder will do inside the namespace: the mount covers it there alone, and the work
// reaches the filesystem through a descriptor, never by name.
constexpr char kMountPoint[] = "/tmp";

bool mountAndWork(const QString &node, const QString &type,
                  const std::function<bool(int, QString *)> &work, QString *why)
{
    // The namespace is this thread's alone; its mounts must not propagate back to the host's.
    if (::unshare(CLONE_NEWNS) != 0 ||
        ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
        *why = QStringLiteral("no mount namespace of its own: %1").arg(reason(errno));
        return false;
    }
    const QByteArray source = QFile::encodeName(node);
    const QByteArray fstype = type.toLatin1();
    const unsigned long flags = MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOSYMFOLLOW | MS_NOATIME;
    // An ext filesystem that finds an error goes read-only rather than do what its superblock
    // asks (errors=panic).
    const char *data = type.startsWith(QLatin1String("ext")) ? "errors=remount-ro" : nullptr;
    if (::mount(source.constData(), kMountPoint, fstype.constData(), flags, data) != 0) {
        *why = QStringLiteral("mounting %1 (%2) failed: %3").arg(node, type, reason(errno));
        return false;
    }
    const int root = ::open(kMountPoint, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    bool ok = root >= 0 && work(root, why);
    if (root < 0)
        *why = QStringLiteral("opening the mounted %1 failed: %2").arg(node, reason(errno));
    else
        ::close(root);
    if (::umount2(kMountPoint, 0) != 0) {
        if (ok)
            *why = QStringLiteral("unmounting %1 failed: %2").arg(node, reason(errno));
        ok = false;
    }
    return ok;
}

} // namespace

bool withPrivateMount(const QString &node, const QString &type,
                      const std::function<bool(int rootFd, QString *why)> &work, QString *why)
{
    bool ok = false;
    std::thread thread([&] { ok = mountAndWork(node, type, work, why); });
    thread.join();
    return ok;
}

} // namespace partwise
