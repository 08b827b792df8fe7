// Alt+letter must reach one thing: in the menu bar, and inside every menu of the window as the
// app composes it (editing, realign, the sector ruler, helpers), no two visible entries may
// share an accelerator. A clash makes the keyboard step between entries instead of choosing.
#include "helper/remotemachines.h"
#include "realign/realigncontroller.h"
#include "ruler/sectorrulerpanel.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QtTest>

namespace {

// The letter after a single '&' ("&&" is a literal ampersand), lower-cased; null if none.
QChar acceleratorOf(const QString &text)
{
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (text[i + 1] == QLatin1Char('&')) {
            ++i;
            continue;
        }
        return text[i + 1].toLower();
    }
    return {};
}

// "menu: X for a and b" for every clash among `actions`, then the same for their submenus.
QStringList clashesIn(const QString &where, const QList<QAction *> &actions)
{
    QStringList clashes;
    QHash<QChar, QString> taken;
    for (QAction *action : actions) {
        if (action->isSeparator() || !action->isVisible())
            continue;
        const QString text = action->menu() ? action->menu()->title() : action->text();
        const QChar key = acceleratorOf(text);
        if (!key.isNull()) {
            if (taken.contains(key))
                clashes << QStringLiteral("%1: Alt+%2 for \"%3\" and \"%4\"")
                               .arg(where, key, taken.value(key), text);
            else
                taken.insert(key, text);
        }
        if (QMenu *menu = action->menu())
            clashes << clashesIn(menu->title(), menu->actions());
    }
    return clashes;
}

} // namespace

class TestAccelerators : public QObject
{
    Q_OBJECT

private slots:
    void everyMenuHasUniqueAccelerators();
};

void TestAccelerators::everyMenuHasUniqueAccelerators()
{
    MainWindow window;
    RealignController *realign = installRealign(&window, window.editing());
    installSectorRuler(&window);
    RemoteMachines *machines = installRemoteMachines(&window);
    realign->setHelperRealign(machines->realignThroughHelpers());
    const QStringList clashes = clashesIn(QStringLiteral("menu bar"), window.menuBar()->actions());
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
    // Cannot pass by finding nothing: the Edit menu and its entries were walked.
    const auto *edit = window.findChild<QMenu *>(QStringLiteral("editMenu"));
    QVERIFY(edit && edit->actions().size() > 10);
}

QTEST_MAIN(TestAccelerators)
#include "tst_accelerators.moc"
