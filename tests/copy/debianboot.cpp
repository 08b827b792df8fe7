#include "debianboot.h"

#include "bootfixtures.h"
#include "loopdevice.h"
#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QUuid>

namespace boottest {

namespace {

constexpr qint64 kImageBytes = 64LL << 20;
const char kSwapPartUuid[] = "5d0c3a7e-1f2b-4c6d-8e9f-a0b1c2d3e4f5";
const char kMarker[] = "PW-DEBIAN-INIT-DONE";

QString toolPath(const QString &name)
{
    return QStandardPaths::findExecutable(
        name, {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin"), QStringLiteral("/sbin")});
}

bool run(const QString &program, const QStringList &args, QString *error,
         const QByteArray &input = {})
{
    const pwtest::ToolResult r = pwtest::runTool(program, args, input);
    if (!r.ok())
        *error = r.describe();
    return r.ok();
}

bool writeFile(const QString &path, const QByteArray &data, bool executable = false)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size())
        return false;
    f.close();
    return !executable || f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                           QFile::ReadOther | QFile::ExeOther);
}

// The initramfs's /init: mounts what root= names (findfs reads the UUIDs of every partition the
// kernel knows, on both disks) and hands over to that root's /sbin/init.
const QByteArray kInitramfsInit =
    "#!/bin/busybox sh\n"
    "/bin/busybox --install -s /bin\n"
    "mkdir -p /proc /sys /dev /newroot\n"
    "mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs dev /dev\n"
    "for m in $(cat /modules.order); do insmod /modules/$m; done\n"
    "root=$(sed -n 's/.* root=\\([^ ]*\\).*/\\1/p' /proc/cmdline)\n"
    "i=0; until dev=$(findfs \"$root\") || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done\n"
    "mount -t ext4 -o ro \"$dev\" /newroot || { echo PW-NO-ROOT \"$root\"; poweroff -f; }\n"
    "for d in dev proc sys; do mount --move /$d /newroot/$d; done\n"
    "exec switch_root /newroot /sbin/init\n";

// The root's /sbin/init: what a booted system reads about itself.
QByteArray rootInit()
{
    return QByteArray("#!/bin/busybox sh\n"
                      "export PATH=/bin\n"
                      "busybox mount /srv || echo PW-SRV-NOT-MOUNTED\n"
                      // The disk (its serial) and the filesystem UUID (the ext4 superblock's
                      // s_uuid, bytes 1128-1143: busybox has no blkid) under a mount point.
                      "show() { d=$(busybox awk -v m=$2 '$2 == m { d = $1 } END { print d }' "
                      "/proc/mounts); n=${d#/dev/}; echo \"$1 $d "
                      "serial=$(busybox cat /sys/block/${n%%[0-9]*}/serial) "
                      "uuid=$(busybox dd if=$d bs=1 skip=1128 count=16 2>/dev/null | "
                      "busybox od -An -tx1 | busybox tr -d ' \\n')\"; }\n"
                      "show PW-ROOT /\nshow PW-SRV /srv\n"
                      "echo \"PW-CMDLINE $(busybox cat /proc/cmdline)\"\n"
                      "busybox sed 's/^/PW-CRYPTTAB /' /etc/crypttab\n"
                      "busybox sed -n 's/^options/PW-BLS/p' /boot/loader/entries/debian.conf\n"
                      "echo ") +
           kMarker + "\nbusybox poweroff -f\n";
}

QByteArray grubCfg(const QByteArray &root)
{
    return "set timeout=0\n"
           "serial --unit=0 --speed=115200\n"
           "terminal_output serial\n"
           "insmod part_gpt\ninsmod ext2\n"
           "search --no-floppy --fs-uuid --set=root " +
           root +
           "\n"
           "linux /boot/vmlinuz root=UUID=" +
           root +
           " ro console=ttyS0 quiet panic=-1\n"
           "initrd /boot/initrd\n"
           "boot\n";
}

// busybox, the modules virtio disks and ext4 need (modprobe's order), and /init, as a newc cpio.
bool makeInitramfs(const QString &dir, const QString &out, QString *error)
{
    const QString tree = dir + QStringLiteral("/initramfs");
    if (!writeFile(tree + QStringLiteral("/init"), kInitramfsInit, true))
        return false;
    const QByteArray script =
        "set -e; t=$1; k=$2; out=$3; v=$(ls \"$k/lib/modules\" | head -n 1)\n"
        "mkdir -p \"$t/bin\" \"$t/modules\"; cp \"$(command -v busybox)\" \"$t/bin/busybox\"\n"
        "for m in virtio_pci virtio_blk ext4; do\n"
        "  modprobe -d \"$k\" -S \"$v\" --show-depends $m | sed -n 's/^insmod \\([^ "
        "]*\\).*/\\1/p'\n"
        "done | awk '!seen[$0]++' | while read -r ko; do\n"
        "  cp \"$ko\" \"$t/modules/\"; basename \"$ko\" >> \"$t/modules.order\"; done\n"
        "cd \"$t\" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1 > \"$out\"\n";
    return run(QStringLiteral("sh"),
               {QStringLiteral("-c"), QString::fromUtf8(script), QStringLiteral("sh"), tree,
                debianKernelDir(), out},
               error);
}

// The root's files, naming the ids every way Debian's tools write them.
bool makeRootTree(const DebianBootDisk &d, const QString &tree, const QString &initrd)
{
    const QByteArray root = d.rootUuid.toUtf8();
    QDir().mkpath(tree + QStringLiteral("/srv"));
    for (const char *folder : {"/proc", "/sys", "/dev", "/bin", "/boot"})
        QDir().mkpath(tree + QLatin1String(folder));
    return QFile::copy(toolPath(QStringLiteral("busybox")),
                       tree + QStringLiteral("/bin/busybox")) &&
           QFile::copy(debianKernelDir() + QStringLiteral("/vmlinuz"),
                       tree + QStringLiteral("/boot/vmlinuz")) &&
           QFile::copy(initrd, tree + QStringLiteral("/boot/initrd")) &&
           writeFile(tree + QStringLiteral("/sbin/init"), rootInit(), true) &&
           writeFile(tree + QStringLiteral("/etc/fstab"),
                     "# /etc/fstab: static file system information.\n"
                     "UUID=" +
                         root +
                         " /    ext4 errors=remount-ro 0 1\n"
                         "UUID=" +
                         d.srvUuid.toUtf8() + " /srv ext4 defaults 0 2\n") &&
           writeFile(tree + QStringLiteral("/etc/crypttab"),
                     "cswap PARTUUID=" + d.swapPartUuid.toUtf8() +
                         " /dev/urandom swap,cipher=aes-xts-plain64,size=512\n") &&
           writeFile(tree + QStringLiteral("/boot/grub/grub.cfg"), grubCfg(root)) &&
           writeFile(tree + QStringLiteral("/boot/loader/entries/debian.conf"),
                     "title   Debian GNU/Linux\nlinux   /boot/vmlinuz\ninitrd  /boot/initrd\n"
                     "options root=UUID=" +
                         root + " ro quiet\n");
}

// A loop device with the disk's partitions, and partition 2 mounted while it lives.
class MountedRoot
{
public:
    MountedRoot(const QString &image, const QString &mountPoint) : m_loop(image), m_mnt(mountPoint)
    {
        if (!m_loop.ok() || !m_loop.addPartitions())
            m_error = QStringLiteral("loop device: ") + m_loop.error();
    }
    bool mount()
    {
        QDir().mkpath(m_mnt);
        m_mounted = run(QStringLiteral("mount"), {m_loop.partitionNode(2), m_mnt}, &m_error);
        return m_mounted;
    }
    ~MountedRoot()
    {
        if (m_mounted)
            pwtest::runTool(QStringLiteral("umount"), {m_mnt});
    }
    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    QString node(int number) const { return m_loop.partitionNode(number); }
    QString disk() const { return m_loop.path(); }

private:
    pwtest::LoopDevice m_loop;
    QString m_mnt;
    QString m_error;
    bool m_mounted = false;
};

} // namespace

