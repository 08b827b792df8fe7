#pragma once

#include <QDockWidget>

class QAction;
class QLabel;
class QPushButton;
class QUndoGroup;
class QUndoView;

// The queue of pending operations of the disk on screen: one line per operation (a QUndoView,
// so clicking a line undoes back to it), and Undo, Redo, Clear, Save Plan… and Apply.
class PendingOperationsDock : public QDockWidget
{
    Q_OBJECT

public:
    explicit PendingOperationsDock(QUndoGroup *group, QWidget *parent = nullptr);

    // The buttons trigger these actions (owned by the caller, usually EditingController).
    void setActions(QAction *undo, QAction *redo, QAction *clear, QAction *savePlan,
                    QAction *apply);
    // A line under the list: how many operations wait, or why the preview failed.
    void setStatus(const QString &text, bool isError);

    QUndoView *view() const { return m_view; }

private:
    QUndoView *m_view = nullptr;
    QLabel *m_status = nullptr;
    QWidget *m_buttons = nullptr;
};
