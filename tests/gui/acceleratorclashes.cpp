#include "acceleratorclashes.h"

#include <QAbstractButton>
#include <QAction>
#include <QGroupBox>
#include <QHash>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QTabBar>

namespace guitest {

namespace {

// The key Qt's mnemonic gives `text` ("&&" is a literal ampersand), as "Alt+X"; empty if none.
QString mnemonicOf(const QString &text)
{
    return QKeySequence::mnemonic(text).toString();
}

QString shown(const QWidget *w, const QString &text)
{
    return QStringLiteral("%1 \"%2\"").arg(QString::fromLatin1(w->metaObject()->className()), text);
}

// Whether `text` holds a single '&' (not "&&").
bool hasAmpersand(const QString &text)
{
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (text[i + 1] != QLatin1Char('&'))
            return true;
        ++i;
    }
    return false;
}

} // namespace

QStringList menuClashes(const QString &where, const QList<QAction *> &actions)
{
    QStringList clashes;
    QHash<QString, QString> taken;
    for (QAction *action : actions) {
        if (action->isSeparator() || !action->isVisible())
            continue;
        const QString text = action->menu() ? action->menu()->title() : action->text();
        const QString key = mnemonicOf(text);
        if (!key.isEmpty()) {
            if (taken.contains(key))
                clashes << QStringLiteral("%1: %2 for \"%3\" and \"%4\"")
                               .arg(where, key, taken.value(key), text);
            else
                taken.insert(key, text);
        }
        if (QMenu *menu = action->menu())
            clashes << menuClashes(menu->title(), menu->actions());
    }
    return clashes;
}

QStringList windowClashes(const QString &where, QWidget *window)
{
    QStringList problems;
    QHash<QString, QStringList> keys; // "Alt+X" -> what takes it
    auto take = [&](const QString &text, const QString &what) {
        const QString key = mnemonicOf(text);
        if (!key.isEmpty())
            keys[key] << what;
    };
    for (QWidget *w : window->findChildren<QWidget *>()) {
        if (w->window() != window || !w->isVisibleTo(window))
            continue;
        if (auto *button = qobject_cast<QAbstractButton *>(w)) {
            take(button->text(), shown(w, button->text()));
        } else if (auto *label = qobject_cast<QLabel *>(w)) {
            if (label->textFormat() == Qt::RichText ||
                (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text())))
                continue; // '&' is HTML there
            if (label->buddy())
                take(label->text(), shown(w, label->text()));
            else if (hasAmpersand(label->text()))
                problems << QStringLiteral("%1: %2 has no buddy, so its '&' shows")
                                .arg(where, shown(w, label->text()));
        } else if (auto *group = qobject_cast<QGroupBox *>(w)) {
            take(group->title(), shown(w, group->title()));
        } else if (auto *tabs = qobject_cast<QTabBar *>(w)) {
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->isTabVisible(i))
                    take(tabs->tabText(i), shown(w, tabs->tabText(i)));
        } else if (auto *bar = qobject_cast<QMenuBar *>(w)) {
            for (QAction *action : bar->actions())
                if (action->isVisible() && !action->isSeparator())
                    take(action->text(), QStringLiteral("menu \"%1\"").arg(action->text()));
        }
    }
    for (auto it = keys.cbegin(); it != keys.cend(); ++it)
        if (it.value().size() > 1)
            problems << QStringLiteral("%1: %2 for %3")
                            .arg(where, it.key(), it.value().join(QStringLiteral(" and ")));
    problems.sort();
    return problems;
}

} // namespace guitest
