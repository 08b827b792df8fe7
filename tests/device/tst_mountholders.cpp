// The busy scan against what a hostile user can put in its way (root, /dev/fuse). A FUSE
// filesystem served by this test whose getattr stalls on demand, as a user's daemon may: a
// process holding one of its files open must still be found, within seconds, because the scan
// never stat()s what /proc/PID/fd points at (it reads mnt_id from fdinfo). The mount IDs it
// compares are checked against findmnt's. And a FUSE mount whose source text names a real block
// device is not taken for a mount of that device. A loop device over a file of that filesystem
// (udisks sets one up for a desktop user) does not hang the busy check either, and is still
// found over its file.
#define FUSE_USE_VERSION 35
#include "device/busycheck.h"
#include "device/mountcontrol.h"
#include "device/mountholders.h"
#include "filebytes.h"
#include "loopdevice.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <fuse.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace pwtest;

namespace {

// One file, "held", whose getattr waits while `stalled` is set.
struct Stall
{
    std::mutex mutex;
    std::condition_variable wake;
    bool stalled = false;

    void set(bool on)
    {
        {
            const std::lock_guard lock(mutex);
            stalled = on;
        }
        wake.notify_all();
    }
    void waitWhileStalled()
    {
        std::unique_lock lock(mutex);
        wake.wait(lock, [this] { return !stalled; });
    }
};
Stall g_stall;
constexpr off_t kDiskBytes = 1 << 20;

void *stallInit(fuse_conn_info *, fuse_config *config)
{
    // No cached attributes: every stat() asks the daemon.
    config->attr_timeout = 0;
    config->entry_timeout = 0;
    config->negative_timeout = 0;
    return nullptr;
}

int stallGetattr(const char *path, struct stat *st, fuse_file_info *)
{
    if (std::strcmp(path, "/") != 0)
        g_stall.waitWhileStalled();
    *st = {};
    if (std::strcmp(path, "/") == 0) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
        return 0;
    }
    if (std::strcmp(path, "/held") != 0 && std::strcmp(path, "/disk") != 0)
        return -ENOENT;
    st->st_mode = S_IFREG | 0644;
    st->st_nlink = 1;
    st->st_size = std::strcmp(path, "/disk") == 0 ? kDiskBytes : 5;
    return 0;
}

int stallOpen(const char *path, fuse_file_info *)
{
    return std::strcmp(path, "/held") == 0 || std::strcmp(path, "/disk") == 0 ? 0 : -ENOENT;
}

int stallRead(const char *path, char *buffer, size_t size, off_t offset, fuse_file_info *)
{
    static const char text[] = "held\n";
    if (std::strcmp(path, "/disk") == 0) {
        const size_t n = offset >= kDiskBytes ? 0 : std::min(size, size_t(kDiskBytes - offset));
        std::memset(buffer, 0, n);
        return int(n);
    }
    if (offset >= 5)
        return 0;
    const size_t n = std::min(size, size_t(5 - offset));
    std::memcpy(buffer, text + offset, n);
    return int(n);
}

int stallReaddir(const char *, void *buffer, fuse_fill_dir_t fill, off_t, fuse_file_info *,
                 fuse_readdir_flags)
{
    fill(buffer, ".", nullptr, 0, fuse_fill_dir_flags(0));
    fill(buffer, "..", nullptr, 0, fuse_fill_dir_flags(0));
    fill(buffer, "held", nullptr, 0, fuse_fill_dir_flags(0));
    fill(buffer, "disk", nullptr, 0, fuse_fill_dir_flags(0));
    return 0;
}

// The filesystem above, served on a thread of the test while the object lives.
class StallingMount
{
public:
    explicit StallingMount(const QString &folder) : m_folder(folder)
    {
        fuse_operations ops{};
        ops.init = stallInit;
        ops.getattr = stallGetattr;
        ops.open = stallOpen;
        ops.read = stallRead;
        ops.readdir = stallReaddir;
        char program[] = "tst_mountholders";
        char *argv[] = {program, nullptr};
        fuse_args args = FUSE_ARGS_INIT(1, argv);
        if (!QDir().mkpath(folder) || !(m_fs = fuse_new(&args, &ops, sizeof ops, nullptr)))
            return;
        m_mounted = fuse_mount(m_fs, QFile::encodeName(folder).constData()) == 0;
        if (m_mounted)
            m_loop = std::thread([fs = m_fs] { fuse_loop(fs); });
    }
    ~StallingMount()
    {
        g_stall.set(false);
        if (m_mounted) {
            fuse_exit(m_fs);
            ::umount2(QFile::encodeName(m_folder).constData(), MNT_DETACH);
            m_loop.join();
            fuse_unmount(m_fs);
        }
        if (m_fs)
            fuse_destroy(m_fs);
    }
    StallingMount(const StallingMount &) = delete;
    StallingMount &operator=(const StallingMount &) = delete;
    bool ok() const { return m_mounted; }
    QString folder() const { return m_folder; }

private:
    QString m_folder;
    fuse *m_fs = nullptr;
    bool m_mounted = false;
    std::thread m_loop;
};

