// The window following the disks as they come and go (DiskEventSource), and what that does to
// the pending operations of a disk that went or changed.
#include "window/mainwindow.h"

#include "diskeventsource.h"
#include "disklistmodel.h"
#include "diskservice.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"

#include <QApplication>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>
#include <utility>

using namespace partwise;

namespace {

// How long a disk that could not be read again is given to be reported removed: a USB drive
// pulled out is first a disk whose capacity dropped to nothing (the kernel says "changed"), and
// only then removed (in the test guest, within 1.7 s of QEMU's unplug).
constexpr int kRemovalGraceMs = 3000;

} // namespace

void MainWindow::followDiskEvents(DiskEventSource *source)
{
    if (!m_diskEventTimer) {
        // A plug is a burst (the disk, then each partition): taken together, read once.
        m_diskEventTimer = new QTimer(this);
        m_diskEventTimer->setSingleShot(true);
        m_diskEventTimer->setInterval(150);
        connect(m_diskEventTimer, &QTimer::timeout, this, &MainWindow::applyDiskEvents);
        connect(m_disks, &DiskListModel::diskRemoved, this,
                [this](const QString &path, const QString &name) {
                    dropQueue(path, tr("%1 was removed").arg(name));
                });
        connect(m_disks, &DiskListModel::diskChangedUnderneath, this,
                &MainWindow::changedUnderneath);
        connect(m_service, &DiskService::diskUnchanged, this, &MainWindow::diskUnchanged);
    }
    connect(source, &DiskEventSource::diskEvent, this, &MainWindow::takeDiskEvent);
}

void MainWindow::takeDiskEvent(const DiskEvent &event)
{
    m_diskEvents << event;
    if (!m_diskEventTimer->isActive())
        m_diskEventTimer->start();
}

void MainWindow::applyDiskEvents()
{
    // A dialog may be writing a disk (Apply, the wizards): its own re-read comes when it ends,
    // and a change it made is no change "outside Partwise".
    if (QApplication::activeModalWidget()) {
        m_diskEventTimer->start(500);
        return;
    }
    const QList<DiskEvent> events = std::exchange(m_diskEvents, {});
    if (m_scanSystemDisks) {
        // This computer's disks come from a helper, which lists them again. Not for "changed":
        // the helper's own reads make udev say that of every disk it read.
        if (std::any_of(events.cbegin(), events.cend(), [](const DiskEvent &event) {
                return event.kind != DiskEvent::Kind::Changed;
            }))
            scanDisks();
        return;
    }
    QStringList toRead; // in the order heard, each once; a removal in between wins
    for (const DiskEvent &event : events) {
        toRead.removeAll(event.path);
        if (event.kind == DiskEvent::Kind::Removed) {
            m_disks->removeDisk(event.path);
            m_shapes.remove(event.path);
        } else {
            toRead << event.path;
        }
    }
    for (const QString &path : toRead) {
        const int row = m_disks->addDisk(path, false);
        const DiskEntry &entry = m_disks->entry(row);
        if (entry.isImage || !entry.machine.isEmpty())
            continue; // an image of the same name is the user's, read when they ask
        // Read already: again only if its size or table differs (udev says "changed" of every
        // disk closed after writing, and reading one is such a close).
        if (entry.wasRead && m_shapes.contains(path)) {
            m_service->readIfChanged(path, m_shapes.value(path));
            continue;
        }
        m_disks->markReading(row);
        m_service->read(path);
    }
}

void MainWindow::changedUnderneath(const QString &path, const QString &why)
{
    const int row = m_disks->rowOf(path);
    if (row < 0 || m_disks->entry(row).state != DiskEntry::State::Failed) {
        dropQueue(path, why);
        return;
    }
    // Unreadable now: if it was unplugged, its removal drops the queue first, saying so; the
    // queue cannot be applied meanwhile, since the disk cannot be read.
    QTimer::singleShot(kRemovalGraceMs, this, [this, path, why] {
        if (m_disks->rowOf(path) >= 0)
            dropQueue(path, why);
    });
}

void MainWindow::dropQueue(const QString &path, const QString &why)
{
    PendingOperations *queue = m_editing->pendingFor(path);
    if (queue->isEmpty())
        return;
    const int count = queue->count();
    queue->clear();
    const QString text = tr("%n pending operation(s) dropped: %1. They were planned for that "
                            "disk as it was, and are never applied to another.",
                            nullptr, count)
                             .arg(why);
    statusBar()->showMessage(text);
    // Not modal: more disks may come and go while it is read.
    auto *notice = new QMessageBox(QMessageBox::Warning, tr("Pending Operations Dropped"), text,
                                   QMessageBox::Ok, this);
    notice->setObjectName(QStringLiteral("queueDroppedNotice"));
    notice->setAttribute(Qt::WA_DeleteOnClose);
    notice->setWindowModality(Qt::NonModal);
    notice->show();
}
