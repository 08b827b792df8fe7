#pragma once

#include <QLocale>
#include <QStringList>

class QCoreApplication;

// The window's language: Partwise's catalogue (embedded under :/partwise/translations/, or
// installed in share/partwise/translations) and Qt's own (qtbase_*.qm: standard buttons and
// dialogs), both picked from the locale's UI languages. partwise-cli never calls this, so
// its output stays English for scripts.
namespace UiTranslations {

// Installs the catalogues for `locale` on `app`; returns false when Partwise has none for it
// (English needs none: the source text is English).
bool install(QCoreApplication *app, const QLocale &locale = QLocale());

// Where Partwise looks for partwise_<lang>.qm, first match wins.
QStringList searchPaths();

} // namespace UiTranslations
