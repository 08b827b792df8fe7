#include "uitranslations.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QTranslator>

namespace UiTranslations {

QStringList searchPaths()
{
    // Embedded first: the catalogue always matches the binary. The installed copy serves
    // builds without the embedded one and lets packagers inspect it.
    return {QStringLiteral(":/partwise/translations"),
            QDir(QCoreApplication::applicationDirPath())
                .absoluteFilePath(QStringLiteral("../share/partwise/translations"))};
}

bool install(QCoreApplication *app, const QLocale &locale)
{
    auto *qt = new QTranslator(app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;

    // The UI languages in order of preference; English is the source text, so it ends the
    // search ("en_GB:de" stays English, "fr:de" gets German).
    auto *own = new QTranslator(app);
    const QStringList languages = locale.uiLanguages();
    for (QString language : languages) {
        language.replace(QLatin1Char('-'), QLatin1Char('_'));
        if (language == QLatin1String("C") || language.startsWith(QLatin1String("en")))
            break;
        for (const QString &folder : searchPaths()) {
            // "partwise_de_DE" falls back to "partwise_de" by itself.
            if (own->load(QStringLiteral("partwise_") + language, folder)) {
                QCoreApplication::installTranslator(own);
                return true;
            }
        }
    }
    delete own;
    return false;
}

} // namespace UiTranslations
