#include "fs/cowwindow.h"

#include "base/positionedio.h"
#include "device/fusemount.h"

#include "device/fuseonefile.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace partwise {

// What the FUSE callbacks serve, and the process serving it.
struct CowWindowServer
{
    int disk = -1;
    int overlay = -1; // unnamed sparse file: written blocks at their offset from writableOffset
    qint64 windowBytes = 0;
    qint64 writableOffset = 0;
    qint64 writableBytes = 0;
    // One bit per block of the writable range, in memory shared with the server process (which
    // sets them): the client reads them once the server has ended.
    quint64 *written = nullptr;
    size_t writtenBytes = 0;
    uid_t uid = 0;
    gid_t gid = 0;
    timespec made{};
    std::vector<char> buffer; // one request at a time: a single thread serves
    fuse_session *session = nullptr;
    int stop = -1; // the client's end of a pipe: closing it (or dying) ends the server
    pid_t server = -1;

    qint64 writableEnd() const { return writableOffset + writableBytes; }
    bool isWritten(qint64 index) const { return written[index / 64] >> (index % 64) & 1; }
    void markWritten(qint64 index) { written[index / 64] |= quint64(1) << (index % 64); }
    qint64 blockLength(qint64 index) const
    {
        return std::min(CowWindow::kBlockBytes, writableBytes - index * CowWindow::kBlockBytes);
    }
};

namespace {

constexpr fuse_ino_t kFile = kFuseFileIno;
constexpr char kFileName[] = "window";
constexpr double kForever = kFuseForever;
constexpr qint64 B = CowWindow::kBlockBytes;

QString systemError(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

// Past a file's end (the overlay's holes at its end) reads as zeros.
bool readAll(int fd, char *data, qint64 length, qint64 offset)
{
    const qint64 n = readFullAt(fd, data, length, offset);
    if (n < 0)
        return false;
    std::memset(data + n, 0, size_t(length - n));
    return true;
}

CowWindowServer &served(fuse_req_t req)
{
    return *static_cast<CowWindowServer *>(fuse_req_userdata(req));
}

FuseOneFile tree(const CowWindowServer &s)
{
    return {kFileName, s.windowBytes, s.uid, s.gid, s.made};
}

struct stat attributes(const CowWindowServer &s, fuse_ino_t ino)
{
    return fuseOneFileAttributes(tree(s), ino);
}

void onLookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
    replyFuseLookup(req, tree(served(req)), parent, name);
}

void onGetattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info *)
{
    replyFuseGetattr(req, tree(served(req)), ino);
}

void onReaddir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info *)
{
    replyFuseReaddir(req, tree(served(req)), ino, size, off);
}

// A smaller size is accepted and ignored (a disk keeps its size); growing fails.
void onSetattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int toSet, fuse_file_info *)
{
    const CowWindowServer &s = served(req);
    int error = 0;
    if (!fuseOneFileKnows(ino))
        error = ENOENT;
    else if (toSet & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID))
        error = EPERM;
    else if ((toSet & FUSE_SET_ATTR_SIZE) && (ino != kFile || attr->st_size > s.windowBytes))
        error = ino != kFile ? EISDIR : EFBIG;
    if (error) {
        fuse_reply_err(req, error);
        return;
    }
    const struct stat st = attributes(s, ino);
    fuse_reply_attr(req, &st, kForever);
}

void onOpen(fuse_req_t req, fuse_ino_t ino, fuse_file_info *fi)
{
    if (ino != kFile) {
        fuse_reply_err(req, fuseOneFileKnows(ino) ? EISDIR : ENOENT);
        return;
    }
    fi->direct_io = 1;
    fuse_reply_open(req, fi);
}

