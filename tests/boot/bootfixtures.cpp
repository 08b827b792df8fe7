#include "bootfixtures.h"

#include "loopdevice.h"
#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QtEndian>

namespace boottest {

namespace {

constexpr qint64 kImageBytes = 64LL * 1024 * 1024;

// One entry of a "newc" cpio archive (the kernel's initramfs format): a 110-byte ASCII header,
// the name, the data, each padded to 4 bytes.
void cpioEntry(QByteArray *out, int ino, const QByteArray &name, quint32 mode,
               const QByteArray &data = {}, quint32 rdevMajor = 0, quint32 rdevMinor = 0)
{
    const QList<quint32> fields{quint32(ino),
                                mode,
                                0,
                                0,
                                1,
                                0,
                                quint32(data.size()),
                                0,
                                0,
                                rdevMajor,
                                rdevMinor,
                                quint32(name.size() + 1),
                                0};
    QByteArray h("070701");
    for (quint32 f : fields)
        h += QByteArray::number(f, 16).rightJustified(8, '0').toUpper();
    h += name + '\0';
    while (h.size() % 4)
        h += '\0';
    h += data;
    while (h.size() % 4)
        h += '\0';
    *out += h;
}

QString tool(const QString &name)
{
    return QStandardPaths::findExecutable(name,
                                          {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin"),
                                           QStringLiteral("/sbin"), QStringLiteral("/bin")});
}

bool run(const QString &program, const QStringList &args, QString *error,
         const QByteArray &input = {})
{
    const pwtest::ToolResult r = pwtest::runTool(program, args, input);
    if (!r.ok())
        *error = r.describe();
    return r.ok();
}

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size()) {
        *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

bool newImage(const QString &path, const QByteArray &sfdiskScript, QString *error,
              qint64 bytes = kImageBytes)
{
    QFile::remove(path);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !f.resize(bytes)) {
        *error = QStringLiteral("cannot create %1").arg(path);
        return false;
    }
    f.close();
    return run(QStringLiteral("sfdisk"), {QStringLiteral("-q"), path}, error, sfdiskScript);
}

bool syslinuxMbrCode(const QString &image, QString *error)
{
    return run(QStringLiteral("dd"),
               {QStringLiteral("if=/usr/lib/syslinux/mbr/mbr.bin"), QStringLiteral("of=") + image,
                QStringLiteral("bs=440"), QStringLiteral("count=1"),
                QStringLiteral("conv=notrunc")},
               error);
}

const QByteArray kGrubCfg = "set timeout=0\n"
                            "serial --unit=0 --speed=115200\n"
                            "terminal_output serial\n"
                            "linux %1vmlinuz console=ttyS0 quiet panic=-1\n"
                            "initrd %1initrd\n"
                            "boot\n";

QByteArray grubCfg(const QByteArray &folder)
{
    QByteArray cfg = kGrubCfg;
    return cfg.replace("%1", folder);
}

const QByteArray kSyslinuxCfg = "SERIAL 0 115200\n"
                                "DEFAULT linux\n"
                                "PROMPT 0\n"
                                "TIMEOUT 0\n"
                                "LABEL linux\n"
                                "  KERNEL /boot/vmlinuz\n"
                                "  INITRD /boot/initrd\n"
                                "  APPEND console=ttyS0 quiet panic=-1\n";

// A loop device with its partitions, the partition `number` formatted as ext4 and mounted.
class MountedExt4
{
public:
    MountedExt4(const QString &image, int number, const QString &mountPoint)
        : m_loop(image), m_mount(mountPoint)
    {
        if (!m_loop.ok() || !m_loop.addPartitions()) {
            m_error = QStringLiteral("loop device: ") + m_loop.error();
            return;
        }
        QDir().mkpath(mountPoint);
        const QString node = m_loop.partitionNode(number);
        if (!run(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), node}, &m_error) ||
            !run(QStringLiteral("mount"), {node, mountPoint}, &m_error))
            return;
        m_mounted = true;
    }
    ~MountedExt4()
    {
        if (m_mounted)
            pwtest::runTool(QStringLiteral("umount"), {m_mount});
    }
    bool ok() const { return m_mounted; }
    QString error() const { return m_error; }
    QString disk() const { return m_loop.path(); }
    QString partition(int number) const { return m_loop.partitionNode(number); }

