#include "device/loopattachment.h"

#include "device/backingfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/blkpg.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace partwise {

namespace {

// Another program may be handed the same free number and bind it first; a few tries more are
// enough unless something is attaching loop devices in a tight loop.
constexpr int kTries = 16;

QString systemError(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

QString sysfsBackingFile(const QString &device)
{
    QFile file(QStringLiteral("/sys/block/%1/loop/backing_file").arg(QFileInfo(device).fileName()));
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    return QString::fromLocal8Bit(file.readAll()).trimmed();
}

int openLoopControl(QString *error)
{
    const int fd = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (fd >= 0)
        return fd;
    if (errno == ENOENT)
        *error = QStringLiteral("No free loop device: /dev/loop-control is missing, so the "
                                "kernel's loop driver is not loaded (load the module \"loop\": "
                                "modprobe loop).");
    else
        *error = QStringLiteral("No free loop device: cannot open /dev/loop-control: %1.")
                     .arg(systemError(errno));
    return -1;
}

loop_config configFor(int imageFd, qint64 offset, qint64 size, bool readOnly)
{
    loop_config config{};
    config.fd = static_cast<__u32>(imageFd);
    config.block_size = 0; // 512-byte sectors, as losetup gave: no caller needs another size
    config.info.lo_offset = static_cast<__u64>(offset);
    config.info.lo_sizelimit = static_cast<__u64>(size); // 0: up to the end of the image
    // Autoclear is set in the same call that binds the device: there is no instant at which
    // the device exists without it, so a kill anywhere leaves nothing attached.
    config.info.lo_flags = LO_FLAGS_AUTOCLEAR | (readOnly ? LO_FLAGS_READ_ONLY : 0);
    return config;
}

// A loop device detached without its partitions removed keeps them (the kernel drops only those
// it scanned itself, and BLKPG-added ones stay): mkfs.fat then refuses the device ("Partitions or
// virtual mappings") and a tool could reach old bytes through them. The device was just bound to
// this attachment, so whatever partitions it shows are stale.
void dropStalePartitions(int fd, int number)
{
    const QString name = QStringLiteral("loop%1").arg(number);
    const QDir sys(QStringLiteral("/sys/block/") + name);
    for (const QString &entry :
         sys.entryList({name + QStringLiteral("p*")}, QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool ok = false;
        const int pno = entry.mid(name.size() + 1).toInt(&ok);
        if (!ok || pno <= 0)
            continue;
        blkpg_partition part{};
        part.pno = pno;
        blkpg_ioctl_arg arg{};
        arg.op = BLKPG_DEL_PARTITION;
        arg.datalen = sizeof(part);
        arg.data = &part;
        ::ioctl(fd, BLKPG, &arg); // best effort: a partition still in use stays, and says so later
    }
}

// One try at a free loop device: its number from loop-control, the node opened, bound by
// LOOP_CONFIGURE. `taken` says another program got there first and a new try may succeed.
struct Claim
{
    int fd = -1;
    QString device;
    QString error;
    bool taken = false;
};

Claim claimFreeDevice(int control, const loop_config &config, bool readOnly)
{
    Claim claim;
    const int number = ::ioctl(control, LOOP_CTL_GET_FREE);
    if (number < 0) {
        claim.error = QStringLiteral("No free loop device: %1.").arg(systemError(errno));
        return claim;
    }
    claim.device = QStringLiteral("/dev/loop%1").arg(number);
    // Open for writing unless read-only: the kernel makes the device read-only otherwise.
    const int fd = ::open(QFile::encodeName(claim.device).constData(),
                          (readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC);
    if (fd < 0 || ::ioctl(fd, LOOP_CONFIGURE, &config) != 0) {
        const int code = errno;
        if (fd >= 0)
            ::close(fd);
        // EBUSY: bound by someone else meanwhile; ENOENT/ENXIO: removed meanwhile.
        claim.taken = code == EBUSY || code == ENOENT || code == ENXIO;
        claim.error = QStringLiteral("Cannot set up the loop device %1: %2.")
                          .arg(claim.device, systemError(code));
        return claim;
    }
    dropStalePartitions(fd, number);
    claim.fd = fd;
    return claim;
}

} // namespace

LoopAttachment::LoopAttachment(const QString &image, qint64 offset, qint64 size, bool readOnly)
{
    if (!mayAttach(offset, size))
        return;
    const int fd = openBackingFile(image, readOnly, &m_error);
    if (fd < 0)
        return;
    attach(fd, offset, size, readOnly);
    ::close(fd); // the loop device keeps its own reference to the open file
}

LoopAttachment::LoopAttachment(int imageFd, qint64 offset, qint64 size, bool readOnly)
{
    if (!mayAttach(offset, size))
        return;
    m_error = unusableBacking(imageFd, readOnly, QStringLiteral("The image"));
    if (m_error.isEmpty())
        attach(imageFd, offset, size, readOnly);
}

bool loopDevicesAvailable()
{
    return ::geteuid() == 0;
}

bool LoopAttachment::mayAttach(qint64 offset, qint64 size)
{
    if (!loopDevicesAvailable())
        m_error = QStringLiteral("This needs a loop device over the image, and only root can "
                                 "create one: run Partwise as root for this operation.");
    else if (offset < 0 || size < 0)
        m_error = QStringLiteral("A loop device cannot cover %1 bytes from byte %2.")
                      .arg(size)
                      .arg(offset);
    return m_error.isEmpty();
}

void LoopAttachment::attach(int imageFd, qint64 offset, qint64 size, bool readOnly)
{
    const int control = openLoopControl(&m_error);
    if (control < 0)
        return;
    const loop_config config = configFor(imageFd, offset, size, readOnly);
    Claim claim;
    for (int i = 0; i < kTries; ++i) {
        claim = claimFreeDevice(control, config, readOnly);
        if (!claim.taken)
            break;
    }
    ::close(control);
    if (claim.fd < 0) {
        m_error = claim.taken ? QStringLiteral("No free loop device: other programs took each "
                                               "of the %1 offered first. %2")
                                    .arg(kTries)
                                    .arg(claim.error)
                              : claim.error;
        return;
    }
    m_holdFd = claim.fd;
    m_device = claim.device;
    m_backingFile = sysfsBackingFile(m_device);
}

LoopAttachment::~LoopAttachment()
{
    if (m_holdFd < 0)
        return;
    // The last close detaches. No detach by number after it: by then the number may already
    // belong to someone else's image.
    ::close(m_holdFd);
    // A tool that forked a child still holding the device delays the detach; wait a little so
    // that callers which go on to use the image see it released.
    for (int i = 0;
         i < 100 && !m_backingFile.isEmpty() && sysfsBackingFile(m_device) == m_backingFile; ++i)
        QThread::msleep(10);
}

} // namespace partwise