QString debianKernelDir()
{
    const QString fromEnv = qEnvironmentVariable("PW_GUEST_KERNEL_DIR");
    return fromEnv.isEmpty() ? QStringLiteral("/var/cache/partwise/guest-kernel") : fromEnv;
}

bool DebianBootDisk::make(const BootFixtures &fixtures, const QString &dir)
{
    image = dir + QStringLiteral("/debian.img");
    rootUuid = QUuid::createUuid().toString(QUuid::WithoutBraces);
    srvUuid = QUuid::createUuid().toString(QUuid::WithoutBraces);
    swapPartUuid = QLatin1String(kSwapPartUuid);
    const QString initrd = dir + QStringLiteral("/debian-initrd");
    const QString tree = dir + QStringLiteral("/debian-root");
    QFile f(image);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || !f.resize(kImageBytes)) {
        error = QStringLiteral("cannot create ") + image;
        return false;
    }
    f.close();
    const QByteArray table = "label: gpt\n"
                             "start=2048, size=2048, type=21686148-6449-6E6F-744E-656564454649\n"
                             "start=4096, size=40MiB\n"
                             "start=86016, size=8MiB\n"
                             "start=102400, size=2MiB, type=0657FD6D-A4AB-43C4-84E5-0933C84B4F4F, "
                             "uuid=" +
                             QByteArray(kSwapPartUuid) + "\n";
    if (!run(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image}, &error, table) ||
        !makeInitramfs(dir, initrd, &error))
        return false;
    if (!makeRootTree(*this, tree, initrd)) {
        error = QStringLiteral("cannot write the root's files under ") + tree;
        return false;
    }
    MountedRoot m(image, dir + QStringLiteral("/debian-mnt"));
    if (!m.ok()) {
        error = m.error();
        return false;
    }
    // grub-install finds a loop partition's start through the udevadm stand-in.
    const QString grubModules = QStringLiteral("biosdisk part_gpt ext2 linux normal serial "
                                               "terminal echo search search_fs_uuid");
    if (!run(QStringLiteral("mkfs.ext4"),
             {QStringLiteral("-q"), QStringLiteral("-U"), rootUuid, QStringLiteral("-d"), tree,
              m.node(2)},
             &error) ||
        !run(QStringLiteral("mkfs.ext4"),
             {QStringLiteral("-q"), QStringLiteral("-U"), srvUuid, m.node(3)}, &error))
        return false;
    if (!m.mount()) {
        error = m.error();
        return false;
    }
    return run(QStringLiteral("env"),
               {QStringLiteral("PATH=") + fixtures.binDir + QLatin1Char(':') +
                    qEnvironmentVariable("PATH"),
                toolPath(QStringLiteral("grub-install")), QStringLiteral("--target=i386-pc"),
                QStringLiteral("--boot-directory=") + dir + QStringLiteral("/debian-mnt/boot"),
                QStringLiteral("--install-modules=") + grubModules, m.disk()},
               &error);
}

