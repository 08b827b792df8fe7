// The German catalogue: it loads like the window loads it, translates the window's menus and
// core's verdicts (with German number formatting), leaves partwise-cli and the JSON contract
// English, and is complete for the current sources.
#include "align/alignmentverdict.h"
#include "base/humansize.h"
#include "buildsetting.h"
#include "diskmapwidget.h"
#include "guitestsupport.h"
#include "infopanel.h"
#include "ops/operation.h"
#include "ops/practicedisk.h"
#include "practicediskdialog.h"
#include "preferencesdialog.h"
#include "uitranslations.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

using namespace partwise;

namespace {

const QString kGermanTs =
    (pwtest::buildSetting("PARTWISE_TS_DIR") + QStringLiteral("/partwise_de.ts"));

struct TsMessage
{
    QString context;
    QString source;
    QString translation;
    QString type; // "unfinished", "vanished", "obsolete" or empty
    bool numerus = false;
};

QList<TsMessage> readTs(const QString &path, QString *error)
{
    QList<TsMessage> messages;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return messages;
    }
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        const auto name = xml.name();
        if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            current = TsMessage();
            current.context = context;
            current.numerus =
                xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
        } else if (name == QLatin1String("source")) {
            current.source = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            current.type = xml.attributes().value(QLatin1String("type")).toString();
            // Numerus forms are child elements; their text is joined.
            current.translation =
                xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
            messages << current;
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1 at line %2").arg(xml.errorString()).arg(xml.lineNumber());
    return messages;
}

QString describe(const TsMessage &m)
{
    return QStringLiteral("  [%1] \"%2\"").arg(m.context, m.source);
}

// "%1", "%2", "%v", "%m", "%n": what arg() and the progress bar fill in.
QStringList placeholders(const QString &text)
{
    static const QRegularExpression marker(QStringLiteral("%(\\d|[vmn])"));
    QStringList found;
    for (auto it = marker.globalMatch(text); it.hasNext();)
        found << it.next().captured(0);
    found.sort();
    return found;
}

bool hasMnemonic(QString text)
{
    text.remove(QStringLiteral("&&"));
    static const QRegularExpression mnemonic(QStringLiteral("&\\w"),
                                             QRegularExpression::UseUnicodePropertiesOption);
    return mnemonic.match(text).hasMatch();
}

QString menuTitle(const QMainWindow &window, int index)
{
    const QList<QAction *> menus = window.menuBar()->actions();
    return index < menus.size() ? menus.at(index)->text() : QString();
}

} // namespace

class TranslationsTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void catalogueIsEmbedded();
    void englishNeedsNoCatalogue();
    void windowMenusInGerman();
    void explanationsInGerman();
    void pendingOperationsInGerman();
    void numbersFollowTheCatalogue();
    void mainActionsHaveShortcuts();
    void contractNamesStayEnglish();
    void cliStaysEnglish();
    void germanWindowScreenshots();
    void darkPaletteScreenshot();
    void dialogsInGerman();

    void tsFileIsComplete();
    void translationsKeepPlaceholders();
    void lupdateFindsNothingUnfinished();

private:
    QTemporaryDir m_folder;
    QString m_demo;
};

void TranslationsTest::initTestCase()
{
    guitest::useTestSettings();
    QVERIFY(m_folder.isValid());
    QString error;
    m_demo = createDemoDisk(m_folder.path(), &error);
    QVERIFY2(!m_demo.isEmpty(), qPrintable(error));
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    QVERIFY2(UiTranslations::install(qApp, QLocale(QLocale::German, QLocale::Germany)),
             "partwise_de.qm was not found in any of the search paths");
}

void TranslationsTest::cleanupTestCase()
{
    QLocale::setDefault(QLocale::c());
}

void TranslationsTest::catalogueIsEmbedded()
{
    QTranslator translator;
    QVERIFY(translator.load(QStringLiteral(":/partwise/translations/partwise_de.qm")));
    QCOMPARE(translator.language(), QStringLiteral("de_DE"));
    QCOMPARE(translator.translate("MainWindow", "&File"), QStringLiteral("&Datei"));
}

void TranslationsTest::englishNeedsNoCatalogue()
{
    // English is the source text: there is nothing to install (and the German catalogue
    // installed for this suite stays the one in use).
    QVERIFY(!UiTranslations::install(qApp, QLocale(QLocale::English, QLocale::UnitedKingdom)));
    QVERIFY(!UiTranslations::install(qApp, QLocale::c()));
    QCOMPARE(QCoreApplication::translate("MainWindow", "&File"), QStringLiteral("&Datei"));
}

