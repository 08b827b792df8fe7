#include "editingharness.h"

#include "align/misalignmentreport.h"
#include "table/diskreader.h"

#include <QHeaderView>
#include <QMenuBar>
#include <QVBoxLayout>

using namespace partwise;

EditingHarness::EditingHarness(const QString &image, qint64 forcedSectorSize)
{
    path = image;
    DiskReadOptions options;
    options.forcedSectorSize = forcedSectorSize;
    base = readDisk(image, options).layout;
    window.menuBar()->addMenu(QStringLiteral("&File"));
    window.menuBar()->addMenu(QStringLiteral("&View"));
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    map->setModel(&model, &selection);
    list->setModel(&model);
    list->setSelectionModel(&selection);
    list->setRootIsDecorated(false);
    list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(map);
    layout->addWidget(list, 1);
    window.setCentralWidget(central);
    model.setDisk(base, analyzeAlignment(base, policy));
    EditingHooks hooks;
    hooks.currentPath = [this] { return path; };
    hooks.currentLayout = [this]() -> std::optional<DiskLayout> { return base; };
    hooks.policy = [this] { return policy; };
    hooks.showLayout = [this](const DiskLayout &shown) {
        model.setDisk(shown, analyzeAlignment(shown, policy));
    };
    hooks.selection = &selection;
    hooks.contextMenuWidgets = {map, list};
    editing = EditingController::install(&window, hooks);
    window.resize(1100, 700);
}

void EditingHarness::selectRow(int row)
{
    selection.setCurrentIndex(model.index(row, 0),
                              QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}