ConsoleRun bootFirstOf(const QStringList &disks, int timeoutMs)
{
    QStringList args{QStringLiteral("-nographic"), QStringLiteral("-no-reboot"),
                     QStringLiteral("-m"),         QStringLiteral("384"),
                     QStringLiteral("-nic"),       QStringLiteral("none"),
                     QStringLiteral("-monitor"),   QStringLiteral("none")};
    for (int i = 0; i < disks.size(); ++i) {
        args << QStringLiteral("-drive")
             << QStringLiteral("if=none,id=d%1,format=raw,file=%2%3")
                    .arg(i)
                    .arg(disks.at(i), i == 0 ? QString() : QStringLiteral(",readonly=on"))
             << QStringLiteral("-device")
             << QStringLiteral("virtio-blk-pci,drive=d%1,serial=pwdisk%1%2")
                    .arg(i)
                    .arg(i == 0 ? QStringLiteral(",bootindex=0") : QString());
    }
    ConsoleRun r;
    QProcess qemu;
    qemu.setProcessChannelMode(QProcess::MergedChannels);
    QElapsedTimer t;
    t.start();
    qemu.start(toolPath(QStringLiteral("qemu-system-x86_64")), args);
    qemu.closeWriteChannel();
    if (!qemu.waitForFinished(timeoutMs)) {
        qemu.kill();
        qemu.waitForFinished(5000);
    }
    r.seconds = t.elapsed() / 1000.0;
    r.console = qemu.readAll();
    r.finished = r.console.contains(kMarker);
    return r;
}

} // namespace boottest