private:
    pwtest::LoopDevice m_loop;
    QString m_mount;
    QString m_error;
    bool m_mounted = false;
};

bool copyBootFiles(const BootFixtures &f, const QString &folder, QString *error)
{
    QDir().mkpath(folder);
    QFile::remove(folder + QStringLiteral("/vmlinuz"));
    QFile::remove(folder + QStringLiteral("/initrd"));
    if (!QFile::copy(f.kernel, folder + QStringLiteral("/vmlinuz")) ||
        !QFile::copy(f.initrd, folder + QStringLiteral("/initrd"))) {
        *error = QStringLiteral("cannot copy the kernel into %1").arg(folder);
        return false;
    }
    return true;
}

bool grubInstallBios(const BootFixtures &f, const QString &disk, const QString &bootDir,
                     QString *error, bool force = false)
{
    // grub-install finds a loop partition's start through `udevadm info --query path`; the
    // stand-in in binDir answers from sysfs. Only the modules the config uses are installed.
    QStringList args{
        QStringLiteral("PATH=") + f.binDir + QLatin1Char(':') + qEnvironmentVariable("PATH"),
        tool(QStringLiteral("grub-install")), QStringLiteral("--target=i386-pc"),
        QStringLiteral("--boot-directory=") + bootDir,
        QStringLiteral("--install-modules=biosdisk part_gpt part_msdos ext2 linux normal "
                       "serial terminal echo")};
    if (force) // no place to embed core.img: it stays a file found by block lists
        args << QStringLiteral("--force");
    return run(QStringLiteral("env"), args << disk, error);
}

QString mtoolsImage(const QString &image, qint64 startSector)
{
    return QStringLiteral("%1@@%2").arg(image).arg(startSector * 512);
}

} // namespace

bool writeGrubBiosBootCode(const QString &image, qint64 coreSector, int coreSectors, QString *error)
{
    const QString grub = QStringLiteral("/usr/lib/grub/i386-pc/");
    QFile bootImg(grub + QStringLiteral("boot.img"));
    QFile diskbootImg(grub + QStringLiteral("diskboot.img"));
    QFile disk(image);
    if (!bootImg.open(QIODevice::ReadOnly) || !diskbootImg.open(QIODevice::ReadOnly) ||
        !disk.open(QIODevice::ReadWrite)) {
        *error = QStringLiteral("cannot read GRUB's boot.img and diskboot.img (grub-pc-bin) or "
                                "open %1")
                     .arg(image);
        return false;
    }
    QByteArray code = bootImg.read(440); // up to the disk signature and the table
    QByteArray diskboot = diskbootImg.readAll();
    if (code.size() != 440 || diskboot.size() != 512) {
        *error = QStringLiteral("GRUB's boot.img or diskboot.img is not what grub-install uses");
        return false;
    }
    qToLittleEndian<quint64>(quint64(coreSector), code.data() + 0x5C);
    // diskboot.img's first block-list entry (at 0x1F4): start sector (64 bits), sector count.
    qToLittleEndian<quint64>(quint64(coreSector + 1), diskboot.data() + 0x1F4);
    qToLittleEndian<quint16>(quint16(coreSectors), diskboot.data() + 0x1F4 + 8);
    if (!disk.seek(0) || disk.write(code) != code.size() || !disk.seek(coreSector * 512) ||
        disk.write(diskboot) != diskboot.size()) {
        *error = QStringLiteral("cannot write GRUB's code into %1").arg(image);
        return false;
    }
    return true;
}

