#pragma once

#include "device/diskevent.h"

#include <QList>
#include <QSet>
#include <QString>

#include <memory>

struct udev;
struct udev_device;
struct udev_monitor;

namespace partwise {

// Follows the kernel's block devices as they come and go, through libudev's monitor (as Solid
// and udisks do). Where udevd runs it listens to udev's events, sent once udev has made the
// /dev links and probed the disk; where none runs (a bare live system, a container) to the
// kernel's own uevents, which devtmpfs has already given a node. It keeps the set of disks it
// has reported, starting from listDisks(), so a loop device becomes "added" when a file is
// bound to it and "removed" when let go (the kernel only says "changed" for both).
//
// fd() becomes readable when events wait; receive() takes them all without blocking. One
// owner, one thread.
class DiskMonitor
{
public:
    enum class Source { Udev, Kernel };

    // Listens to udev's events when udevd runs and to the kernel's otherwise (or to `source`).
    // Null, with `error` saying why, when the netlink socket cannot be had.
    static std::unique_ptr<DiskMonitor> start(QString *error);
    static std::unique_ptr<DiskMonitor> start(Source source, QString *error);
    ~DiskMonitor();
    DiskMonitor(const DiskMonitor &) = delete;
    DiskMonitor &operator=(const DiskMonitor &) = delete;

    Source source() const { return m_source; }
    int fd() const;
    QList<DiskEvent> receive();
    // The disks reported so far (their nodes), present ones only.
    QSet<QString> disks() const { return m_disks; }

    // Whether udevd runs here (a process of that name is seen in /proc).
    static bool udevRuns();

private:
    DiskMonitor(udev *context, udev_monitor *monitor, Source source);
    void take(udev_device *device, QList<DiskEvent> *events);
    void takeDisk(udev_device *device, const QString &action, QList<DiskEvent> *events);
    void takePartition(udev_device *device, const QString &action, QList<DiskEvent> *events);

    udev *m_udev = nullptr;
    udev_monitor *m_monitor = nullptr;
    Source m_source;
    QSet<QString> m_disks;
};

QString diskMonitorSourceName(DiskMonitor::Source source);

} // namespace partwise
