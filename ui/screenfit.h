#pragma once

// Windows that fit the screen they open on, from 800×600 up: a size taken from the screen's
// available area (never larger), and wizard pages whose contents scroll so that the wizard's
// own buttons, and what a page keeps below its contents, are never pushed off the screen.
#include <QList>
#include <QRect>
#include <QSize>

class QWidget;

namespace partwise {

// The available area (without panels and docks) of the screen `widget` is on, or of the primary
// screen before it is shown.
QRect availableScreenArea(const QWidget *widget);

// `wanted`, made no larger than the available area leaves for a window and its frame.
QSize sizeWithinScreen(const QWidget *widget, QSize wanted);

// Moves what `page` holds into a frameless scroll area filling it; `footer` widgets (inside it)
// go below the scroll area instead, always in sight.
void scrollPageContents(QWidget *page, const QList<QWidget *> &footer = {});

} // namespace partwise
