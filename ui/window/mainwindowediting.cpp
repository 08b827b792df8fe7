#include "window/mainwindowediting.h"

#include "align/misalignmentreport.h"
#include "disklistmodel.h"
#include "diskmapwidget.h"
#include "editing/editingcontroller.h"
#include "partitionmodel.h"
#include "window/mainwindow.h"

#include <QCoreApplication>
#include <QTreeView>

using namespace partwise;

EditingController *installEditing(MainWindow *window)
{
    EditingHooks hooks;
    hooks.currentPath = [window] { return window->currentPath(); };
    hooks.currentLayout = [window] { return window->currentLayout(); };
    hooks.currentBoot = [window] { return window->currentBoot(); };
    hooks.notEditableReason = [window] { return window->notEditableReason(); };
    hooks.policy = [window] { return window->alignmentPolicy(); };
    hooks.showLayout = [window](const DiskLayout &layout) {
        window->showLayout(layout);
        if (layout.regions.isEmpty())
            window->diskMap()->setMessage(
                QCoreApplication::translate("MainWindow", "%1 has no partition table.")
                    .arg(window->diskName(window->currentPath())));
    };
    hooks.diskName = [window](const QString &path) { return window->diskName(path); };
    hooks.reread = [window](const QString &path) { window->reread(path); };
    hooks.displayedLayout = [window] { return window->partitionModel()->layout(); };
    hooks.selection = window->regionSelection();
    hooks.contextMenuWidgets = {window->diskMap(), window->partitionView()};
    hooks.servedBy = [window](const QString &path, QString *pathThere) {
        const int row = window->diskList()->rowOf(path);
        const DiskEntry *entry = row >= 0 ? &window->diskList()->entry(row) : nullptr;
        *pathThere = entry && !entry->machine.isEmpty() ? entry->devicePath : path;
        return entry ? entry->machine : QString();
    };
    // The window's own status line judges what is on screen, the preview included.
    hooks.previewNoticeInStatusBar = false;
    EditingController *controller = EditingController::install(window, hooks);
    QObject::connect(window, &MainWindow::diskShown, controller, &EditingController::diskShown);
    return controller;
}