QString testKernelPath()
{
    const QString fromEnv = qEnvironmentVariable("PARTWISE_TEST_KERNEL");
    return fromEnv.isEmpty() ? QStringLiteral("/var/cache/partwise/test-kernel/vmlinuz") : fromEnv;
}

bool BootFixtures::prepare(const QString &directory)
{
    dir = directory;
    kernel = testKernelPath();
    if (!QFile::exists(kernel)) {
        error = QStringLiteral("no kernel at %1 (.ci/install-deps unpacks one)").arg(kernel);
        return false;
    }
    for (const char *t : {"qemu-system-x86_64", "grub-install", "grub-mkimage", "syslinux",
                          "extlinux", "busybox", "mcopy", "mkfs.fat", "mkfs.ext4"})
        if (tool(QString::fromLatin1(t)).isEmpty()) {
            error = QStringLiteral("%1 is not installed (.ci/install-deps)").arg(QLatin1String(t));
            return false;
        }
    // A static busybox: the initramfs needs no libraries.
    QFile busybox(tool(QStringLiteral("busybox")));
    if (!busybox.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("cannot read busybox");
        return false;
    }
    QByteArray cpio;
    int ino = 1;
    cpioEntry(&cpio, ino++, "dev", 040755);
    cpioEntry(&cpio, ino++, "dev/console", 020600, {}, 5, 1);
    cpioEntry(&cpio, ino++, "bin", 040755);
    cpioEntry(&cpio, ino++, "bin/busybox", 0100755, busybox.readAll());
    cpioEntry(&cpio, ino++, "init", 0100755,
              QByteArray("#!/bin/busybox sh\n/bin/busybox echo ") + kBootMarker +
                  "\n/bin/busybox poweroff -f\n");
    cpioEntry(&cpio, ino++, "TRAILER!!!", 0);
    initrd = dir + QStringLiteral("/initrd");
    binDir = dir + QStringLiteral("/bin");
    QDir().mkpath(binDir);
    const QByteArray udevadm =
        "#!/bin/sh\n"
        "# Stand-in for udevadm (no udev here): answers `info --query path --name NODE` from\n"
        "# sysfs, which is all grub-install asks.\n"
        "dev=; q=\n"
        "while [ $# -gt 0 ]; do case \"$1\" in\n"
        "  --name) dev=$2; shift;; --name=*) dev=${1#--name=};;\n"
        "  --query) q=$2; shift;; --query=*) q=${1#--query=};; esac; shift; done\n"
        "[ \"$q\" = path ] || exit 1\n"
        "mm=$(stat -L -c '%t:%T' \"$dev\") || exit 1\n"
        "p=$(readlink -f /sys/dev/block/$((0x${mm%:*})):$((0x${mm#*:}))) || exit 1\n"
        "echo \"${p#/sys}\"\n";
    const QString standIn = binDir + QStringLiteral("/udevadm");
    if (!writeFile(initrd, cpio, &error) || !writeFile(standIn, udevadm, &error))
        return false;
    QFile::setPermissions(standIn, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return true;
}

QString BootFixtures::grubMbrGap()
{
    const QString img = dir + QStringLiteral("/grub-mbr-gap.img");
    if (!newImage(img, "start=63, size=100000, type=83, bootable\n", &error))
        return {};
    const QString mnt = dir + QStringLiteral("/mnt");
    {
        MountedExt4 m(img, 1, mnt);
        if (!m.ok()) {
            error = m.error();
            return {};
        }
        if (!copyBootFiles(*this, mnt + QStringLiteral("/boot"), &error) ||
            !QDir().mkpath(mnt + QStringLiteral("/boot/grub")) ||
            !writeFile(mnt + QStringLiteral("/boot/grub/grub.cfg"), grubCfg("/boot/"), &error) ||
            !grubInstallBios(*this, m.disk(), mnt + QStringLiteral("/boot"), &error))
            return {};
    }
    return img;
}

QString BootFixtures::grubBiosBoot()
{
    const QString img = dir + QStringLiteral("/grub-bios-boot.img");
    // The old way: first-lba 34 and a BIOS boot partition filling 34–2047; free space after
    // the ext4 so that a 1 MiB realignment can make room.
    if (!newImage(img,
                  "label: gpt\nfirst-lba: 34\n"
                  "start=34, size=2014, type=21686148-6449-6E6F-744E-656564454649\n"
                  "start=2048, size=40MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4\n",
                  &error))
        return {};
    const QString mnt = dir + QStringLiteral("/mnt");
    {
        MountedExt4 m(img, 2, mnt);
        if (!m.ok()) {
            error = m.error();
            return {};
        }
        if (!copyBootFiles(*this, mnt + QStringLiteral("/boot"), &error) ||
            !QDir().mkpath(mnt + QStringLiteral("/boot/grub")) ||
            !writeFile(mnt + QStringLiteral("/boot/grub/grub.cfg"), grubCfg("/boot/"), &error) ||
            !grubInstallBios(*this, m.disk(), mnt + QStringLiteral("/boot"), &error))
            return {};
    }
    return img;
}

QString BootFixtures::grubBlocklists()
{
    const QString img = dir + QStringLiteral("/grub-blocklists.img");
    // No BIOS boot partition on GPT: grub-install embeds nothing and, forced, leaves core.img
    // a file in the ext4 that boot.img finds by absolute sectors.
    if (!newImage(img,
                  "label: gpt\nfirst-lba: 34\n"
                  "start=34, size=40MiB, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4\n",
                  &error))
        return {};
    return grubInstalledOn(img, false) ? img : QString();
}

QString BootFixtures::grubPartitionBootSector()
{
    const QString img = dir + QStringLiteral("/grub-pbr.img");
    if (!newImage(img, "start=63, size=60000, type=83, bootable\n", &error) ||
        !syslinuxMbrCode(img, &error))
        return {};
    return grubInstalledOn(img, true) ? img : QString();
}

bool BootFixtures::grubInstalledOn(const QString &img, bool partitionBootSector)
{
    const QString mnt = dir + QStringLiteral("/mnt");
    MountedExt4 m(img, 1, mnt);
    if (!m.ok()) {
        error = m.error();
        return false;
    }
    return copyBootFiles(*this, mnt + QStringLiteral("/boot"), &error) &&
           QDir().mkpath(mnt + QStringLiteral("/boot/grub")) &&
           writeFile(mnt + QStringLiteral("/boot/grub/grub.cfg"), grubCfg("/boot/"), &error) &&
           grubInstallBios(*this, partitionBootSector ? m.partition(1) : m.disk(),
                           mnt + QStringLiteral("/boot"), &error, true);
}

QString BootFixtures::syslinuxFat()
{
    const QString img = dir + QStringLiteral("/syslinux-fat.img");
    const QString at = mtoolsImage(img, 63);
    const QString cfg = dir + QStringLiteral("/syslinux.cfg");
    if (!newImage(img, "start=63, size=100000, type=c, bootable\n", &error) ||
        !syslinuxMbrCode(img, &error) || !writeFile(cfg, kSyslinuxCfg, &error) ||
        !run(QStringLiteral("mkfs.fat"),
             {QStringLiteral("-F"), QStringLiteral("32"), QStringLiteral("-s"), QStringLiteral("1"),
              QStringLiteral("--offset"), QStringLiteral("63"), QStringLiteral("-h"),
              QStringLiteral("63"), img, QStringLiteral("50000")},
             &error) ||
        !run(QStringLiteral("mmd"),
             {QStringLiteral("-i"), at, QStringLiteral("::/boot"),
              QStringLiteral("::/boot/syslinux")},
             &error) ||
        !run(QStringLiteral("mcopy"),
             {QStringLiteral("-i"), at, kernel, QStringLiteral("::/boot/vmlinuz")}, &error) ||
        !run(QStringLiteral("mcopy"),
             {QStringLiteral("-i"), at, initrd, QStringLiteral("::/boot/initrd")}, &error) ||
        !run(QStringLiteral("mcopy"),
             {QStringLiteral("-i"), at, cfg, QStringLiteral("::/boot/syslinux/syslinux.cfg")},
             &error) ||
        !run(QStringLiteral("syslinux"),
             {QStringLiteral("--install"), QStringLiteral("--offset"), QString::number(63 * 512),
              QStringLiteral("--directory"), QStringLiteral("/boot/syslinux"), img},
             &error))
        return {};
    return img;
}

QString BootFixtures::extlinuxExt()
{
    const QString img = dir + QStringLiteral("/extlinux-ext.img");
    if (!newImage(img, "start=63, size=100000, type=83, bootable\n", &error) ||
        !syslinuxMbrCode(img, &error))
        return {};
    const QString mnt = dir + QStringLiteral("/mnt");
    {
        MountedExt4 m(img, 1, mnt);
        if (!m.ok()) {
            error = m.error();
            return {};
        }
        if (!copyBootFiles(*this, mnt + QStringLiteral("/boot"), &error) ||
            !QDir().mkpath(mnt + QStringLiteral("/boot/syslinux")) ||
            !writeFile(mnt + QStringLiteral("/boot/syslinux/syslinux.cfg"), kSyslinuxCfg, &error) ||
            !run(QStringLiteral("extlinux"),
                 {QStringLiteral("--install"), mnt + QStringLiteral("/boot/syslinux")}, &error))
            return {};
    }
    // extlinux records the start HDIO_GETGEO gives, which a loop partition does not answer
    // (it writes 0); on a real disk's /dev/sda1 that is 63. Write what such an install records.
    if (!run(QStringLiteral("dd"),
             {QStringLiteral("of=") + img, QStringLiteral("bs=1"),
              QStringLiteral("seek=%1").arg(63 * 512 + 0x1C), QStringLiteral("conv=notrunc")},
             &error, QByteArray("\x3f\x00\x00\x00", 4)))
        return {};
    return img;
}

QString BootFixtures::grubEfi()
{
    const QString img = dir + QStringLiteral("/grub-efi.img");
    if (!newImage(img,
                  "label: gpt\nfirst-lba: 34\n"
                  "start=34, size=100000, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n",
                  &error) ||
        !grubEfiOnEsp(img, 34,
                      {QStringLiteral("-s"), QStringLiteral("1"), img, QStringLiteral("50000")}))
        return {};
    return img;
}

QString BootFixtures::grubEfiFourKnReady()
{
    const QString img = dir + QStringLiteral("/grub-efi-4k.img");
    // FAT32 needs 65525 clusters; of 4 KiB, that is 260 MiB (sparse; GRUB, kernel and initrd
    // are what it holds).
    if (!newImage(img,
                  "label: gpt\n"
                  "start=2048, size=532480, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n",
                  &error, 264LL * 1024 * 1024) ||
        !grubEfiOnEsp(img, 2048,
                      {QStringLiteral("-s"), QStringLiteral("8"), QStringLiteral("-S"),
                       QStringLiteral("512"), QStringLiteral("-R"), QStringLiteral("32"), img,
                       QStringLiteral("266240")}))
        return {};
    return img;
}

bool BootFixtures::grubEfiOnEsp(const QString &img, qint64 start, const QStringList &mkfsTail)
{
    const QString at = mtoolsImage(img, start);
    const QString efi = dir + QStringLiteral("/BOOTX64.EFI");
    const QString cfg = dir + QStringLiteral("/grub-efi.cfg");
    // GRUB for EFI with its modules inside, on the removable path, as grub-install --removable
    // leaves it; built with grub-mkimage because grub-install needs the ESP mounted, and this
    // kernel has no FAT driver (mtools writes it).
    return run(QStringLiteral("mkfs.fat"),
               QStringList{QStringLiteral("-F"), QStringLiteral("32"), QStringLiteral("--offset"),
                           QString::number(start), QStringLiteral("-h"), QString::number(start)} +
                   mkfsTail,
               &error) &&
           writeFile(cfg, grubCfg("/"), &error) &&
           run(tool(QStringLiteral("grub-mkimage")),
               {QStringLiteral("-O"), QStringLiteral("x86_64-efi"), QStringLiteral("-p"),
                QStringLiteral("/EFI/BOOT"), QStringLiteral("-o"), efi, QStringLiteral("part_gpt"),
                QStringLiteral("fat"), QStringLiteral("normal"), QStringLiteral("linux"),
                QStringLiteral("serial"), QStringLiteral("terminal"), QStringLiteral("echo")},
               &error) &&
           run(QStringLiteral("mmd"),
               {QStringLiteral("-i"), at, QStringLiteral("::/EFI"), QStringLiteral("::/EFI/BOOT")},
               &error) &&
           run(QStringLiteral("mcopy"),
               {QStringLiteral("-i"), at, efi, QStringLiteral("::/EFI/BOOT/BOOTX64.EFI")},
               &error) &&
           run(QStringLiteral("mcopy"),
               {QStringLiteral("-i"), at, cfg, QStringLiteral("::/EFI/BOOT/grub.cfg")}, &error) &&
           run(QStringLiteral("mcopy"),
               {QStringLiteral("-i"), at, kernel, QStringLiteral("::/vmlinuz")}, &error) &&
           run(QStringLiteral("mcopy"),
               {QStringLiteral("-i"), at, initrd, QStringLiteral("::/initrd")}, &error);
}

BootRun bootImage(const QString &image, bool uefi, int timeoutMs, int nvmeSectorSize)
{
    BootRun r;
    QStringList args{QStringLiteral("-nographic"), QStringLiteral("-no-reboot"),
                     QStringLiteral("-m"),         QStringLiteral("256"),
                     QStringLiteral("-nic"),       QStringLiteral("none"),
                     QStringLiteral("-monitor"),   QStringLiteral("none")};
    if (nvmeSectorSize > 0)
        args << QStringLiteral("-drive")
             << QStringLiteral("file=%1,format=raw,if=none,id=disk").arg(image)
             << QStringLiteral("-device")
             << QStringLiteral("nvme,drive=disk,serial=partwise,logical_block_size=%1,"
                               "physical_block_size=%1")
                    .arg(nvmeSectorSize);
    else
        args << QStringLiteral("-drive")
             << QStringLiteral("file=%1,format=raw,if=virtio").arg(image);
    QString vars;
    if (uefi) {
        // OVMF's variable store is written at boot: each boot gets a fresh copy.
        vars = image + QStringLiteral(".vars");
        QFile::remove(vars);
        QFile::copy(QStringLiteral("/usr/share/OVMF/OVMF_VARS.fd"), vars);
        QFile::setPermissions(vars, QFile::ReadOwner | QFile::WriteOwner);
        args << QStringLiteral("-drive")
             << QStringLiteral("if=pflash,format=raw,readonly=on,file=/usr/share/OVMF/OVMF_CODE.fd")
             << QStringLiteral("-drive") << QStringLiteral("if=pflash,format=raw,file=") + vars;
    }
    QProcess qemu;
    qemu.setProcessChannelMode(QProcess::MergedChannels);
    QElapsedTimer t;
    t.start();
    qemu.start(tool(QStringLiteral("qemu-system-x86_64")), args);
    qemu.closeWriteChannel();
    if (!qemu.waitForFinished(timeoutMs)) {
        qemu.kill();
        qemu.waitForFinished(5000);
    }
    r.seconds = t.elapsed() / 1000.0;
    const QByteArray out = qemu.readAll();
    r.booted = out.contains(kBootMarker);
    r.tail = QString::fromLatin1(out.right(400)).remove(QLatin1Char('\x1b'));
    if (!vars.isEmpty())
        QFile::remove(vars);
    return r;
}

} // namespace boottest
