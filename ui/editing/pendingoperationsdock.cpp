#include "editing/pendingoperationsdock.h"

#include "alignmentstyle.h"

#include <QAction>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QUndoGroup>
#include <QUndoView>
#include <QVBoxLayout>

using namespace partwise;

PendingOperationsDock::PendingOperationsDock(QUndoGroup *group, QWidget *parent)
    : QDockWidget(tr("Pending Operations"), parent)
{
    setObjectName(QStringLiteral("pendingOperationsDock"));
    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    m_view = new QUndoView(group);
    m_view->setObjectName(QStringLiteral("pendingOperationsView"));
    m_view->setEmptyLabel(tr("The disk as it is now"));
    m_view->setAccessibleName(tr("Pending operations"));
    m_view->setWordWrap(true);
    layout->addWidget(m_view, 1);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("pendingOperationsStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_buttons = new QWidget;
    layout->addWidget(m_buttons);
    setWidget(content);
}

void PendingOperationsDock::setActions(QAction *undo, QAction *redo, QAction *clear,
                                       QAction *savePlan, QAction *apply)
{
    auto *grid = new QGridLayout(m_buttons);
    grid->setContentsMargins(0, 0, 0, 0);
    // Short captions: the menu's Undo/Redo texts name the whole operation.
    const QList<QPair<QAction *, QString>> buttons = {{undo, tr("&Undo")},
                                                      {redo, tr("Red&o")},
                                                      {clear, tr("C&lear")},
                                                      {savePlan, tr("Save Pla&n…")},
                                                      {apply, tr("&Apply")}};
    int i = 0;
    for (const auto &[action, caption] : buttons) {
        auto *button = new QPushButton(caption);
        button->setObjectName(action->objectName() + QStringLiteral("Button"));
        button->setToolTip(action->toolTip());
        button->setEnabled(action->isEnabled());
        connect(button, &QPushButton::clicked, action, &QAction::trigger);
        connect(action, &QAction::changed, button, [button, action] {
            button->setEnabled(action->isEnabled());
            button->setToolTip(action->toolTip());
        });
        grid->addWidget(button, i / 3, i % 3);
        ++i;
    }
}

void PendingOperationsDock::setStatus(const QString &text, bool isError)
{
    m_status->setText(text);
    m_status->setStyleSheet(isError ? AlignmentStyle::errorStyleSheet(palette()) : QString());
}