// Reads [pos, pos + length) of the view: written blocks from the overlay, the rest from the disk.
bool readView(const CowWindowServer &s, char *data, qint64 pos, qint64 length)
{
    const qint64 end = pos + length;
    while (pos < end) {
        if (pos < s.writableOffset || pos >= s.writableEnd()) {
            const qint64 stop = pos < s.writableOffset ? std::min(end, s.writableOffset) : end;
            if (!readAll(s.disk, data, stop - pos, pos))
                return false;
            data += stop - pos, pos = stop;
            continue;
        }
        const qint64 rel = pos - s.writableOffset;
        const qint64 index = rel / B;
        const qint64 stop = std::min(end, s.writableOffset + index * B + s.blockLength(index));
        const bool ok = s.isWritten(index) ? readAll(s.overlay, data, stop - pos, rel)
                                           : readAll(s.disk, data, stop - pos, pos);
        if (!ok)
            return false;
        data += stop - pos, pos = stop;
    }
    return true;
}

void onRead(fuse_req_t req, fuse_ino_t, size_t size, off_t off, fuse_file_info *)
{
    CowWindowServer &s = served(req);
    if (off < 0) {
        fuse_reply_err(req, EINVAL);
        return;
    }
    const qint64 wanted =
        off >= s.windowBytes ? 0 : std::min<qint64>(qint64(size), s.windowBytes - off);
    s.buffer.resize(std::max<size_t>(s.buffer.size(), size_t(wanted)));
    if (!readView(s, s.buffer.data(), off, wanted)) {
        fuse_reply_err(req, errno ? errno : EIO);
        return;
    }
    fuse_reply_buf(req, s.buffer.data(), size_t(wanted));
}

// Keeps [pos, pos + length) of the writable range aside; a block written for the first time
// in part first gets the disk's bytes.
bool keepWrite(CowWindowServer &s, const char *data, qint64 pos, qint64 length)
{
    const qint64 end = pos + length;
    while (pos < end) {
        const qint64 rel = pos - s.writableOffset;
        const qint64 index = rel / B;
        const qint64 blockStart = index * B;
        const qint64 stop = std::min(end, s.writableOffset + blockStart + s.blockLength(index));
        if (!s.isWritten(index) && stop - pos < s.blockLength(index)) {
            std::vector<char> block(size_t(s.blockLength(index)));
            if (!readAll(s.disk, block.data(), qint64(block.size()),
                         s.writableOffset + blockStart) ||
                !writeFullAt(s.overlay, block.data(), qint64(block.size()), blockStart))
                return false;
        }
        if (!writeFullAt(s.overlay, data, stop - pos, rel))
            return false;
        s.markWritten(index);
        data += stop - pos, pos = stop;
    }
    return true;
}

// Outside the partition nothing is written: EIO. Past the view's end: ENOSPC, as on a disk.
void onWrite(fuse_req_t req, fuse_ino_t, const char *data, size_t size, off_t off, fuse_file_info *)
{
    CowWindowServer &s = served(req);
    if (off < 0 || off >= s.windowBytes) {
        fuse_reply_err(req, off < 0 ? EINVAL : ENOSPC);
        return;
    }
    const qint64 wanted = std::min<qint64>(qint64(size), s.windowBytes - off);
    if (off < s.writableOffset || off + wanted > s.writableEnd()) {
        fuse_reply_err(req, EIO);
        return;
    }
    if (!keepWrite(s, data, off, wanted)) {
        fuse_reply_err(req, errno ? errno : EIO);
        return;
    }
    fuse_reply_write(req, size_t(wanted));
}

// Nothing to make durable: the view is scratch until its blocks are journaled.
void onFsync(fuse_req_t req, fuse_ino_t, int, fuse_file_info *)
{
    fuse_reply_err(req, 0);
}

void onFlush(fuse_req_t req, fuse_ino_t, fuse_file_info *)
{
    fuse_reply_err(req, 0);
}

const fuse_lowlevel_ops kOperations = [] {
    fuse_lowlevel_ops ops{};
    ops.lookup = onLookup;
    ops.getattr = onGetattr;
    ops.setattr = onSetattr;
    ops.open = onOpen;
    ops.read = onRead;
    ops.write = onWrite;
    ops.flush = onFlush;
    ops.fsync = onFsync;
    ops.readdir = onReaddir;
    return ops;
}();

