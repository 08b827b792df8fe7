#pragma once

#include <QString>

// A loop device over a byte range of an image file, for the filesystem tools that cannot work
// at an offset inside a file (labelling, checking). Needs root; detached on destruction.
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
    QString m_error;
};
