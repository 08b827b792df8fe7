#pragma once

// Says why a greyed menu item is greyed. Qt shows neither the tooltip nor the status tip of a
// disabled menu item, yet that is where a person most wants to know why; Partwise gives each
// greyed action its reason as its status tip (ui/editing/editingavailability), and this shows
// it while the mouse is over the item: in the window's status bar and as a tooltip beside the
// item. Every menu of the application is watched, context menus included.

#include <QObject>
#include <QPointer>

class QAction;
class QMainWindow;
class QMenu;

class DisabledActionHints : public QObject
{
    Q_OBJECT

public:
    explicit DisabledActionHints(QMainWindow *window); // lives as long as the window

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void hover(QMenu *menu, QAction *action, const QPoint &globalPos);

    QMainWindow *m_window;
    QPointer<QAction> m_hovered;
    bool m_showing = false; // a reason of ours is in the status bar
};
