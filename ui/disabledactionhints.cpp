#include "disabledactionhints.h"

#include <QAction>
#include <QApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMouseEvent>
#include <QStatusBar>
#include <QToolTip>

DisabledActionHints::DisabledActionHints(QMainWindow *window) : QObject(window), m_window(window)
{
    setObjectName(QStringLiteral("disabledActionHints"));
    qApp->installEventFilter(this);
}

bool DisabledActionHints::eventFilter(QObject *watched, QEvent *event)
{
    auto *menu = qobject_cast<QMenu *>(watched);
    if (!menu)
        return false;
    if (event->type() == QEvent::MouseMove) {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        hover(menu, menu->actionAt(mouse->position().toPoint()), mouse->globalPosition().toPoint());
    } else if (event->type() == QEvent::Hide || event->type() == QEvent::Leave) {
        hover(menu, nullptr, {});
    }
    return false;
}

void DisabledActionHints::hover(QMenu *menu, QAction *action, const QPoint &globalPos)
{
    if (action == m_hovered)
        return;
    m_hovered = action;
    const bool greyed =
        action && !action->isEnabled() && !action->isSeparator() && !action->statusTip().isEmpty();
    if (!greyed) {
        if (m_showing) {
            m_window->statusBar()->clearMessage();
            QToolTip::hideText();
        }
        m_showing = false;
        return;
    }
    m_showing = true;
    const QString why = action->statusTip();
    const QRect item = menu->actionGeometry(action);
    // Queued: the menu handles this move after us and clears the status text of a disabled item.
    QMetaObject::invokeMethod(
        this,
        [this, why, globalPos, item, menu = QPointer<QMenu>(menu)] {
            if (!m_showing || !menu)
                return;
            m_window->statusBar()->showMessage(why);
            QToolTip::showText(globalPos, why, menu, item);
        },
        Qt::QueuedConnection);
}