void TranslationsTest::windowMenusInGerman()
{
    MainWindow window; // with its editing half
    QCOMPARE(menuTitle(window, 0), QStringLiteral("&Datei"));
    QCOMPARE(menuTitle(window, 1), QStringLiteral("&Bearbeiten"));
    QCOMPARE(menuTitle(window, 2), QStringLiteral("A&nsicht"));
    QCOMPARE(menuTitle(window, 3), QStringLiteral("&Laufwerk"));
    QCOMPARE(menuTitle(window, 4), QStringLiteral("&Einstellungen"));
    QCOMPARE(menuTitle(window, 5), QStringLiteral("&Hilfe"));
    QCOMPARE(window.infoPanel()->windowTitle(), QStringLiteral("Sektorinfo"));
    QCOMPARE(window.diskMap()->accessibleName(), QStringLiteral("Datenträgerkarte"));
    auto *dock = window.findChild<QDockWidget *>(QStringLiteral("pendingOperationsDock"));
    QVERIFY(dock);
    QCOMPARE(dock->windowTitle(), QStringLiteral("Ausstehende Vorgänge"));
}

void TranslationsTest::explanationsInGerman()
{
    AlignmentGeometry g; // 512/4096, 1 MiB grain
    AlignmentVerdict misaligned = judgeStart(63, g);
    QCOMPARE(misaligned.status, AlignmentStatus::Misaligned);
    QCOMPARE(misaligned.explanation(g),
             QStringLiteral("beginnt 3.584 Bytes hinter einer 4-KiB-Grenze: jeder "
                            "Schreibzugriff überspannt zwei physische Sektoren"));
    QCOMPARE(judgeStart(2048, g).explanation(g), QStringLiteral("beginnt an einer 1-MiB-Grenze"));
    QCOMPARE(judgeStart(40, g).explanation(g),
             QStringLiteral("beginnt an einem physischen 4-KiB-Sektor, aber 20.480 Bytes "
                            "hinter einer 1-MiB-Grenze"));
}

void TranslationsTest::numbersFollowTheCatalogue()
{
    QCOMPARE(humanSize(qint64(3) << 29), QStringLiteral("1,5 GiB"));
    QCOMPARE(humanSize(512), QStringLiteral("512 B"));
    QCOMPARE(groupedNumber(1048576), QStringLiteral("1.048.576"));
}

void TranslationsTest::mainActionsHaveShortcuts()
{
    // Keys work the same in every language (a translated "Ctrl+E" must stay a valid key).
    MainWindow window; // with its editing half
    const QList<QPair<const char *, QKeySequence>> expected = {
        {"openAction", QKeySequence(QKeySequence::Open)},
        {"refreshAction", QKeySequence(Qt::Key_F5)},
        {"quitAction", QKeySequence(Qt::CTRL | Qt::Key_Q)},
        {"preferencesAction", QKeySequence()},
        {"exportAction", QKeySequence(Qt::CTRL | Qt::Key_E)},
        {"undoAction", QKeySequence(QKeySequence::Undo)},
        {"redoAction", QKeySequence(QKeySequence::Redo)},
        {"applyAction", QKeySequence(Qt::CTRL | Qt::Key_Return)},
    };
    for (const auto &[name, keys] : expected) {
        auto *action = window.findChild<QAction *>(QString::fromLatin1(name));
        QVERIFY2(action, name);
        QVERIFY2(!action->shortcut().isEmpty(), name);
        if (!keys.isEmpty())
            QVERIFY2(action->shortcuts().contains(keys),
                     qPrintable(QStringLiteral("%1: %2").arg(
                         QString::fromLatin1(name),
                         action->shortcut().toString(QKeySequence::PortableText))));
    }
}

void TranslationsTest::contractNamesStayEnglish()
{
    // JSON and scripts read these: never translated.
    QCOMPARE(alignmentStatusName(AlignmentStatus::Misaligned), QStringLiteral("misaligned"));
    QCOMPARE(alignmentStatusName(AlignmentStatus::SectorAligned), QStringLiteral("sector-aligned"));
    QCOMPARE(alignmentStatusName(AlignmentStatus::Aligned), QStringLiteral("aligned"));
    QCOMPARE(alignmentStatusName(AlignmentStatus::Container), QStringLiteral("container"));
}

