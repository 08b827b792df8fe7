#pragma once

#include <QString>

namespace partwise {

// Whether this session can create loop devices at all (root only): what the planner offers and
// how filesystem tools reach a partition inside an image both follow from this one answer.
bool loopDevicesAvailable();

// A loop device over a byte range of an image file (or a disk), for the filesystem tools that
// cannot work at an offset inside a file (labelling, checking, resizing). Needs root.
// The device is bound and marked autoclear in one kernel call (LOOP_CONFIGURE) and held open,
// so the kernel detaches it at the last close: on destruction, and also when the process is
// killed at any instant, even in the middle of attaching, which would otherwise leave a stray
// loop device holding the user's image or disk busy.
class LoopAttachment
{
public:
    // Opens `image` itself, without following a link.
    LoopAttachment(const QString &image, qint64 offset, qint64 size, bool readOnly);
    // The image already open (opened once and handed on): a regular file or a block device,
    // open for reading, and for writing unless `readOnly`. The descriptor stays the caller's;
    // the kernel keeps its own reference to the open file.
    LoopAttachment(int imageFd, qint64 offset, qint64 size, bool readOnly);
    ~LoopAttachment();
    LoopAttachment(const LoopAttachment &) = delete;
    LoopAttachment &operator=(const LoopAttachment &) = delete;

    bool ok() const { return !m_device.isEmpty(); }
    QString device() const { return m_device; }
    QString error() const { return m_error; }

private:
    bool mayAttach(qint64 offset, qint64 size);
    void attach(int imageFd, qint64 offset, qint64 size, bool readOnly);

    QString m_device;
    QString m_backingFile; // as the kernel reports it, to see the detach happen
    QString m_error;
    int m_holdFd = -1; // the last close detaches (autoclear)
};

} // namespace partwise
