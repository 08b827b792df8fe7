#include "fs/resizesupport.h"

namespace partwise {

FilesystemNode::FilesystemNode(const FilesystemLocation &where, qint64 bytes, bool readOnly)
{
    if (!where.isImage) {
        m_node = where.path;
        return;
    }
    // Without root there is no loop device; reading tools get a scratch copy of the partition
    // instead (a check, a used-block map), never a writing one.
    if (!loopDevicesAvailable() && readOnly) {
        m_copy.emplace(where.path, where.offset, bytes);
        if (m_copy->ok())
            m_node = m_copy->path();
        else
            m_error = QStringLiteral("This needs a loop device over the image or a copy of the "
                                     "partition, and %1.")
                          .arg(m_copy->error());
        return;
    }
    m_loop.emplace(where.path, where.offset, bytes, readOnly);
    if (m_loop->ok())
        m_node = m_loop->device();
    else
        m_error = m_loop->error();
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
