#include "device/loopbacking.h"

#include "device/sysfsline.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMap>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>

#include <fcntl.h>
#include <linux/loop.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace partwise {

bool LoopBacking::shows(const struct stat &st, const QString &canonicalPath) const
{
    if (!identified)
        return !canonicalPath.isEmpty() && path == canonicalPath;
    if (S_ISBLK(st.st_mode))
        return blockDevice != 0 && blockDevice == st.st_rdev;
    return blockDevice == 0 && fileSystem == st.st_dev && inode == st.st_ino;
}

namespace {

// One loop device's answer, as the asking process writes it into the pipe.
struct Answer
{
    qint32 index = 0;
    qint32 error = 0; // errno of the open or the ioctl; 0: answered
    quint64 fileSystem = 0, inode = 0, blockDevice = 0;
};

// How long the kernel may take to answer for all loop devices together. It answers by asking
// the backing file's filesystem (getattr), which for a file on FUSE is the user's daemon: a mount
// hidden from root's table (a lazy unmount, another mount namespace) is not known to stall.
constexpr int kAnswerMilliseconds = 2000;

// In a grandchild, so nothing of this process waits on it: a request the FUSE daemon has read and
// never answers leaves the asker in an uninterruptible wait, beyond SIGKILL. The grandchild is
// init's to reap, whenever it ends; only async-signal-safe calls run in it.
void askInGrandchild(const QList<QByteArray> &nodes, int out)
{
    if (::_Fork() != 0)
        ::_exit(0); // the child: gone at once, reaped below
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        Answer a;
        a.index = qint32(i);
        loop_info64 info{};
        const int fd = ::open(nodes[i].constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0 || ::ioctl(fd, LOOP_GET_STATUS64, &info) != 0)
            a.error = errno;
        if (fd >= 0)
            ::close(fd);
        // The kernel encodes these as stat() does st_dev and st_rdev.
        a.fileSystem = info.lo_device;
        a.inode = info.lo_inode;
        a.blockDevice = info.lo_rdevice;
        if (::write(out, &a, sizeof a) != ssize_t(sizeof a))
            ::_exit(1);
    }
    ::_exit(0);
}

// The answers that came within the time, by index into `nodes`. `*cannotAsk` is an errno when
// the asking ended without an answer for some and not by the time running out (no pipe, no
// process, a grandchild that could not start): those are unknown, not merely slow.
QMap<int, Answer> askLoops(const QList<QByteArray> &nodes, int *cannotAsk)
{
    QMap<int, Answer> answers;
    int pipeFds[2];
    if (nodes.isEmpty())
        return answers;
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        *cannotAsk = errno;
        return answers;
    }
    const pid_t child = ::_Fork();
    if (child < 0)
        *cannotAsk = errno;
    if (child == 0) {
        ::close(pipeFds[0]);
        askInGrandchild(nodes, pipeFds[1]);
    }
    ::close(pipeFds[1]);
    if (child > 0)
        while (::waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
        }
    QElapsedTimer clock;
    clock.start();
    QByteArray got;
    bool timedOut = false;
    while (child > 0) {
        const qint64 left = kAnswerMilliseconds - clock.elapsed();
        pollfd p{pipeFds[0], POLLIN, 0};
        if (left <= 0 || ::poll(&p, 1, int(left)) == 0) {
            timedOut = true; // unanswered ones are known by their paths alone
            break;
        }
        char chunk[4096];
        const ssize_t n = p.revents ? ::read(pipeFds[0], chunk, sizeof chunk) : -1;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got.append(chunk, n);
    }
    ::close(pipeFds[0]);
    for (qsizetype at = 0; at + qsizetype(sizeof(Answer)) <= got.size(); at += sizeof(Answer)) {
        Answer a;
        std::memcpy(&a, got.constData() + at, sizeof a);
        answers.insert(a.index, a);
    }
    if (!timedOut && answers.size() < nodes.size() && *cannotAsk == 0)
        *cannotAsk = EIO;
    return answers;
}

} // namespace

QList<LoopBacking> loopBackingsOf(const QStringList &names, const QList<MountEntry> &mounts)
{
    QList<LoopBacking> out;
    QList<QByteArray> asked;
    QList<qsizetype> askedAt; // where in `out`
    for (const QString &name : names) {
        LoopBacking b;
        b.loop = QStringLiteral("/dev/") + name;
        b.path = sysfsLine(QStringLiteral("/sys/block/%1/loop/backing_file").arg(name));
        if (b.path.isEmpty())
            continue; // shows nothing
        const MountEntry *mount = mountHolding(mounts, b.path);
        if (!mount || !mayStall(*mount)) {
            asked << QFile::encodeName(b.loop);
            askedAt << out.size();
        }
        out << b;
    }
    int cannotAsk = 0;
    const QMap<int, Answer> answers = askLoops(asked, &cannotAsk);
    if (cannotAsk != 0)
        for (qsizetype i = 0; i < askedAt.size(); ++i)
            if (!answers.contains(int(i)))
                out[askedAt[i]].unanswered = cannotAsk;
    QList<qsizetype> unbound;
    for (auto it = answers.cbegin(); it != answers.cend(); ++it) {
        LoopBacking &b = out[askedAt.value(it.key())];
        if (it->error == ENXIO) {
            unbound << askedAt.value(it.key()); // let go since sysfs was read
        } else if (it->error == EACCES && ::geteuid() != 0) {
            // A user's own session may not open root's loop devices (a snap's): for the user's
            // own files the kernel's live path of the backing file (d_path, which follows
            // renames) is an honest answer, so it is known by that path.
        } else if (it->error != 0) {
            b.unanswered = it->error;
        } else {
            b.identified = true;
            b.fileSystem = dev_t(it->fileSystem);
            b.inode = ino_t(it->inode);
            b.blockDevice = dev_t(it->blockDevice);
        }
    }
    std::sort(unbound.begin(), unbound.end(), std::greater<>());
    for (const qsizetype at : unbound)
        out.removeAt(at);
    return out;
}

std::optional<LoopBacking> loopBackingOf(const QString &name, const QList<MountEntry> &mounts)
{
    const QList<LoopBacking> one = loopBackingsOf({name}, mounts);
    return one.isEmpty() ? std::nullopt : std::optional<LoopBacking>(one.first());
}

QList<LoopBacking> loopBackings(const QList<MountEntry> &mounts)
{
    const QDir block(QStringLiteral("/sys/block"));
    return loopBackingsOf(block.entryList({QStringLiteral("loop*")}, QDir::Dirs), mounts);
}

} // namespace partwise
