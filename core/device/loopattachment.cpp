#include "device/loopattachment.h"

#include "base/toolrunner.h"

#include <QFile>
#include <QFileInfo>
#include <QThread>

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace partwise {

namespace {

QString sysfsBackingFile(const QString &device)
{
    QFile file(QStringLiteral("/sys/block/%1/loop/backing_file").arg(QFileInfo(device).fileName()));
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    return QString::fromLocal8Bit(file.readAll()).trimmed();
}

// Opens the device and sets LO_FLAGS_AUTOCLEAR on it; returns the descriptor that keeps it
// attached, or -1.
int holdWithAutoclear(const QString &device)
{
    const int fd = ::open(QFile::encodeName(device).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    loop_info64 info{};
    if (::ioctl(fd, LOOP_GET_STATUS64, &info) != 0) {
        ::close(fd);
        return -1;
    }
    info.lo_flags |= LO_FLAGS_AUTOCLEAR;
    if (::ioctl(fd, LOOP_SET_STATUS64, &info) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

} // namespace

LoopAttachment::LoopAttachment(const QString &image, qint64 offset, qint64 size, bool readOnly)
{
    if (::geteuid() != 0) {
        m_error = QStringLiteral("This needs a loop device over the image, and only root can "
                                 "create one: run Partwise as root for this operation.");
        return;
    }
    QStringList args{QStringLiteral("--find"),      QStringLiteral("--show"),
                     QStringLiteral("--offset"),    QString::number(offset),
                     QStringLiteral("--sizelimit"), QString::number(size)};
    if (readOnly)
        args << QStringLiteral("--read-only");
    const ToolResult r = runTool(QStringLiteral("losetup"), args << image, QStringLiteral("mount"));
    if (!r.ok) {
        m_error = r.error;
        return;
    }
    m_device = r.output.trimmed();
    m_backingFile = sysfsBackingFile(m_device);
    m_holdFd = holdWithAutoclear(m_device);
}

LoopAttachment::~LoopAttachment()
{
    if (m_device.isEmpty())
        return;
    if (m_holdFd < 0) {
        runTool(QStringLiteral("losetup"), {QStringLiteral("--detach"), m_device});
        return;
    }
    // The last close detaches. No `losetup --detach` after it: by then the number may already
    // belong to someone else's image.
    ::close(m_holdFd);
    // A tool that forked a child still holding the device delays the detach; wait a little so
    // that callers which go on to use the image see it released.
    for (int i = 0;
         i < 100 && !m_backingFile.isEmpty() && sysfsBackingFile(m_device) == m_backingFile; ++i)
        QThread::msleep(10);
}

} // namespace partwise
