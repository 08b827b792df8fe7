// Alt+letter clashes as Qt's shortcut map would meet them: among the menus' entries, and among
// the widgets of one window that are visible together.
#pragma once

#include <QList>
#include <QStringList>

class QAction;
class QWidget;

namespace guitest {

// "menu: Alt+X for "a" and "b"" for every clash among `actions` (a menu's entries, or the menu
// bar's titles), then the same inside each of their submenus.
QStringList menuClashes(const QString &where, const QList<QAction *> &actions);

// Every clash among the mnemonics of the widgets of `window` visible now (the window's own, not
// other windows'): buttons' and group boxes' texts, tabs, the menu bar's titles, and labels'
// texts (their buddy takes the key). A label with an '&' and no buddy shows it literally: also
// reported. `where` starts each line.
QStringList windowClashes(const QString &where, QWidget *window);

} // namespace guitest