dev_t deviceOfMount(const QString &folder)
{
    const ToolResult r = runTool(QStringLiteral("findmnt"),
                                 {QStringLiteral("-n"), QStringLiteral("-o"),
                                  QStringLiteral("MAJ:MIN"), QStringLiteral("-M"), folder});
    const QStringList parts = QString::fromUtf8(r.out).trimmed().split(QLatin1Char(':'));
    return parts.size() == 2 ? makedev(parts[0].toUInt(), parts[1].toUInt()) : 0;
}

} // namespace

class MountHoldersTest : public QObject
{
    Q_OBJECT
private slots:
    void fdinfoMountIdIsTheKernels();
    void stalledFuseFileDoesNotHangTheScan();
    void stalledLoopBackingFileDoesNotHangTheBusyCheck();
    void stalledFileOfAHiddenMountDoesNotHangTheBusyCheck();
    void fuseSourceIsNotTakenForADevice();
};

// mountIdInFdinfo() reads fdinfo's mnt_id, and it is the ID findmnt gives the mount.
void MountHoldersTest::fdinfoMountIdIsTheKernels()
{
    QCOMPARE(partwise::mountIdInFdinfo("pos:\t0\nflags:\t02100000\nmnt_id:\t27\nino:\t12\n"), 27);
    QCOMPARE(partwise::mountIdInFdinfo("pos:\t0\nflags:\t02\n"), -1);
    QCOMPARE(partwise::mountIdInFdinfo("mnt_id:\tx\n"), -1);
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("f")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    QFile info(QStringLiteral("/proc/self/fdinfo/%1").arg(file.handle()));
    QVERIFY(info.open(QIODevice::ReadOnly));
    const ToolResult findmnt = runTool(
        QStringLiteral("findmnt"), {QStringLiteral("-n"), QStringLiteral("-o"),
                                    QStringLiteral("ID"), QStringLiteral("-T"), file.fileName()});
    QVERIFY2(findmnt.ok(), qPrintable(findmnt.describe()));
    QCOMPARE(partwise::mountIdInFdinfo(info.readAll()), QString::fromUtf8(findmnt.out).toInt());
}

void MountHoldersTest::stalledFuseFileDoesNotHangTheScan()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QTemporaryDir dir;
    const StallingMount fs(dir.filePath(QStringLiteral("fuse")));
    QVERIFY(fs.ok());
    QProcess holder;
    const auto cleanUp = qScopeGuard([&] {
        g_stall.set(false);
        holder.kill();
        holder.waitForFinished();
    });
    const dev_t device = deviceOfMount(fs.folder());
    QVERIFY(device != 0);
    holder.setStandardInputFile(fs.folder() + QStringLiteral("/held"));
    holder.start(QStringLiteral("sleep"), {QStringLiteral("60")});
    QVERIFY(holder.waitForStarted());
    QTest::qWait(200);

    g_stall.set(true);
    // A stat() of the held file now waits for the daemon; the scan must not.
    auto scan =
        std::async(std::launch::async, [device] { return partwise::processesHolding(device); });
    const bool done = scan.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
    g_stall.set(false);
    QVERIFY2(done, "the busy scan hung on a stalled FUSE file");
    const QList<partwise::HoldingProcess> holders = scan.get();
    QVERIFY2(std::any_of(holders.cbegin(), holders.cend(),
                         [&](const auto &h) { return h.pid == holder.processId(); }),
             qPrintable(partwise::describeHolders(holders)));
}

