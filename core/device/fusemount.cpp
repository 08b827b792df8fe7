#include "device/fusemount.h"

#include "base/mounttable.h"
#include "base/toolrunner.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QProcessEnvironment>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace partwise {

namespace {

constexpr char kDevice[] = "/dev/fuse";
constexpr char kCommVariable[] = "_FUSE_COMMFD"; // how fusermount3 finds its socket
constexpr int kMountTimeoutMs = 30000;
constexpr int kEndTimeoutMs = 5000;

QString systemError(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

QString fusermount()
{
    return findTool(QStringLiteral("fusermount3"));
}

// Moves a new descriptor above 0–2, which the child's standard streams take over.
int aboveStandard(int fd)
{
    if (fd < 0 || fd > 2)
        return fd;
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    ::close(fd);
    return moved;
}

void closeIfOpen(int *fd)
{
    if (*fd >= 0)
        ::close(*fd);
    *fd = -1;
}

// An argument or environment vector made before a fork: after it, a child of a program with
// other threads may only make system calls (another thread may have held a lock of malloc's).
class Vector
{
public:
    explicit Vector(const QList<QByteArray> &strings) : m_strings(strings)
    {
        for (QByteArray &s : m_strings)
            m_pointers.push_back(s.data());
        m_pointers.push_back(nullptr);
    }
    char **get() { return m_pointers.data(); }

private:
    QList<QByteArray> m_strings;
    std::vector<char *> m_pointers;
};

Vector argumentsOf(const QString &program, const QStringList &arguments)
{
    QList<QByteArray> strings{QFile::encodeName(program)};
    for (const QString &a : arguments)
        strings << QFile::encodeName(a);
    return Vector(strings);
}

// This process's environment (read under Qt's lock on it), without _FUSE_COMMFD unless
// `commFd` is set.
Vector environmentWith(int commFd)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QLatin1String(kCommVariable));
    if (commFd >= 0)
        environment.insert(QLatin1String(kCommVariable), QString::number(commFd));
    QList<QByteArray> strings;
    for (const QString &variable : environment.toStringList())
        strings << variable.toLocal8Bit();
    return Vector(strings);
}

struct Child
{
    pid_t pid = -1;
    int output = -1; // its standard output and error, to read once it has ended
    QString error;
};

// Starts fusermount3 with `arguments`, its input on /dev/null and its output into a pipe. Only
// `commFd` (when not -1) is inherited, as _FUSE_COMMFD.
Child startFusermount(const QString &program, const QStringList &arguments, int commFd)
{
    Child child;
    Vector argv = argumentsOf(program, arguments);
    Vector envp = environmentWith(commFd);
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        child.error = QStringLiteral("Cannot create a pipe: %1.").arg(systemError(errno));
        return child;
    }
    int readEnd = aboveStandard(pipeFds[0]);
    int writeEnd = aboveStandard(pipeFds[1]);
    int null = aboveStandard(::open("/dev/null", O_RDWR | O_CLOEXEC));
    if (readEnd < 0 || writeEnd < 0 || null < 0) {
        child.error =
            QStringLiteral("Cannot open /dev/null or a pipe: %1.").arg(systemError(errno));
    } else {
        child.pid = ::fork();
        if (child.pid == 0) {
            ::dup2(null, 0);
            ::dup2(writeEnd, 1);
            ::dup2(writeEnd, 2);
            if (commFd >= 0)
                ::fcntl(commFd, F_SETFD, 0);
            ::execve(argv.get()[0], argv.get(), envp.get());
            ::_exit(127);
        }
        if (child.pid < 0)
            child.error = QStringLiteral("Cannot start %1: %2.").arg(program, systemError(errno));
    }
    closeIfOpen(&writeEnd);
    closeIfOpen(&null);
    if (child.pid < 0)
        closeIfOpen(&readEnd);
    child.output = readEnd;
    return child;
}

// Waits at most `timeoutMs` for `pid` to end; its wait status, or -1 when it still runs.
int waitFor(pid_t pid, int timeoutMs)
{
    for (int waited = 0;; waited += 10) {
        int status = 0;
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return r == pid ? status : 0;
        if (waited >= timeoutMs)
            return -1;
        const timespec tenMs{0, 10 * 1000 * 1000};
        ::nanosleep(&tenMs, nullptr);
    }
}

// Ends `pid` for good: a wait of `timeoutMs`, then SIGKILL.
void reap(pid_t pid, int timeoutMs)
{
    if (waitFor(pid, timeoutMs) == -1) {
        ::kill(pid, SIGKILL);
        while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
}

QString drain(int *fd)
{
    QByteArray all;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(*fd, buffer, sizeof buffer);
        if (n > 0)
            all.append(buffer, n);
        else if (n == 0 || errno != EINTR)
            break;
    }
    closeIfOpen(fd);
    return QString::fromLocal8Bit(all).trimmed();
}

