// A lying drive for tests: lying-drive (lyingdrive.c) mounted over a backing image, its file
// attached as a loop device with direct I/O. Root only.
#pragma once

#include <QProcess>
#include <QString>

namespace pwtest {

struct LyingDriveSpec
{
    qint64 physical = 4096; // the emulated physical sector
    qint64 offset = 0;      // where physical sectors start (the kernel's alignment_offset)
    double penaltyMs = 2;   // the cost of a write that covers part of a physical sector
    QString hold;           // while this file exists, every write after the first waits
};

// RAII: mounts lying-drive on `mountPoint` (created) over `backingImage`, attaches its file with
// `losetup --direct-io=on`; on destruction detaches the loop device, unmounts, waits for the
// daemon.
class LyingDrive
{
public:
    LyingDrive(const QString &program, const QString &backingImage, const QString &mountPoint,
               const LyingDriveSpec &spec);
    ~LyingDrive();
    LyingDrive(const LyingDrive &) = delete;
    LyingDrive &operator=(const LyingDrive &) = delete;

    bool ok() const { return !m_loop.isEmpty(); }
    QString error() const { return m_error; }
    QString device() const { return m_loop; } // /dev/loopN
    QString file() const { return m_file; }   // the FUSE file the loop device shows
    bool directIo() const;                    // /sys/block/loopN/loop/dio says 1

private:
    QProcess m_daemon;
    QString m_mountPoint;
    QString m_file;
    QString m_loop;
    QString m_error;
};

} // namespace pwtest