// A loop device over a file of the stalling filesystem: busy checks of another image and of the
// loop device itself end while the daemon stalls (the backing file is looked up in the mount
// table, not stat()ed), and the loop device is still found over its file by the path the kernel
// gives, here while something holds it exclusively.
void MountHoldersTest::stalledLoopBackingFileDoesNotHangTheBusyCheck()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QTemporaryDir dir;
    const QString image = dir.filePath(QStringLiteral("other.img"));
    QVERIFY(makeSparseFile(image, 1 << 20));
    const StallingMount fs(dir.filePath(QStringLiteral("fuse")));
    QVERIFY(fs.ok());
    const QString backing = fs.folder() + QStringLiteral("/disk");
    LoopDevice loop(backing, 0, true);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const int exclusive = ::open(QFile::encodeName(loop.path()).constData(), O_RDONLY | O_EXCL);
    QVERIFY(exclusive >= 0);
    const auto closeIt = qScopeGuard([exclusive] { ::close(exclusive); });
    const QStringList overBacking = partwise::busyReasons(backing, 0);
    QVERIFY2(overBacking.size() == 1 && overBacking[0].contains(loop.path()),
             qPrintable(overBacking.join(QLatin1Char('\n'))));

    g_stall.set(true);
    const auto cleanUp = qScopeGuard([] { g_stall.set(false); });
    auto ofImage =
        std::async(std::launch::async, [&image] { return partwise::busyReasons(image, 0); });
    auto ofLoop =
        std::async(std::launch::async, [&loop] { return partwise::busyReasons(loop.path(), 0); });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    const bool done = ofImage.wait_until(deadline) == std::future_status::ready &&
                      ofLoop.wait_until(deadline) == std::future_status::ready;
    g_stall.set(false);
    QVERIFY2(done, "the busy check hung on a loop device's stalled backing file");
    QVERIFY(ofImage.get().isEmpty());
    QVERIFY(!ofLoop.get().isEmpty());
}

// The same file once its FUSE mount is lazily detached: the loop device still holds it, but no
// mount table shows it (sysfs names it "/disk", which looks like the root filesystem's). The
// kernel's own answer for that loop device (LOOP_GET_STATUS64) asks the stalled daemon, so it is
// asked out of process with a time limit (device/loopbacking): the busy check ends regardless.
void MountHoldersTest::stalledFileOfAHiddenMountDoesNotHangTheBusyCheck()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QTemporaryDir dir;
    const QString image = dir.filePath(QStringLiteral("other.img"));
    QVERIFY(makeSparseFile(image, 1 << 20));
    const StallingMount fs(dir.filePath(QStringLiteral("fuse")));
    QVERIFY(fs.ok());
    LoopDevice loop(fs.folder() + QStringLiteral("/disk"), 0, true);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(::umount2(QFile::encodeName(fs.folder()).constData(), MNT_DETACH) == 0);

    g_stall.set(true);
    const auto cleanUp = qScopeGuard([] { g_stall.set(false); });
    auto ofImage =
        std::async(std::launch::async, [&image] { return partwise::busyReasons(image, 0); });
    const bool done = ofImage.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
    g_stall.set(false);
    QVERIFY2(done, "the busy check hung on a hidden mount's stalled file");
    QVERIFY2(ofImage.get().isEmpty(), "another image was found in use");
}

// "-o fsname=/dev/loopN" is any user's to write: a FUSE mount's source never names a device.
void MountHoldersTest::fuseSourceIsNotTakenForADevice()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QTemporaryDir dir;
    QFile image(dir.filePath(QStringLiteral("disk.img")));
    QVERIFY(image.open(QIODevice::WriteOnly) && image.resize(1 << 20));
    image.close();
    LoopDevice loop(image.fileName());
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    struct stat st;
    QVERIFY(::stat(QFile::encodeName(loop.path()).constData(), &st) == 0);
    QVERIFY(partwise::mountSourceIsDevice(loop.path(), st.st_rdev, QStringLiteral("ext4")));
    QVERIFY(partwise::mountSourceIsDevice(loop.path(), st.st_rdev, QStringLiteral("fuseblk")));
    QVERIFY(!partwise::mountSourceIsDevice(loop.path(), st.st_rdev, QStringLiteral("fuse.sshfs")));
    QVERIFY(!partwise::mountSourceIsDevice(loop.path(), st.st_rdev, QStringLiteral("fuse")));
    // Only root's /dev is looked at, and never through "..".
    QVERIFY(!partwise::mountSourceIsDevice(QStringLiteral("/dev/../") + loop.path().mid(1),
                                           st.st_rdev, QStringLiteral("ext4")));
    const QString link = dir.filePath(QStringLiteral("link"));
    QVERIFY(QFile::link(loop.path(), link));
    QVERIFY(!partwise::mountSourceIsDevice(link, st.st_rdev, QStringLiteral("ext4")));
}

QTEST_GUILESS_MAIN(MountHoldersTest)
#include "tst_mountholders.moc"
