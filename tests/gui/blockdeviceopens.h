// Which block devices this process opens, or tries to, from any of its threads: the test
// executable defines open(), openat() and their 64-bit and fortified forms, which the dynamic
// linker then hands every library the window uses (libparted, libblkid, Qt, libc's callers),
// records each call whose path is a block device (or one of the files a test names), and passes
// it on to libc. Linked only into
// the suites that prove the window leaves disks to its helper (tests/gui/CMakeLists.txt).
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace pwtest {

struct BlockDeviceOpen
{
    QString path;
    QString thread; // the thread's name (QThread names it; "partwise-…" for the GUI's jobs)
    int error = 0;  // errno when the open failed, 0 when it succeeded
};

// Starts (again) with an empty record. Opens of `files` (regular files: the user's images) are
// recorded as well.
void startRecordingBlockDeviceOpens(const QStringList &files = {});
// What was recorded since the start; recording stops.
QList<BlockDeviceOpen> stopRecordingBlockDeviceOpens();
QString describe(const QList<BlockDeviceOpen> &opens);

} // namespace pwtest
