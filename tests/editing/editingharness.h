// A window put together like MainWindow for the editing tests: the disk map, the partition list
// and the editing controller on one model, over one disk image.
#pragma once

#include "align/alignmentpolicy.h"
#include "diskmapwidget.h"
#include "editing/editingcontroller.h"
#include "partitionmodel.h"
#include "table/disklayout.h"

#include <QItemSelectionModel>
#include <QMainWindow>
#include <QTreeView>

struct EditingHarness
{
    PartitionModel model;
    QItemSelectionModel selection{&model};
    QMainWindow window;
    DiskMapWidget *map = new DiskMapWidget;
    QTreeView *list = new QTreeView;
    EditingController *editing = nullptr;
    QString path;
    partwise::DiskLayout base;
    partwise::AlignmentPolicy policy;

    explicit EditingHarness(const QString &image, qint64 forcedSectorSize = 0);

    void selectRow(int row);
    QAction *action(EditingController::Action which) const { return editing->action(which); }
};