// The session's loop, until the client's end of `stop` closes or the mount goes away.
void serve(fuse_session *session, int stop)
{
    fuse_buf request{};
    pollfd ready[2] = {{fuse_session_fd(session), POLLIN, 0}, {stop, POLLIN, 0}};
    while (!fuse_session_exited(session)) {
        if (::poll(ready, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (ready[1].revents || (ready[0].revents & (POLLERR | POLLHUP | POLLNVAL)))
            break;
        const int n = fuse_session_receive_buf(session, &request);
        if (n == -EINTR || n == -EAGAIN)
            continue;
        if (n <= 0)
            break;
        fuse_session_process_buf(session, &request);
    }
    std::free(request.mem);
}

// Closes every descriptor but 0-2 and `keep` (the server's own, inherited with everything else
// the client holds: another view's device, a keeper's pipe, the job's lock).
void closeAllBut(std::vector<int> keep)
{
    keep.push_back(2);
    std::sort(keep.begin(), keep.end());
    for (size_t i = 0; i + 1 < keep.size(); ++i)
        if (keep[i + 1] > keep[i] + 1)
            ::close_range(unsigned(keep[i] + 1), unsigned(keep[i + 1] - 1), 0);
    ::close_range(unsigned(keep.back() + 1), ~0U, 0);
}

// The server process: forked from the client, it serves the view and nothing else, and ends
// with its client (the pipe closing, or SIGKILL when the forking thread dies). Deaf to every
// other signal, so a Ctrl+C ends the client, whose pending request is still answered: a client
// killed while its own request waits in FUSE can exit, which it could not while it served
// the view itself. The kernel then aborts the connection; the mount's keeper unmounts it.
[[noreturn]] void runServer(CowWindowServer &s, int stop, pid_t client)
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != client) // the client ended before the line above
        ::_exit(1);
    sigset_t all;
    ::sigfillset(&all);
    ::sigprocmask(SIG_BLOCK, &all, nullptr);
    ::prctl(PR_SET_NAME, "partwise-cow");
    closeAllBut({fuse_session_fd(s.session), s.disk, s.overlay, stop});
    serve(s.session, stop);
    ::_exit(0);
}

// Waits for the server to end; true when it ended by itself and cleanly.
bool reapServer(pid_t pid)
{
    int status = 0;
    for (int waited = 0; waited < 5000; waited += 10) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (r < 0 && errno != EINTR)
            return false;
        const timespec tenMs{0, 10 * 1000 * 1000};
        ::nanosleep(&tenMs, nullptr);
    }
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    return false;
}

