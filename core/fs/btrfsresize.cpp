#include "fs/btrfsresize.h"

#include "fs/filesystemtools.h"
#include "fs/resizesupport.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QThread>

#include <cerrno>
#include <cstring>
#include <optional>
#include <sys/mount.h>
#include <unistd.h>

namespace partwise {

namespace {

const QString kPackage = QStringLiteral("btrfs-progs");

std::optional<qint64> superField(const QString &dump, const QString &name)
{
    const QRegularExpression re(
        QStringLiteral("^%1\\s+(\\d+)\\s*$").arg(QRegularExpression::escape(name)),
        QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = re.match(dump);
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1).toLongLong();
}

ToolResult dumpSuper(const QString &node)
{
    return runTool(QStringLiteral("btrfs"),
                   {QStringLiteral("inspect-internal"), QStringLiteral("dump-super"), node},
                   kPackage);
}

// A folder that exists only while the filesystem is mounted on it.
class PrivateMount
{
public:
    PrivateMount(const QString &node)
    {
        // /run is root's tmpfs and outside what file managers list; /tmp if it is missing.
        const QString base = QDir(QStringLiteral("/run")).exists() && ::access("/run", W_OK) == 0
                                 ? QStringLiteral("/run")
                                 : QDir::tempPath();
        QByteArray pattern = QFile::encodeName(base + QStringLiteral("/partwise-btrfs-XXXXXX"));
        if (!::mkdtemp(pattern.data())) {
            m_error = QStringLiteral("Cannot create a folder to mount btrfs on in %1: %2")
                          .arg(base, QString::fromLocal8Bit(std::strerror(errno)));
            return;
        }
        m_dir = QFile::decodeName(pattern);
        if (::mount(QFile::encodeName(node).constData(), pattern.constData(), "btrfs",
                    MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME, nullptr) != 0) {
            m_error = QStringLiteral("Cannot mount the btrfs filesystem on %1: %2")
                          .arg(node, QString::fromLocal8Bit(std::strerror(errno)));
            return;
        }
        m_mounted = true;
    }

    ~PrivateMount() { unmount(); }
    PrivateMount(const PrivateMount &) = delete;
    PrivateMount &operator=(const PrivateMount &) = delete;

    bool ok() const { return m_mounted; }
    QString dir() const { return m_dir; }
    QString error() const { return m_error; }

    // Unmounts and removes the folder; an error sentence, or empty.
    QString unmount()
    {
        QString error;
        if (m_mounted) {
            const QByteArray dir = QFile::encodeName(m_dir);
            int rc = -1;
            // A btrfs worker or the resize tool's last reference can hold it for a moment.
            for (int attempt = 0; attempt < 50 && rc != 0; ++attempt) {
                rc = ::umount2(dir.constData(), 0);
                if (rc != 0 && errno != EBUSY)
                    break;
                if (rc != 0)
                    QThread::msleep(100);
            }
            if (rc != 0) {
                error = QStringLiteral("Cannot unmount the btrfs filesystem from %1: %2")
                            .arg(m_dir, QString::fromLocal8Bit(std::strerror(errno)));
                // Detached from the tree, it unmounts itself once nothing uses it.
                ::umount2(dir.constData(), MNT_DETACH);
            }
            m_mounted = false;
        }
        if (!m_dir.isEmpty()) {
            ::rmdir(QFile::encodeName(m_dir).constData());
            m_dir.clear();
        }
        return error;
    }

private:
    QString m_dir;
    QString m_error;
    bool m_mounted = false;
};

// The filesystem's own devid, when it is clean and on this device alone; else why not.
ToolResult singleDeviceId(const QString &node, qint64 *devid)
{
    const ToolResult check = checkFilesystem(node, QStringLiteral("btrfs"), false);
    if (!check.ok)
        return refuseUnlessClean(check, QStringLiteral("btrfs check --readonly reports problems on "
                                                       "this btrfs filesystem, so it was not "
                                                       "resized: %1")
                                            .arg(firstLines(check.output)));
    const ToolResult super = dumpSuper(node);
    if (!super.ok)
        return super;
    const auto devices = superField(super.output, QStringLiteral("num_devices"));
    const auto id = superField(super.output, QStringLiteral("dev_item.devid"));
    if (!devices || !id)
        return ToolResult::failed(
            QStringLiteral("Cannot read the btrfs superblock on %1.").arg(node));
    if (*devices != 1)
        return ToolResult::failed(
            QStringLiteral("This btrfs filesystem spans %1 devices; Partwise resizes single-device "
                           "btrfs only (use btrfs filesystem resize with the filesystem mounted).")
                .arg(*devices));
    *devid = *id;
    return super;
}

// `btrfs filesystem resize` on a private mount; unmounted and forgotten however it ends.
ToolResult resizeMounted(const QString &node, qint64 devid, qint64 newBytes)
{
    PrivateMount mount(node);
    if (!mount.ok())
        return ToolResult::failed(mount.error());
    ToolResult r = runTool(QStringLiteral("btrfs"),
                           {QStringLiteral("filesystem"), QStringLiteral("resize"),
                            QStringLiteral("%1:%2").arg(devid).arg(newBytes), mount.dir()},
                           kPackage);
    const QString unmountError = mount.unmount();
    // Forget the device, so a later loop device reusing its name is not taken for this one.
    runTool(QStringLiteral("btrfs"),
            {QStringLiteral("device"), QStringLiteral("scan"), QStringLiteral("--forget"), node},
            kPackage);
    if (r.ok && !unmountError.isEmpty())
        return ToolResult::failed(unmountError);
    return r;
}

ToolResult resizeOnNode(const QString &node, qint64 newBytes)
{
    qint64 devid = 0;
    const ToolResult single = singleDeviceId(node, &devid);
    if (!single.ok)
        return single;
    const ToolResult r = resizeMounted(node, devid, newBytes);
    if (!r.ok)
        return r;
    const auto total = superField(dumpSuper(node).output, QStringLiteral("total_bytes"));
    if (!total || *total > newBytes)
        return ToolResult::failed(QStringLiteral("btrfs filesystem resize reported success, but "
                                                 "the filesystem is %1 bytes, not at most %2.")
                                      .arg(total.value_or(-1))
                                      .arg(newBytes));
    return r;
}

} // namespace

ToolResult resizeBtrfsFilesystem(const FilesystemLocation &where, qint64 partitionBytes,
                                 qint64 newBytes)
{
    // The kernel refuses (EINVAL) to resize a btrfs device below 256 MiB.
    if (newBytes < 256 * 1024 * 1024)
        return ToolResult::failed(QStringLiteral("btrfs cannot be resized below 256 MiB."));
    if (::geteuid() != 0)
        return ToolResult::failed(QStringLiteral("btrfs resizes only while mounted, and only root "
                                                 "can mount it: run Partwise as root to resize "
                                                 "this partition."));
    return onFilesystemNode(where, std::max(partitionBytes, newBytes), false,
                            [&](const QString &node) { return resizeOnNode(node, newBytes); });
}

} // namespace partwise
