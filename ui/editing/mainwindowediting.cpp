#include "editing/mainwindowediting.h"

#include "align/misalignmentreport.h"
#include "disklistmodel.h"
#include "diskmapwidget.h"
#include "editing/editingcontroller.h"
#include "mainwindow.h"
#include "partitionmodel.h"

#include <QCoreApplication>
#include <QTreeView>

EditingController *installEditing(MainWindow *window)
{
    EditingHooks hooks;
    hooks.currentPath = [window] { return window->currentPath(); };
    hooks.currentLayout = [window]() -> std::optional<DiskLayout> {
        const DiskListModel *disks = window->diskList();
        const int row = disks->rowOf(window->currentPath());
        if (row < 0 || disks->entry(row).state != DiskEntry::State::Ready)
            return std::nullopt;
        return disks->entry(row).layout;
    };
    hooks.policy = [window] { return window->alignmentPolicy(); };
    hooks.showLayout = [window](const DiskLayout &layout) {
        window->partitionModel()->setDisk(layout,
                                          analyzeAlignment(layout, window->alignmentPolicy()));
        window->diskMap()->setMessage(
            layout.regions.isEmpty()
                ? QCoreApplication::translate("MainWindow", "%1 has no partition table.")
                      .arg(window->currentPath())
                : QString());
    };
    hooks.reread = [window](const QString &path) {
        const DiskListModel *disks = window->diskList();
        const int row = disks->rowOf(path);
        if (row >= 0 && disks->entry(row).isImage)
            window->openImage(path, disks->entry(row).forcedSectorSize);
        else
            window->refresh();
    };
    hooks.displayedLayout = [window] { return window->partitionModel()->layout(); };
    hooks.selection = window->regionSelection();
    hooks.contextMenuWidgets = {window->diskMap(), window->partitionView()};
    EditingController *controller = EditingController::install(window, hooks);
    QObject::connect(window, &MainWindow::diskShown, controller, &EditingController::diskShown);
    return controller;
}