// An unnamed file in `folder` (nobody can reach it by name), else in the temporary folder.
int unnamedFile(const QString &folder)
{
    for (const QString &where : {folder, QStringLiteral("/var/tmp"), QStringLiteral("/tmp")}) {
        if (where.isEmpty())
            continue;
        const int fd =
            ::open(QFile::encodeName(where).constData(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        if (fd >= 0)
            return fd;
    }
    return -1;
}

} // namespace

CowWindow::CowWindow(int diskFd, qint64 windowBytes, qint64 writableOffset, qint64 writableBytes,
                     const QString &scratchFolder)
{
    if (writableOffset < 0 || writableBytes <= 0 || windowBytes < writableOffset + writableBytes) {
        m_error = QStringLiteral("The filesystem's range lies outside the disk.");
        return;
    }
    m_server = std::make_unique<CowWindowServer>();
    CowWindowServer &s = *m_server;
    s.windowBytes = windowBytes;
    s.writableOffset = writableOffset;
    s.writableBytes = writableBytes;
    s.writtenBytes = size_t((writableBytes + 64 * B - 1) / (64 * B)) * sizeof(quint64);
    void *bits =
        ::mmap(nullptr, s.writtenBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    s.written = bits == MAP_FAILED ? nullptr : static_cast<quint64 *>(bits);
    s.uid = ::getuid();
    s.gid = ::getgid();
    ::clock_gettime(CLOCK_REALTIME, &s.made);
    s.disk = ::fcntl(diskFd, F_DUPFD_CLOEXEC, 3);
    s.overlay = unnamedFile(scratchFolder);
    if (!s.written || s.disk < 0 || s.overlay < 0) {
        m_error = QStringLiteral("Cannot prepare a copy-on-write view of the filesystem: %1.")
                      .arg(systemError(errno));
        tearDown();
        return;
    }
    m_mount = std::make_unique<FuseMount>(
        QStringList{QStringLiteral("nosuid"), QStringLiteral("nodev"), QStringLiteral("noexec"),
                    QStringLiteral("noatime"), QStringLiteral("default_permissions"),
                    QStringLiteral("fsname=partwise-cow"), QStringLiteral("subtype=partwise")});
    if (!m_mount->ok()) {
        m_error = m_mount->error();
        tearDown();
        return;
    }
    char program[] = "partwise";
    char *argv[] = {program, nullptr};
    fuse_args args = FUSE_ARGS_INIT(1, argv);
    s.session = fuse_session_new(&args, &kOperations, sizeof kOperations, &s);
    fuse_opt_free_args(&args);
    const QByteArray device = "/dev/fd/" + QByteArray::number(m_mount->device());
    if (!s.session || fuse_session_mount(s.session, device.constData()) != 0) {
        m_error = QStringLiteral("libfuse could not take over the FUSE mount on %1.")
                      .arg(m_mount->mountPoint());
        tearDown();
        return;
    }
    m_mount->takeDevice();
    if (!startServer()) {
        tearDown();
        return;
    }
    m_path = m_mount->mountPoint() + QLatin1Char('/') + QLatin1String(kFileName);
}

bool CowWindow::startServer()
{
    CowWindowServer &s = *m_server;
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        m_error = QStringLiteral("Cannot create a pipe: %1.").arg(systemError(errno));
        return false;
    }
    const pid_t client = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0)
        runServer(s, pipeFds[0], client);
    const int code = errno;
    ::close(pipeFds[0]);
    if (pid < 0) {
        ::close(pipeFds[1]);
        m_error = QStringLiteral("Cannot start the copy-on-write view's server: %1.")
                      .arg(systemError(code));
        return false;
    }
    s.server = pid;
    s.stop = pipeFds[1];
    // The device is the server's alone now: when it ends, the connection goes with it.
    fuse_session_destroy(s.session);
    s.session = nullptr;
    return true;
}

CowWindow::~CowWindow()
{
    tearDown();
}

bool CowWindow::stopServing()
{
    if (!m_server)
        return false;
    CowWindowServer &s = *m_server;
    if (s.stop >= 0)
        ::close(s.stop);
    s.stop = -1;
    if (s.server > 0 && !reapServer(s.server) && m_error.isEmpty())
        m_error = QStringLiteral("The copy-on-write view's server ended before its client: what "
                                 "was written through it is not known.");
    s.server = -1;
    if (s.session)
        fuse_session_destroy(s.session);
    s.session = nullptr;
    m_mount.reset();
    m_path.clear();
    return ok();
}

void CowWindow::tearDown()
{
    stopServing();
    if (m_server) {
        for (int fd : {m_server->disk, m_server->overlay})
            if (fd >= 0)
                ::close(fd);
        if (m_server->written)
            ::munmap(m_server->written, m_server->writtenBytes);
        m_server.reset();
    }
}

std::vector<CowWindow::Block> CowWindow::writtenBlocks() const
{
    std::vector<Block> blocks;
    if (!m_server || !ok())
        return blocks;
    const qint64 count = (m_server->writableBytes + B - 1) / B;
    for (qint64 i = 0; i < count; ++i)
        if (m_server->isWritten(i))
            blocks.push_back({i * B, m_server->blockLength(i)});
    return blocks;
}

bool CowWindow::readBlock(const Block &block, char *data) const
{
    return m_server && ok() && readAll(m_server->overlay, data, block.length, block.offset);
}

} // namespace partwise
