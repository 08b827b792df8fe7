#include "screenfit.h"

#include <QGuiApplication>
#include <QLayout>
#include <QScreen>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QWidget>

namespace partwise {

namespace {

// A window manager's frame is not known before the window is shown; this leaves room for a
// title bar and borders of the usual desktops.
constexpr QSize kFrameAllowance(16, 48);

bool takeWidget(QLayout *layout, QWidget *widget)
{
    for (int i = 0; i < layout->count(); ++i) {
        QLayoutItem *item = layout->itemAt(i);
        if (item->widget() == widget) {
            delete layout->takeAt(i);
            return true;
        }
        if (item->layout() && takeWidget(item->layout(), widget))
            return true;
    }
    return false;
}

} // namespace

QRect availableScreenArea(const QWidget *widget)
{
    const QScreen *screen =
        widget && widget->screen() ? widget->screen() : QGuiApplication::primaryScreen();
    return screen ? screen->availableGeometry() : QRect(0, 0, 800, 600);
}

QSize sizeWithinScreen(const QWidget *widget, QSize wanted)
{
    const QSize room = availableScreenArea(widget).size() - kFrameAllowance;
    return wanted.boundedTo(room).expandedTo(QSize(320, 240));
}

void scrollPageContents(QWidget *page, const QList<QWidget *> &footer)
{
    QLayout *contents = page->layout();
    if (!contents)
        return;
    for (QWidget *widget : footer)
        takeWidget(contents, widget);
    auto *body = new QWidget;
    body->setLayout(contents); // takes the layout off the page, its widgets with it
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(body);
    auto *outer = new QVBoxLayout(page);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll, 1);
    for (QWidget *widget : footer)
        outer->addWidget(widget);
}

} // namespace partwise
