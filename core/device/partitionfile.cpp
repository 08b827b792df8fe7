#include "device/partitionfile.h"

#include "base/positionedio.h"
#include "device/fusemount.h"

#include "device/fuseonefile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/fs.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace partwise {

// What the FUSE callbacks serve, and the thread serving it.
struct PartitionFileServer
{
    int image = -1;
    qint64 offset = 0;
    qint64 length = 0;
    bool readOnly = true;
    uid_t uid = 0;
    gid_t gid = 0;
    timespec made{};
    std::vector<char> buffer; // reads, one at a time: a single thread serves
    fuse_session *session = nullptr;
    int stop = -1; // an eventfd: written to end the thread
    std::thread thread;
};

namespace {

constexpr fuse_ino_t kFile = kFuseFileIno;
constexpr char kFileName[] = "partition";
constexpr double kForever = kFuseForever;

QString systemError(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

PartitionFileServer &served(fuse_req_t req)
{
    return *static_cast<PartitionFileServer *>(fuse_req_userdata(req));
}

FuseOneFile tree(const PartitionFileServer &s)
{
    return {kFileName, s.length, s.uid, s.gid, s.made};
}

struct stat attributes(const PartitionFileServer &s, fuse_ino_t ino)
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

// Times are accepted and forgotten; a new owner or mode is refused. The size is the
// partition's: growing fails, and a smaller size leaves it as it is (see the header).
void onSetattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int toSet, fuse_file_info *)
{
    const PartitionFileServer &s = served(req);
    int error = 0;
    if (!fuseOneFileKnows(ino))
        error = ENOENT;
    else if (toSet & (FUSE_SET_ATTR_MODE | FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID))
        error = EPERM;
    else if ((toSet & FUSE_SET_ATTR_SIZE) && ino != kFile)
        error = EISDIR;
    else if ((toSet & FUSE_SET_ATTR_SIZE) && s.readOnly)
        error = EROFS;
    else if ((toSet & FUSE_SET_ATTR_SIZE) && attr->st_size > s.length)
        error = EFBIG;
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
    // A read-only file still opens for writing: some tools open a regular file read-write for
    // read-only work (xfs_logprint), as a scratch copy let them. Every write is refused.
    fi->direct_io = 1; // every read and write reaches the image as the tool issued it
    fuse_reply_open(req, fi);
}

void onRead(fuse_req_t req, fuse_ino_t, size_t size, off_t off, fuse_file_info *)
{
    PartitionFileServer &s = served(req);
    if (off < 0) {
        fuse_reply_err(req, EINVAL);
        return;
    }
    const size_t wanted =
        off >= s.length ? 0 : size_t(std::min<qint64>(qint64(size), s.length - off));
    s.buffer.resize(std::max(s.buffer.size(), wanted));
    // An image that ends early (someone cut it) gives a short read, as at a disk's end.
    const qint64 done = readFullAt(s.image, s.buffer.data(), qint64(wanted), s.offset + off);
    if (done < 0) {
        fuse_reply_err(req, errno);
        return;
    }
    fuse_reply_buf(req, s.buffer.data(), size_t(done));
}

// A write reaching past the partition's end is cut there (the caller sees a short write, and
// ENOSPC for the rest, as on a disk); nothing is ever written outside the partition.
void onWrite(fuse_req_t req, fuse_ino_t, const char *data, size_t size, off_t off, fuse_file_info *)
{
    const PartitionFileServer &s = served(req);
    if (s.readOnly || off < 0 || off >= s.length) {
        fuse_reply_err(req, s.readOnly ? EROFS : off < 0 ? EINVAL : ENOSPC);
        return;
    }
    const size_t wanted = size_t(std::min<qint64>(qint64(size), s.length - off));
    size_t done = 0;
    while (done < wanted) {
        const ssize_t n =
            ::pwrite(s.image, data + done, wanted - done, s.offset + off + qint64(done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (done == 0) {
                fuse_reply_err(req, n < 0 ? errno : EIO);
                return;
            }
            break;
        }
        done += size_t(n);
    }
    fuse_reply_write(req, done);
}

void onFsync(fuse_req_t req, fuse_ino_t, int, fuse_file_info *)
{
    const PartitionFileServer &s = served(req);
    fuse_reply_err(req, s.readOnly || ::fdatasync(s.image) == 0 ? 0 : errno);
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

// The session's loop, until `stop` is written to or the mount goes away. libfuse's own loop
// blocks in read() and could not be told to end.
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
            break; // -ENODEV: unmounted
        fuse_session_process_buf(session, &request);
    }
    std::free(request.mem);
}

// Why `fd` cannot be served as [offset, offset + length), or an empty string.
QString rangeProblem(int fd, qint64 offset, qint64 length, bool readOnly)
{
    const int flags = ::fcntl(fd, F_GETFL);
    struct stat st
    {
    };
    if (flags < 0 || ::fstat(fd, &st) != 0)
        return QStringLiteral("Cannot examine the image: %1.").arg(systemError(errno));
    if ((flags & O_PATH) || (flags & O_ACCMODE) == O_WRONLY ||
        (!readOnly && (flags & O_ACCMODE) != O_RDWR))
        return QStringLiteral("The image is not open for %1.")
            .arg(readOnly ? QStringLiteral("reading") : QStringLiteral("reading and writing"));
    quint64 size = 0;
    if (S_ISREG(st.st_mode))
        size = quint64(st.st_size);
    else if (!S_ISBLK(st.st_mode) || ::ioctl(fd, BLKGETSIZE64, &size) != 0)
        return QStringLiteral("The image is neither a disk image file nor a disk.");
    if (offset < 0 || length <= 0 || quint64(offset) > size || quint64(length) > size - offset)
        return QStringLiteral("Bytes %1 to %2 lie outside the image, which has %3.")
            .arg(offset)
            .arg(offset + length)
            .arg(size);
    return QString();
}

} // namespace

