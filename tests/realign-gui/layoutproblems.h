// Whether a page can be read as laid out: what a person would see wrong in a screenshot, found
// from the widgets' geometries.
#pragma once

#include <QStringList>

class QWidget;

// On `page` as laid out now: every pair of visible labels, buttons, line edits, combo and spin
// boxes that overlap (in the page's coordinates); every one of them smaller than its text needs
// (a wrapping label's height for its width, otherwise its size hint); every one reaching past
// the page's edge outside a scroll area; and every visible widget reaching past its parent
// (a ruler showing one of its rows) unless the parent scrolls it.
QStringList layoutProblems(QWidget *page);
