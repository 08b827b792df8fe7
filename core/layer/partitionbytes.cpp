#include "layer/partitionbytes.h"

#include "device/loopattachment.h"

#include <QFile>
#include <QTemporaryFile>

namespace partwise {

PartitionPath::~PartitionPath()
{
    if (!m_scratch.isEmpty())
        QFile::remove(m_scratch);
}

PartitionPath::PartitionPath(PartitionPath &&) noexcept = default;
PartitionPath &PartitionPath::operator=(PartitionPath &&) noexcept = default;

namespace {

// A node libparted names may not exist: a kernel without partition support makes none.
QString existingNode(const PartitionBytes &bytes)
{
    return !bytes.partitionNode.isEmpty() && QFile::exists(bytes.partitionNode)
               ? bytes.partitionNode
               : QString();
}

} // namespace

PartitionPath PartitionPath::device(const PartitionBytes &bytes)
{
    PartitionPath result;
    if (!existingNode(bytes).isEmpty()) {
        result.m_path = bytes.partitionNode;
        return result;
    }
    result.m_loop =
        std::make_unique<LoopAttachment>(bytes.target, bytes.offsetBytes, bytes.lengthBytes, true);
    if (result.m_loop->ok())
        result.m_path = result.m_loop->device();
    else
        result.m_error = result.m_loop->error();
    return result;
}

PartitionPath PartitionPath::headerCopy(const PartitionBytes &bytes, qint64 length)
{
    PartitionPath result;
    const QString node = existingNode(bytes);
    const QString source = node.isEmpty() ? bytes.target : node;
    const qint64 from = node.isEmpty() ? bytes.offsetBytes : 0;
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly) || !in.seek(from)) {
        result.m_error = QStringLiteral("cannot read %1: %2").arg(source, in.errorString());
        return result;
    }
    QTemporaryFile out;
    out.setAutoRemove(false);
    if (!out.open()) {
        result.m_error = QStringLiteral("cannot create a scratch file: %1").arg(out.errorString());
        return result;
    }
    result.m_scratch = out.fileName();
    qint64 left = std::min(length, bytes.lengthBytes);
    while (left > 0) {
        const QByteArray piece = in.read(std::min<qint64>(left, 1 << 20));
        if (piece.isEmpty())
            break; // a truncated image: the library judges what is there
        if (out.write(piece) != piece.size()) {
            result.m_error =
                QStringLiteral("cannot write a scratch file: %1").arg(out.errorString());
            return result;
        }
        left -= piece.size();
    }
    out.close();
    result.m_path = result.m_scratch;
    return result;
}

} // namespace partwise