bool isMountPoint(const QString &path)
{
    for (const MountEntry &m : readMountTable())
        if (m.target == path)
            return true;
    return false;
}

} // namespace

QString fuseMountProblem()
{
    struct stat st
    {
    };
    if (::stat(kDevice, &st) != 0 || !S_ISCHR(st.st_mode))
        return QStringLiteral("The kernel offers no FUSE here: /dev/fuse is missing (load its "
                              "module: modprobe fuse).");
    // fusermount3 opens it with the user's rights, so the user must be allowed to.
    if (::access(kDevice, R_OK | W_OK) != 0)
        return QStringLiteral("FUSE is closed to this user: /dev/fuse has mode %1 (Debian's udev "
                              "rule opens it to every user, 0666).")
            .arg(st.st_mode & 07777, 4, 8, QLatin1Char('0'));
    const QString program = fusermount();
    if (program.isEmpty())
        return QStringLiteral("fusermount3 is not installed; install the fuse3 package.");
    if (::geteuid() != 0 && (::stat(QFile::encodeName(program).constData(), &st) != 0 ||
                             st.st_uid != 0 || !(st.st_mode & S_ISUID)))
        return QStringLiteral("%1 is not setuid root, so it cannot mount FUSE for a user; "
                              "reinstall the fuse3 package.")
            .arg(program);
    return QString();
}

FuseMount::FuseMount(const QStringList &options)
{
    m_error = fuseMountProblem();
    const QString program = fusermount();
    if (!m_error.isEmpty() || !makeFolders() || !startKeeper(program))
        return;
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        m_error =
            QStringLiteral("Cannot create a socket for fusermount3: %1.").arg(systemError(errno));
        return;
    }
    int ours = aboveStandard(pair[0]);
    int theirs = aboveStandard(pair[1]);
    Child child;
    if (ours >= 0 && theirs >= 0)
        child = startFusermount(program,
                                {QStringLiteral("-o"), options.join(QLatin1Char(',')),
                                 QStringLiteral("--"), m_mountPoint},
                                theirs);
    else
        child.error =
            QStringLiteral("Cannot create a socket for fusermount3: %1.").arg(systemError(errno));
    closeIfOpen(&theirs);
    if (child.pid < 0)
        m_error = child.error;
    else
        receiveDevice(ours, child.pid, child.output);
    closeIfOpen(&ours);
}

bool FuseMount::makeFolders()
{
    // Without links in its name: fusermount3 and the mount table name it resolved.
    const QString base = QFileInfo(QDir::tempPath()).canonicalFilePath();
    QByteArray name = QFile::encodeName((base.isEmpty() ? QStringLiteral("/tmp") : base) +
                                        QStringLiteral("/partwise-fuse-XXXXXX"));
    if (!::mkdtemp(name.data())) { // mode 0700
        m_error = QStringLiteral("Cannot create a folder in %1: %2.")
                      .arg(QDir::tempPath(), systemError(errno));
        return false;
    }
    m_folder = QFile::decodeName(name);
    m_mountPoint = m_folder + QStringLiteral("/fuse");
    if (::mkdir(QFile::encodeName(m_mountPoint).constData(), 0700) == 0)
        return true;
    m_error = QStringLiteral("Cannot create %1: %2.").arg(m_mountPoint, systemError(errno));
    ::rmdir(name.constData());
    m_folder.clear();
    return false;
}