QString partitionFilesProblem()
{
    return fuseMountProblem();
}

bool partitionFilesAvailable()
{
    return partitionFilesProblem().isEmpty();
}

PartitionFile::PartitionFile(int imageFd, qint64 offset, qint64 length, bool readOnly)
{
    m_error = rangeProblem(imageFd, offset, length, readOnly);
    if (!m_error.isEmpty())
        return;
    m_server = std::make_unique<PartitionFileServer>();
    PartitionFileServer &s = *m_server;
    s.offset = offset;
    s.length = length;
    s.readOnly = readOnly;
    s.uid = ::getuid();
    s.gid = ::getgid();
    ::clock_gettime(CLOCK_REALTIME, &s.made);
    s.image = ::fcntl(imageFd, F_DUPFD_CLOEXEC, 3);
    s.stop = ::eventfd(0, EFD_CLOEXEC);
    if (s.image < 0 || s.stop < 0) {
        m_error =
            QStringLiteral("Cannot prepare the partition's file: %1.").arg(systemError(errno));
        tearDown();
        return;
    }
    // fsname and subtype name the mount "partwise" in /proc/self/mountinfo (fuse.partwise).
    m_mount = std::make_unique<FuseMount>(
        QStringList{QStringLiteral("nosuid"), QStringLiteral("nodev"), QStringLiteral("noexec"),
                    QStringLiteral("noatime"), QStringLiteral("default_permissions"),
                    QStringLiteral("fsname=partwise"), QStringLiteral("subtype=partwise")});
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
    m_mount->takeDevice(); // the session closes it now
    s.thread = std::thread(serve, s.session, s.stop);
    m_path = m_mount->mountPoint() + QLatin1Char('/') + QLatin1String(kFileName);
}

PartitionFile::~PartitionFile()
{
    tearDown();
}

void PartitionFile::tearDown()
{
    if (m_server) {
        PartitionFileServer &s = *m_server;
        if (s.thread.joinable()) {
            const quint64 one = 1;
            while (::write(s.stop, &one, sizeof one) < 0 && errno == EINTR) {
            }
            s.thread.join();
        }
        // Closes the device: whatever still has the file open gets errors, never a wait.
        if (s.session)
            fuse_session_destroy(s.session);
        if (s.image >= 0)
            ::close(s.image);
        if (s.stop >= 0)
            ::close(s.stop);
        m_server.reset();
    }
    m_mount.reset(); // unmounts, removes its folders
    m_path.clear();
}

} // namespace partwise
