#pragma once

#include <QString>

namespace partwise {

// A loop device over a byte range of an image file, for the filesystem tools that cannot work
// at an offset inside a file (labelling, checking, resizing). Needs root.
// The device is held open and marked autoclear, so the kernel detaches it at the last close:
// on destruction, and also when the process is killed in the middle of an operation, which
// would otherwise leave a stray loop device over the user's image.
class LoopAttachment
{
public:
    LoopAttachment(const QString &image, qint64 offset, qint64 size, bool readOnly);
    ~LoopAttachment();
    LoopAttachment(const LoopAttachment &) = delete;
    LoopAttachment &operator=(const LoopAttachment &) = delete;

    bool ok() const { return !m_device.isEmpty(); }
    QString device() const { return m_device; }
    QString error() const { return m_error; }

private:
    QString m_device;
    QString m_backingFile; // as the kernel reports it, to see the detach happen
    QString m_error;
    int m_holdFd = -1; // -1: autoclear could not be set; detached with losetup instead
};

} // namespace partwise