// The keeper: forked, it makes only system calls until it becomes fusermount3 -u.
bool FuseMount::startKeeper(const QString &program)
{
    Vector argv = argumentsOf(program, {QStringLiteral("-u"), QStringLiteral("-q"),
                                        QStringLiteral("-z"), QStringLiteral("--"), m_mountPoint});
    Vector envp = environmentWith(-1);
    const QByteArray mountPoint = QFile::encodeName(m_mountPoint);
    const QByteArray folder = QFile::encodeName(m_folder);
    rlimit files{};
    const int lastFd = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY
                           ? int(std::min<rlim_t>(files.rlim_cur, 1 << 20))
                           : 1 << 16;
    int pipeFds[2] = {-1, -1};
    int null = aboveStandard(::open("/dev/null", O_RDWR | O_CLOEXEC));
    if (null >= 0 && ::pipe2(pipeFds, O_CLOEXEC) == 0) {
        pipeFds[0] = aboveStandard(pipeFds[0]);
        pipeFds[1] = aboveStandard(pipeFds[1]);
    }
    if (null < 0 || pipeFds[0] < 0 || pipeFds[1] < 0) {
        m_error = QStringLiteral("Cannot open /dev/null or a pipe: %1.").arg(systemError(errno));
        closeIfOpen(&null);
        closeIfOpen(&pipeFds[0]);
        closeIfOpen(&pipeFds[1]);
        return false;
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        // Out of the caller's session and process group, deaf to every signal but SIGKILL: a
        // Ctrl+C or a kill of the whole group ends Partwise, not the keeper.
        ::setsid();
        sigset_t all;
        ::sigfillset(&all);
        ::sigprocmask(SIG_BLOCK, &all, nullptr);
        ::prctl(PR_SET_NAME, "partwise-fuse");
        // Holding nothing but the pipe: another mount's device or keeper pipe held here would
        // keep that mount alive or its keeper waiting.
        ::dup2(pipeFds[0], 0);
        ::dup2(null, 1);
        ::dup2(null, 2);
        if (::close_range(3, ~0U, 0) != 0)
            for (int fd = 3; fd < lastFd; ++fd)
                ::close(fd);
        char byte = 0;
        while (::read(0, &byte, 1) < 0 && errno == EINTR) {
        }
        // _Fork, not fork: no atfork handlers, safe in this child of a threaded program.
        const pid_t unmounter = ::_Fork();
        if (unmounter == 0) {
            ::execve(argv.get()[0], argv.get(), envp.get());
            ::_exit(127);
        }
        if (unmounter > 0)
            while (::waitpid(unmounter, nullptr, 0) < 0 && errno == EINTR) {
            }
        ::rmdir(mountPoint.constData());
        ::rmdir(folder.constData());
        ::_exit(0);
    }
    const int code = errno;
    ::close(null);
    ::close(pipeFds[0]);
    if (pid < 0) {
        ::close(pipeFds[1]);
        m_error = QStringLiteral("Cannot start a process: %1.").arg(systemError(code));
        return false;
    }
    m_keeper = pid;
    m_keeperPipe = pipeFds[1];
    return true;
}

bool FuseMount::receiveDevice(int socket, pid_t helper, int output)
{
    pollfd ready{socket, POLLIN, 0};
    int polled = 0;
    while ((polled = ::poll(&ready, 1, kMountTimeoutMs)) < 0 && errno == EINTR) {
    }
    int fd = -1;
    if (polled > 0) {
        char byte = 0;
        iovec data{&byte, 1};
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
        msghdr message{};
        message.msg_iov = &data;
        message.msg_iovlen = 1;
        message.msg_control = control;
        message.msg_controllen = sizeof control;
        ssize_t n = 0;
        while ((n = ::recvmsg(socket, &message, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
        }
        const cmsghdr *header = n > 0 ? CMSG_FIRSTHDR(&message) : nullptr;
        if (header && header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS &&
            header->cmsg_len == CMSG_LEN(sizeof(int)))
            std::memcpy(&fd, CMSG_DATA(header), sizeof fd);
    }
    // Without auto_unmount fusermount3 ends once it has sent the descriptor.
    reap(helper, polled > 0 ? kEndTimeoutMs : 0);
    const QString said = drain(&output);
    if (fd >= 0) {
        m_device = fd;
        return true;
    }
    m_error = polled == 0 ? QStringLiteral("fusermount3 did not mount FUSE on %1 within %2 s.")
                                .arg(m_mountPoint)
                                .arg(kMountTimeoutMs / 1000)
                          : QStringLiteral("fusermount3 could not mount FUSE on %1: %2")
                                .arg(m_mountPoint,
                                     said.isEmpty() ? QStringLiteral("it said nothing.") : said);
    return false;
}

int FuseMount::takeDevice()
{
    const int fd = m_device;
    m_device = -1;
    return fd;
}

bool FuseMount::unmount(QString *error)
{
    // Without a server every access fails at once instead of waiting, and nothing is left to
    // answer for the mount but the kernel.
    closeIfOpen(&m_device);
    if (m_folder.isEmpty())
        return true;
    closeIfOpen(&m_keeperPipe); // the keeper runs fusermount3 -u -z and removes the folders
    if (m_keeper > 0)
        reap(m_keeper, kEndTimeoutMs);
    m_keeper = -1;
    const bool mounted = !m_mountPoint.isEmpty() && isMountPoint(m_mountPoint);
    if (!m_folder.isEmpty() && !mounted) { // the keeper's work, had it been stopped
        ::rmdir(QFile::encodeName(m_mountPoint).constData());
        ::rmdir(QFile::encodeName(m_folder).constData());
    }
    m_folder.clear();
    if (mounted && error)
        *error = QStringLiteral("%1 is still a FUSE mount point: fusermount3 -u failed.")
                     .arg(m_mountPoint);
    return !mounted;
}

FuseMount::~FuseMount()
{
    unmount();
}

} // namespace partwise
