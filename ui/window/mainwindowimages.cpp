// The window's disk images: opening one (by the file dialog, Open Recent or a practice disk
// just made), the recent list, and making the demo and practice disks.
#include "window/mainwindow.h"

#include "disklistmodel.h"
#include "diskmapwidget.h"
#include "diskservice.h"
#include "practicediskdialog.h"
#include "recentimages.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>

using namespace partwise;

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList paths = RecentImages::load();
    for (const QString &path : paths) {
        if (!QFileInfo::exists(path))
            continue; // gone (deleted, or its drive unplugged): nothing to open
        QAction *action = m_recentMenu->addAction(QFileInfo(path).fileName(), this,
                                                  [this, path] { openImage(path); });
        action->setToolTip(path);
    }
    if (!paths.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear List"), this, [this] {
            RecentImages::clear();
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!paths.isEmpty());
}

void MainWindow::openImage(const QString &path, qint64 forcedSectorSize)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    int row = -1;
    if (m_openImage) {
        row = m_openImage(absolute, forcedSectorSize);
    } else {
        row = m_disks->addDisk(absolute, true, forcedSectorSize);
        m_disks->markReading(row);
        m_service->read(absolute, forcedSectorSize);
    }
    if (row >= 0)
        m_chooser->setCurrentIndex(row);
    if (QFileInfo(absolute).isFile()) {
        RecentImages::add(absolute);
        rebuildRecentMenu();
    }
}

void MainWindow::openDemoDisk(const QString &folder)
{
    m_map->setMessage(tr("Creating the demo disk…"));
    m_status->setText(tr("Creating the demo disk…"));
    m_service->createDemoDisk(folder);
}

void MainWindow::createPracticeDisk(const PracticeDiskSpec &spec)
{
    m_status->setText(tr("Creating %1…").arg(spec.path));
    m_service->createPracticeDisk(spec);
}

void MainWindow::onImageCreated(const QString &path, const QString &error)
{
    if (path.isEmpty()) {
        m_status->setText(error);
        reportError(tr("Practice Disk"), error);
    } else {
        openImage(path);
    }
    emit imageCreated(path, error);
}

void MainWindow::chooseImage()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Disk Image"), QSettings().value("lastImageFolder").toString(),
        tr("Disk images (*.img *.raw *.bin *.iso);;All files (*)"));
    if (path.isEmpty())
        return;
    QSettings().setValue("lastImageFolder", QFileInfo(path).absolutePath());
    openImage(path);
}

void MainWindow::choosePracticeDisk()
{
    QString folder = QSettings().value("practiceFolder").toString();
    if (folder.isEmpty())
        folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QDir::homePath();
    PracticeDiskDialog dialog(folder, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const PracticeDiskSpec spec = dialog.spec();
    QSettings().setValue("practiceFolder", QFileInfo(spec.path).absolutePath());
    createPracticeDisk(spec);
}
