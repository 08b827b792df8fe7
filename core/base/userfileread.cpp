#include "base/userfileread.h"

#include <QFile>
#include <QList>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace partwise {

namespace {

struct Identity
{
    uid_t uid = 0;
    gid_t gid = 0;
    QList<gid_t> groups;
};

// Looked up before the fork: after it, only system calls are safe in the child.
bool lookUp(uid_t uid, Identity *who)
{
    passwd entry;
    passwd *found = nullptr;
    QByteArray buffer(1 << 16, Qt::Uninitialized);
    if (::getpwuid_r(uid, &entry, buffer.data(), size_t(buffer.size()), &found) != 0 || !found)
        return false;
    who->uid = uid;
    who->gid = found->pw_gid;
    int count = 256;
    who->groups.resize(count);
    if (::getgrouplist(found->pw_name, found->pw_gid, who->groups.data(), &count) < 0)
        return false;
    who->groups.resize(count);
    return true;
}

// In the child: takes the user's groups, gid and uid, or ends.
void becomeUser(const Identity &who)
{
    if (::setgroups(size_t(who.groups.size()), who.groups.constData()) != 0 ||
        ::setresgid(who.gid, who.gid, who.gid) != 0 || ::setresuid(who.uid, who.uid, who.uid) != 0)
        ::_exit(EPERM);
}

// A child's end once the user's file is open: the file is closed while the pipe to the parent
// is still open. Closing a file on a user's FUSE mount can wait for ever on its daemon; at
// _exit the kernel would close the pipe first (a lower number), the parent would take the end
// of the pipe for the end of the child and wait for it without its time limit.
[[noreturn]] void leave(int fd, int code)
{
    ::close(fd);
    ::_exit(code);
}

// The child of readFileAsUser(): copies the regular file at `path` into `out`. Its exit status
// is an errno.
[[noreturn]] void readAs(const char *path, qint64 maxBytes, int out)
{
    const int fd = ::open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        ::_exit(errno);
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        leave(fd, EINVAL);
    if (st.st_size > maxBytes)
        leave(fd, EFBIG);
    char chunk[4096];
    for (ssize_t n; (n = ::read(fd, chunk, sizeof chunk)) != 0;) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || ::write(out, chunk, size_t(n)) != n)
            leave(fd, EIO);
    }
    leave(fd, 0);
}

// The child of openedByUser(): opens `path` read-only and writes what it opened (its fstat)
// into `out`. Its exit status is an errno.
[[noreturn]] void statAs(const char *path, qint64, int out)
{
    const int fd = ::open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        ::_exit(errno);
    if (::fstat(fd, &st) != 0)
        leave(fd, errno);
    if (::write(out, &st, sizeof st) != ssize_t(sizeof st))
        leave(fd, EIO);
    leave(fd, 0);
}

QString reasonOf(int code)
{
    if (code == EINVAL)
        return QStringLiteral("it is not a regular file");
    if (code == EFBIG)
        return QStringLiteral("it is too large");
    return QString::fromLocal8Bit(std::strerror(code));
}

using Child = void (*)(const char *path, qint64 maxBytes, int out);

// How long the user's process may take. A key file or a node is opened and read in far less;
// the process is the user's, so the user can hold it for ever (a FUSE mount of theirs that
// never answers, a SIGSTOP), and root's helper must not wait on that: it is killed instead.
constexpr qint64 kChildNanoseconds = qint64(10) * 1000 * 1000 * 1000;

qint64 nowNanoseconds()
{
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return qint64(now.tv_sec) * 1000 * 1000 * 1000 + now.tv_nsec;
}

enum class Collected { Whole, TooLarge, Failed, TimedOut };

// Reads the child's pipe until it closes, at most `maxBytes` and until the deadline.
Collected collect(int pipe, qint64 maxBytes, QByteArray *data)
{
    const qint64 deadline = nowNanoseconds() + kChildNanoseconds;
    char chunk[4096];
    for (;;) {
        const qint64 left = deadline - nowNanoseconds();
        pollfd ready{pipe, POLLIN, 0};
        const int polled = left > 0 ? ::poll(&ready, 1, int(left / 1000000) + 1) : 0;
        if (polled < 0 && errno == EINTR)
            continue;
        if (polled <= 0)
            return polled == 0 ? Collected::TimedOut : Collected::Failed;
        const ssize_t n = ::read(pipe, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n == 0 ? Collected::Whole : Collected::Failed;
        if (data->size() + n > maxBytes)
            return Collected::TooLarge;
        data->append(chunk, n);
    }
}

// Runs `child` on `path` in a process that has become `uid`, and collects at most `maxBytes` of
// what it writes. True when the child said it succeeded; `why` says otherwise. Only the child's
// own word counts: a wait that fails (ECHILD when SIGCHLD is ignored and the kernel reaped the
// child) says nothing of what the user could do.
bool asUser(uid_t uid, const QString &path, qint64 maxBytes, Child child, QByteArray *data,
            QString *why)
{
    Identity who;
    int pipeFds[2];
    if (!lookUp(uid, &who)) {
        *why = QStringLiteral("user %1 is unknown").arg(uid);
        return false;
    }
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        *why = reasonOf(errno);
        return false;
    }
    const QByteArray name = QFile::encodeName(path);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(pipeFds[0]);
        becomeUser(who);
        child(name.constData(), maxBytes, pipeFds[1]);
    }
    ::close(pipeFds[1]);
    const Collected collected = pid > 0 ? collect(pipeFds[0], maxBytes, data) : Collected::Failed;
    ::close(pipeFds[0]);
    // Only a child that closed its end is ending by itself; any other may be held by the user.
    if (pid > 0 && collected != Collected::Whole)
        ::kill(pid, SIGKILL);
    int status = 0;
    pid_t waited = -1;
    while (pid > 0 && (waited = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    if (collected == Collected::TimedOut) {
        *why = QStringLiteral("it could not be read within %1 seconds")
                   .arg(kChildNanoseconds / 1000000000);
        return false;
    }
    if (pid < 0 || waited != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        *why = pid < 0 || waited != pid ? reasonOf(errno)
                                        : reasonOf(WIFEXITED(status) ? WEXITSTATUS(status) : EIO);
        return false;
    }
    return true;
}

} // namespace

bool openedByUser(const QString &path, uid_t uid, struct stat *opened, QString *why)
{
    QByteArray data;
    if (!asUser(uid, path, sizeof(struct stat), statAs, &data, why))
        return false;
    if (data.size() != qsizetype(sizeof(struct stat))) {
        *why = reasonOf(EIO);
        return false;
    }
    std::memcpy(opened, data.constData(), sizeof(struct stat));
    return true;
}

bool readFileAsUser(const QString &path, uid_t uid, qint64 maxBytes, QByteArray *out, QString *why)
{
    QByteArray data;
    if (!asUser(uid, path, maxBytes, readAs, &data, why))
        return false;
    *out = data;
    return true;
}

} // namespace partwise