// The pending-operations dock and the Apply log show Operation::description().
void TranslationsTest::pendingOperationsInGerman()
{
    Operation create;
    create.type = Operation::Type::Create;
    create.kind = PartitionInfo::Kind::Logical;
    create.sizeBytes = 256LL << 20;
    create.filesystem = QStringLiteral("ext4");
    create.label = QStringLiteral("root");
    QCOMPARE(create.description(),
             QStringLiteral("Neue logische Partition (256 MiB), formatiert als ext4, "
                            "Bezeichnung „root“, ausgerichtet an MiB (das Raster)"));
    Operation move;
    move.type = Operation::Type::Resize;
    move.number = 2;
    move.startBytes = 1LL << 20;
    move.sizeBytes = 100LL << 20;
    QCOMPARE(move.description(),
             QStringLiteral("Partition 2 nach 1 MiB verschieben, Größe 100 MiB"));
    Operation flag;
    flag.type = Operation::Type::SetFlag;
    flag.number = 1;
    flag.flag = QStringLiteral("esp");
    flag.flagState = false;
    QCOMPARE(flag.description(), QStringLiteral("Markierung esp von Partition 1 entfernen"));

    // And why a dialog's choice cannot be placed (100 free sectors hold no MiB boundary).
    PlacementRequest tooSmall;
    tooSmall.freeStart = 34;
    tooSmall.freeEnd = 133;
    tooSmall.lastUsable = 133;
    QCOMPARE(placePartition(tooSmall, AlignmentGeometry()).error,
             QStringLiteral("Der freie Platz ist zu klein für eine ausgerichtete Partition."));
}

void TranslationsTest::cliStaysEnglish()
{
    QProcess cli;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LANG"), QStringLiteral("de_DE.UTF-8"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("de_DE.UTF-8"));
    env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("de"));
    cli.setProcessEnvironment(env);
    cli.start(pwtest::buildSetting("PARTWISE_CLI"), {QStringLiteral("check"), m_demo});
    QVERIFY(cli.waitForFinished(120000));
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    QVERIFY2(out.contains(QLatin1String("misaligned")), qPrintable(out));
    QVERIFY2(!out.contains(QLatin1String("falsch")) && !out.contains(QLatin1String("Grenze")),
             qPrintable(out));
    QVERIFY2(!out.contains(QRegularExpression(QStringLiteral("\\d,\\d GiB|\\d,\\d MiB"))),
             qPrintable(out));
}

void TranslationsTest::germanWindowScreenshots()
{
    MainWindow window; // with its editing half
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(guitest::openAndWait(window, m_demo));
    QVERIFY(window.statusText().contains(QLatin1String("falsch ausgerichtet")));
    // The info panel explains the selected (first misaligned) partition in German.
    QVERIFY2(window.infoPanel()->toPlainText().contains(QLatin1String("Erster Sektor: ")),
             qPrintable(window.infoPanel()->toPlainText()));
    qInfo("%s", qPrintable(guitest::saveScreenshot(&window, QStringLiteral("i18n-de-window"))));
    QMenu *file = window.menuBar()->actions().at(0)->menu();
    QVERIFY(file);
    file->popup(window.mapToGlobal(QPoint(0, window.menuBar()->height())));
    QVERIFY(QTest::qWaitForWindowExposed(file));
    qInfo("%s", qPrintable(guitest::saveScreenshot(file, QStringLiteral("i18n-de-file-menu"))));
    file->close();
    QMenu *edit = window.menuBar()->actions().at(1)->menu();
    edit->popup(window.mapToGlobal(QPoint(60, window.menuBar()->height())));
    QVERIFY(QTest::qWaitForWindowExposed(edit));
    qInfo("%s", qPrintable(guitest::saveScreenshot(edit, QStringLiteral("i18n-de-edit-menu"))));
    edit->close();
}

