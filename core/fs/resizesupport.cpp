#include "fs/resizesupport.h"

#include "device/backingfile.h"

#include <QFile>
#include <QFileInfo>

#include <unistd.h>

namespace partwise {

FilesystemNode::FilesystemNode(const FilesystemLocation &where, qint64 bytes, bool readOnly)
{
    if (!where.isImage) {
        m_node = where.path;
        return;
    }
    if (loopDevicesAvailable()) {
        m_loop.emplace(where.path, where.offset, bytes, readOnly);
        if (m_loop->ok())
            m_node = m_loop->device();
        else
            m_error = m_loop->error();
        return;
    }
    // Without root: the partition as a file through FUSE, for reading and writing.
    QString noFile = partitionFilesProblem();
    if (noFile.isEmpty())
        noFile = servePartitionFile(where, bytes, readOnly);
    if (!m_node.isEmpty())
        return;
    if (!readOnly) {
        m_error = QStringLiteral("Without root there is no loop device over the image, and the "
                                 "partition cannot be a file through FUSE. %1")
                      .arg(noFile);
        return;
    }
    // Reading tools (a check, a used-block map) can still have a scratch copy of the partition.
    m_copy.emplace(where.path, where.offset, bytes);
    if (m_copy->ok()) {
        m_node = m_copy->path();
        return;
    }
    m_error =
        QStringLiteral("Without root there is no loop device over the image, the partition "
                       "cannot be a file through FUSE (%1), and %2.")
            .arg(noFile.endsWith(QLatin1Char('.')) ? noFile.chopped(1) : noFile, m_copy->error());
}

QString FilesystemNode::servePartitionFile(const FilesystemLocation &where, qint64 bytes,
                                           bool readOnly)
{
    // The image is opened once here and handed on; the file's server keeps its own descriptor.
    QString error;
    const int fd = openBackingFile(where.path, readOnly, &error);
    if (fd < 0)
        return error;
    m_file.emplace(fd, where.offset, bytes, readOnly);
    ::close(fd);
    if (m_file->ok()) {
        m_node = m_file->path();
        return QString();
    }
    error = m_file->error();
    m_file.reset();
    return error;
}

ToolResult onFilesystemNode(const FilesystemLocation &where, qint64 bytes, bool readOnly,
                            const std::function<ToolResult(const QString &node)> &work)
{
    if (!where.isImage)
        return work(where.path);
    const FilesystemNode node(where, bytes, readOnly);
    if (node.node().isEmpty())
        return ToolResult::failed(node.error());
    return work(node.node());
}

// The disk holding a partition node, and the partition's first byte on it (from sysfs).
std::optional<FilesystemLocation> partitionOnParentDisk(const QString &node)
{
    const QString sys =
        QFileInfo(QStringLiteral("/sys/class/block/%1")
                      .arg(QFileInfo(node).canonicalFilePath().section(QLatin1Char('/'), -1)))
            .canonicalFilePath();
    QFile start(sys + QStringLiteral("/start"));
    if (sys.isEmpty() || !QFile::exists(sys + QStringLiteral("/partition")) ||
        !start.open(QIODevice::ReadOnly))
        return std::nullopt;
    bool ok = false;
    const qint64 sectors = start.readAll().trimmed().toLongLong(&ok); // 512-byte units
    const QString disk =
        QStringLiteral("/dev/") + QFileInfo(sys).path().section(QLatin1Char('/'), -1);
    if (!ok || !QFile::exists(disk))
        return std::nullopt;
    FilesystemLocation where;
    where.path = disk;
    where.offset = sectors * 512;
    where.isImage = true;
    return where;
}

ToolResult refuseUnlessClean(const ToolResult &check, const QString &refusal)
{
    if (check.ok || check.exitCode < 0)
        return check;
    return ToolResult::failed(refusal);
}

QString firstLines(const QString &output)
{
    return output.trimmed().section(QLatin1Char('\n'), 0, 5);
}

QString lastLines(const QString &output)
{
    return output.trimmed().section(QLatin1Char('\n'), -6);
}

} // namespace partwise
