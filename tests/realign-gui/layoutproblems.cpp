#include "layoutproblems.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>

namespace {

// The widgets a person reads or operates, visible on `page` now.
QList<QWidget *> readableWidgets(QWidget *page)
{
    QList<QWidget *> found;
    for (QWidget *w : page->findChildren<QWidget *>()) {
        if (!w->isVisibleTo(page) || w->width() <= 0 || w->height() <= 0)
            continue;
        if (qobject_cast<QLabel *>(w) || qobject_cast<QAbstractButton *>(w) ||
            qobject_cast<QLineEdit *>(w) || qobject_cast<QComboBox *>(w) ||
            qobject_cast<QAbstractSpinBox *>(w))
            found << w;
    }
    return found;
}

QString nameOf(const QWidget *w)
{
    QString text;
    if (const auto *label = qobject_cast<const QLabel *>(w))
        text = label->text();
    else if (const auto *button = qobject_cast<const QAbstractButton *>(w))
        text = button->text();
    text = text.left(40);
    return QStringLiteral("%1 %2 \"%3\"")
        .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(), text);
}

bool insideScrollArea(const QWidget *w, const QWidget *page)
{
    for (const QWidget *p = w->parentWidget(); p && p != page; p = p->parentWidget())
        if (qobject_cast<const QAbstractScrollArea *>(p))
            return true;
    return false;
}

// The part of `w` a person sees on `page`: a widget inside a scroll area shows only through its
// viewport (the rest is scrolled away, not overlapping what lies below the scroll area).
QRect shownRect(QWidget *w, QWidget *page)
{
    QRect shown(w->mapTo(page, QPoint(0, 0)), w->size());
    for (QWidget *p = w->parentWidget(); p && p != page; p = p->parentWidget())
        if (const auto *area = qobject_cast<QAbstractScrollArea *>(p))
            shown &= QRect(area->viewport()->mapTo(page, QPoint(0, 0)), area->viewport()->size());
    return shown;
}

bool isAncestor(const QWidget *a, const QWidget *b)
{
    for (const QWidget *p = b->parentWidget(); p; p = p->parentWidget())
        if (p == a)
            return true;
    return false;
}

// What `w` needs to show its text: a wrapping label its height for its width, anything else
// its size hint's height and (when it cannot wrap) width.
QString squeezed(const QWidget *w)
{
    if (const auto *label = qobject_cast<const QLabel *>(w)) {
        if (label->text().isEmpty())
            return QString();
        if (label->wordWrap()) {
            // QLabel's own height for its width, without its margins' rounding: 2 px slack.
            const int needed = label->heightForWidth(label->width());
            if (needed > label->height() + 2)
                return QStringLiteral("%1 is %2 px tall but its text needs %3")
                    .arg(nameOf(w))
                    .arg(label->height())
                    .arg(needed);
            return QString();
        }
    }
    const QSize hint = w->sizeHint();
    if (hint.height() > w->height() + 2)
        return QStringLiteral("%1 is %2 px tall but needs %3")
            .arg(nameOf(w))
            .arg(w->height())
            .arg(hint.height());
    if (qobject_cast<const QAbstractButton *>(w) || qobject_cast<const QLabel *>(w))
        if (hint.width() > w->width() + 2)
            return QStringLiteral("%1 is %2 px wide but its text needs %3")
                .arg(nameOf(w))
                .arg(w->width())
                .arg(hint.width());
    return QString();
}

} // namespace

QStringList layoutProblems(QWidget *page)
{
    QStringList problems;
    const QList<QWidget *> widgets = readableWidgets(page);
    QList<QRect> rects;
    QList<QRect> shown; // what of each is in view
    for (QWidget *w : widgets) {
        rects << QRect(w->mapTo(page, QPoint(0, 0)), w->size());
        shown << shownRect(w, page);
    }
    // Any widget reaching past its parent is cut off there (a ruler showing one of its rows),
    // unless the parent is a scroll area's viewport.
    for (QWidget *w : page->findChildren<QWidget *>()) {
        QWidget *parent = w->parentWidget();
        if (!w->isVisibleTo(page) || w->isWindow() || !parent ||
            qobject_cast<QAbstractScrollArea *>(parent->parentWidget()))
            continue;
        if (!parent->rect().contains(w->geometry()))
            problems << QStringLiteral("%1 (%2×%3) is cut off by %4 (%5×%6)")
                            .arg(nameOf(w))
                            .arg(w->width())
                            .arg(w->height())
                            .arg(nameOf(parent))
                            .arg(parent->width())
                            .arg(parent->height());
    }
    for (int i = 0; i < widgets.size(); ++i) {
        const QString s = squeezed(widgets[i]);
        if (!s.isEmpty())
            problems << s;
        // Past the page's edge is cut off, unless a scroll area brings it into view.
        if (!page->rect().contains(rects[i]) && !insideScrollArea(widgets[i], page))
            problems << QStringLiteral("%1 at %2,%3 %4×%5 is cut off by the page's edge")
                            .arg(nameOf(widgets[i]))
                            .arg(rects[i].x())
                            .arg(rects[i].y())
                            .arg(rects[i].width())
                            .arg(rects[i].height());
        for (int j = i + 1; j < widgets.size(); ++j) {
            if (isAncestor(widgets[i], widgets[j]) || isAncestor(widgets[j], widgets[i]))
                continue; // a spin box's line edit
            const QRect overlap = shown[i].intersected(shown[j]);
            if (overlap.width() > 1 && overlap.height() > 1)
                problems << QStringLiteral("%1 at %2,%3 %4×%5 overlaps %6 at %7,%8 %9×%10")
                                .arg(nameOf(widgets[i]))
                                .arg(rects[i].x())
                                .arg(rects[i].y())
                                .arg(rects[i].width())
                                .arg(rects[i].height())
                                .arg(nameOf(widgets[j]))
                                .arg(rects[j].x())
                                .arg(rects[j].y())
                                .arg(rects[j].width())
                                .arg(rects[j].height());
        }
    }
    return problems;
}