void TranslationsTest::darkPaletteScreenshot()
{
    // The window follows the palette it is given (a dark desktop theme): text and free space
    // come from the palette, filesystem fills pick black or white text by their brightness.
    const QPalette original = QApplication::palette();
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    dark.setColor(QPalette::ButtonText, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    QApplication::setPalette(dark);
    {
        MainWindow window; // with its editing half
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(guitest::openAndWait(window, m_demo));
        const QImage map = window.diskMap()->grab().toImage();
        // The map's background (outside the bar) is the dark window colour, not white.
        QVERIFY(map.pixelColor(1, 1).lightness() < 100);
        qInfo("%s",
              qPrintable(guitest::saveScreenshot(&window, QStringLiteral("i18n-de-window-dark"))));
    }
    QApplication::setPalette(original);
}

void TranslationsTest::dialogsInGerman()
{
    PreferencesDialog preferences{AlignmentPolicy()};
    QCOMPARE(preferences.windowTitle(), QStringLiteral("Einstellungen"));
    preferences.show();
    QVERIFY(QTest::qWaitForWindowExposed(&preferences));
    qInfo("%s",
          qPrintable(guitest::saveScreenshot(&preferences, QStringLiteral("i18n-de-preferences"))));
    PracticeDiskDialog practice(m_folder.path());
    QCOMPARE(practice.windowTitle(), QStringLiteral("Neuer Übungsdatenträger"));
    practice.show();
    QVERIFY(QTest::qWaitForWindowExposed(&practice));
    qInfo("%s",
          qPrintable(guitest::saveScreenshot(&practice, QStringLiteral("i18n-de-practice-disk"))));
}

void TranslationsTest::tsFileIsComplete()
{
    QString error;
    const QList<TsMessage> messages = readTs(kGermanTs, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(messages.size() > 250);
    QStringList problems;
    for (const TsMessage &m : messages) {
        if (m.type == QLatin1String("unfinished") || m.translation.isEmpty())
            problems << describe(m) + QStringLiteral(" has no German text");
        else if (m.type == QLatin1String("vanished") || m.type == QLatin1String("obsolete"))
            problems << describe(m) + QStringLiteral(" is no longer in the sources");
    }
    QVERIFY2(problems.isEmpty(),
             qPrintable(QStringLiteral("partwise_de.ts:\n") + problems.join(QLatin1Char('\n'))));
}

void TranslationsTest::translationsKeepPlaceholders()
{
    QString error;
    const QList<TsMessage> messages = readTs(kGermanTs, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QStringList problems;
    for (const TsMessage &m : messages) {
        if (m.translation.isEmpty() || m.numerus)
            continue;
        if (placeholders(m.source) != placeholders(m.translation))
            problems << describe(m) +
                            QStringLiteral(" → \"%1\": placeholders differ").arg(m.translation);
        if (hasMnemonic(m.source) != hasMnemonic(m.translation))
            problems << describe(m) + QStringLiteral(" → \"%1\": keyboard mnemonic (&) differs")
                                          .arg(m.translation);
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TranslationsTest::lupdateFindsNothingUnfinished()
{
    // lupdate over today's sources into a scratch copy: every string the window shows must
    // already have its German text in partwise_de.ts.
    const QString lupdate = pwtest::buildSetting("PARTWISE_LUPDATE");
    if (!QFileInfo::exists(lupdate))
        QSKIP("lupdate is not installed");
    QFile list(pwtest::buildSetting("PARTWISE_I18N_SOURCES_LIST"));
    QVERIFY2(list.open(QIODevice::ReadOnly), qPrintable(list.errorString()));
    const QStringList sources =
        QString::fromUtf8(list.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(sources.size() > 10);
    QTemporaryDir scratch;
    QVERIFY(scratch.isValid());
    const QString copy = scratch.filePath(QStringLiteral("partwise_de.ts"));
    QVERIFY(QFile::copy(kGermanTs, copy));
    QFile(copy).setPermissions(QFile::ReadOwner | QFile::WriteOwner);

    QStringList args{QStringLiteral("-I"),
                     (pwtest::buildSetting("PARTWISE_SOURCE_DIR") + QStringLiteral("/ui")),
                     QStringLiteral("-I"),
                     (pwtest::buildSetting("PARTWISE_SOURCE_DIR") + QStringLiteral("/core")),
                     QStringLiteral("-no-obsolete"),
                     QStringLiteral("-locations"),
                     QStringLiteral("none")};
    args << sources << QStringLiteral("-ts") << copy;
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(lupdate, args);
    QVERIFY(process.waitForFinished(120000));
    const QString output = QString::fromUtf8(process.readAll());
    QCOMPARE(process.exitCode(), 0);
    // lupdate warns about tr() it cannot attribute (e.g. tr() outside a class): such strings
    // never reach the catalogue.
    QStringList warnings;
    for (const QString &line : output.split(QLatin1Char('\n'))) {
        if (line.contains(QLatin1String("cannot be called without context")) ||
            line.contains(QLatin1String("Discarding unconsumed")))
            warnings << line;
    }
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char('\n'))));

    QString error;
    const QList<TsMessage> messages = readTs(copy, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QStringList unfinished;
    for (const TsMessage &m : messages)
        if (m.type == QLatin1String("unfinished") || m.translation.isEmpty())
            unfinished << describe(m);
    QVERIFY2(unfinished.isEmpty(),
             qPrintable(QStringLiteral("Strings without a German translation (run the "
                                       "update_translations target and translate them in "
                                       "resources/translations/partwise_de.ts):\n") +
                        unfinished.join(QLatin1Char('\n'))));
    QVERIFY2(messages.size() > 250, qPrintable(output));
}

QTEST_MAIN(TranslationsTest)
#include "tst_translations.moc"
