// Loop devices for tests that need real block devices (root only).
#pragma once

#include <QString>
#include <QtTest>

namespace pwtest {

// RAII: `losetup -f --show [--sector-size N] [--read-only] image` on construction; on
// destruction `partx -d` (if partitions were added) and then `losetup -d`.
class LoopDevice
{
public:
    explicit LoopDevice(const QString &image, int sectorSize = 0, bool readOnly = false);
    ~LoopDevice();
    LoopDevice(const LoopDevice &) = delete;
    LoopDevice &operator=(const LoopDevice &) = delete;

    bool ok() const { return !m_path.isEmpty(); }
    QString path() const { return m_path; } // e.g. /dev/loop3
    QString error() const { return m_error; }
    // `partx -a`: creates /dev/loopNpM nodes through BLKPG (no udev needed).
    bool addPartitions();
    QString partitionNode(int number) const; // /dev/loopNpM
    // /sys/block/loopN/queue/<name>, e.g. "physical_block_size"; -1 when unreadable.
    qint64 queueValue(const QString &name) const;

private:
    QString m_path;
    QString m_error;
    bool m_partitionsAdded = false;
};

bool runningAsRoot();
// CI=true in the environment: skipping a root-only test is a failure there.
bool runningInCi();

} // namespace pwtest

// Use at the top of a test function: skips when not root, but fails under CI=true,
// where loop-device tests must run.
#define PW_REQUIRE_ROOT_OR_SKIP()                                                                  \
    do {                                                                                           \
        if (!pwtest::runningAsRoot()) {                                                            \
            if (pwtest::runningInCi())                                                             \
                QFAIL("this test needs root for loop devices, and CI=true forbids skipping");      \
            QSKIP("this test needs root for loop devices");                                        \
        }                                                                                          \
    } while (false)
