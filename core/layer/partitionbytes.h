#pragma once

// Where a partition's bytes can be read by a tool that only takes a path: the partition's own
// node on a disk, or, inside an image file, a read-only loop device over its range (root), or a
// copy of its first bytes in a scratch file (what a header-only library needs, no root).

#include <QString>

#include <memory>

namespace partwise {

class LoopAttachment;

struct PartitionBytes
{
    QString target;        // the disk or image file
    QString partitionNode; // "/dev/sdb2"; empty for images and nodes the kernel has not made
    qint64 offsetBytes = 0;
    qint64 lengthBytes = 0;
};

// A path to the partition's bytes for the duration of its lifetime.
class PartitionPath
{
public:
    ~PartitionPath();
    // The partition node, or a read-only loop device over the range.
    static PartitionPath device(const PartitionBytes &bytes);
    // A scratch file holding the first `bytes` of the partition (at most its length).
    static PartitionPath headerCopy(const PartitionBytes &bytes, qint64 length);

    PartitionPath(PartitionPath &&) noexcept;
    PartitionPath &operator=(PartitionPath &&) noexcept;

    bool ok() const { return !m_path.isEmpty(); }
    QString path() const { return m_path; }
    QString error() const { return m_error; }

private:
    PartitionPath() = default;
    QString m_path;
    QString m_error;
    QString m_scratch; // removed on destruction
    std::unique_ptr<LoopAttachment> m_loop;
};

} // namespace partwise
