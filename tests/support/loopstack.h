// Loop devices stacked over an image, each over the one before, and a writer that claims
// nothing: what the tests of a disk held unchanged since a plan (device/sourcehold.h) need.
#pragma once

#include "loopdevice.h"
#include "toolrun.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <vector>

namespace pwtest {

// `depth` loop devices over `image`, the first over the image and each next over the one
// before: 0 gives the image itself, 2 a disk whose writes move no file's times (its backing
// device is a loop device). Detached from the top down.
class LoopStack
{
public:
    LoopStack(const QString &image, int depth);
    ~LoopStack();
    LoopStack(const LoopStack &) = delete;
    LoopStack &operator=(const LoopStack &) = delete;

    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    QString path() const { return m_path; } // the top of the stack
private:
    std::vector<std::unique_ptr<LoopDevice>> m_loops;
    QString m_path;
    QString m_error;
};

// Writes `data` as the file `name` into the root of the ext2/3/4 filesystem at byte `offset` of
// `device` with `debugfs -w`, which opens the device without claiming it (as dd or a virtual
// machine would). `scratch` is a folder for the file's local copy.
ToolResult writeExtFileUnclaimed(const QString &device, qint64 offset, const QString &name,
                                 const QByteArray &data, const QString &scratch);

} // namespace pwtest
