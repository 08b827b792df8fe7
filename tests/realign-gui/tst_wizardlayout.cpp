// The realignment wizard must be readable at its default size (900×700) and on a 1024×768
// screen. On the demo practice disk (the one `partwise --demo` opens) the plan page is crowded:
// no two visible labels, buttons or fields of it may overlap, and none may be squeezed below
// what its text needs. The result page shows every check in full, a long warning too.
// Screenshots go to <build>/screenshots/realign-*-layout-*.png for a person to look at; their
// paths are printed.
#include "layoutproblems.h"
#include "ops/practicedisk.h"
#include "realign/realignpages.h"
#include "realign/realignwaychooser.h"
#include "realign/realignwizard.h"
#include "realignguisupport.h"
#include "uitranslations.h"

#include <QAbstractButton>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace partwise;

namespace {

// screenshot() of `widget`, the language in its name when it is not English.
QString shot(QWidget *widget, const QString &name)
{
    const QString language = qEnvironmentVariable("PARTWISE_TEST_LANGUAGE");
    return screenshot(widget, language.isEmpty() ? name : name + QLatin1Char('-') + language);
}

// Where `text` is shown on `page` in full: "" when a visible label shows it whole, or a visible
// list row shows it unclipped and unelided; otherwise what is wrong.
QString shownWhole(QWidget *page, const QString &text)
{
    for (QLabel *label : page->findChildren<QLabel *>()) {
        if (label->text() != text || !label->isVisibleTo(page))
            continue;
        if (label->wordWrap() && label->heightForWidth(label->width()) > label->height() + 2)
            return QStringLiteral("\"%1\" is cut off at its label's bottom").arg(text);
        return QString();
    }
    for (QTreeWidget *tree : page->findChildren<QTreeWidget *>()) {
        const QList<QTreeWidgetItem *> items = tree->findItems(text, Qt::MatchExactly);
        if (items.isEmpty() || !tree->isVisibleTo(page))
            continue;
        const QRect row = tree->visualItemRect(items.first());
        if (!tree->viewport()->rect().contains(row))
            return QStringLiteral("\"%1\" is outside its list's %2 px")
                .arg(text)
                .arg(tree->viewport()->height());
        const int needed = tree->fontMetrics().horizontalAdvance(text) + tree->iconSize().width();
        if (needed > row.width())
            return QStringLiteral("\"%1\" needs %2 px, its row is %3")
                .arg(text)
                .arg(needed)
                .arg(row.width());
        return QString();
    }
    return QStringLiteral("\"%1\" is not shown").arg(text);
}

} // namespace

class RealignWizardLayoutTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void planPageIsReadable_data();
    void planPageIsReadable();
    void resultPageShowsEveryCheck();
    void introAndChoosePagesAreReadable();
    void cleanupTestCase();

private:
    // The current page at both sizes: its problems, and a screenshot of each.
    void lookAtCurrentPage(const QString &name);

    QTemporaryDir m_dir;
    QString m_image;
    Window *m_window = nullptr;
    RealignWizard *m_wizard = nullptr;
    RealignPlanPage *m_plan = nullptr;
    QStringList m_earlyProblems; // of the intro and choose pages
};

void RealignWizardLayoutTest::lookAtCurrentPage(const QString &name)
{
    for (const QSize size : {QSize(900, 700), QSize(1024, 768)}) {
        m_wizard->resize(size);
        qInfo("Screenshot: %s", qPrintable(shot(m_wizard, QStringLiteral("realign-%1-layout-%2x%3")
                                                              .arg(name)
                                                              .arg(size.width())
                                                              .arg(size.height()))));
        for (const QString &problem : layoutProblems(m_wizard->currentPage()))
            m_earlyProblems << QStringLiteral("%1 at %2×%3: %4")
                                   .arg(name)
                                   .arg(size.width())
                                   .arg(size.height())
                                   .arg(problem);
    }
}

void RealignWizardLayoutTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useFreshSettings(QStringLiteral("partwise-realign-plan-layout-tests"));
    // The same pages in another language (ctest's gui_realign_layout_de): longer words.
    const QString language = qEnvironmentVariable("PARTWISE_TEST_LANGUAGE");
    if (!language.isEmpty())
        QVERIFY2(UiTranslations::install(qApp, QLocale(language)), qPrintable(language));
    const QString missing = missingTool(
        {QStringLiteral("mkfs.ext4"), QStringLiteral("mkfs.fat"), QStringLiteral("mkswap")});
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing));
    // The disk `partwise --demo` opens: misaligned FAT, ext4 and swap, primary and logical.
    PracticeDiskSpec spec;
    spec.path = m_dir.filePath(QStringLiteral("demo.img"));
    spec.sizeBytes = qint64(512) << 20;
    spec.preset = PracticePreset::Demo;
    QString error;
    QVERIFY2(createPracticeDisk(spec, &error), qPrintable(error));
    m_image = spec.path;

    m_window = new Window(m_dir.filePath(QStringLiteral("backups")));
    QVERIFY(m_window->open(m_image));
    m_wizard = m_window->openWizard();
    QVERIFY(m_wizard);
    lookAtCurrentPage(QStringLiteral("intro"));
    m_wizard->next();
    QVERIFY(!m_wizard->choosePage()->checkedPartitions().isEmpty());
    lookAtCurrentPage(QStringLiteral("choose"));
    m_plan = nextToPlan(m_wizard);
    QVERIFY(m_plan);
    QVERIFY2(m_plan->prepared().ok, qPrintable(m_plan->prepared().error));
    // The demo disk is crowded: the page shows ways to make room and moves.
    QVERIFY(m_plan->wayChooser()->isVisible());
    QVERIFY(m_plan->moveTable()->topLevelItemCount() > 0);
}

void RealignWizardLayoutTest::planPageIsReadable_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("default 900x700") << QSize(900, 700);
    QTest::newRow("screen 1024x768") << QSize(1024, 768);
}

void RealignWizardLayoutTest::planPageIsReadable()
{
    QFETCH(QSize, size);
    QVERIFY(m_plan);
    m_wizard->resize(size);
    QTest::qWait(100);
    // The wizard may not be smaller than this: it must fit the screen it is named for.
    QVERIFY2(
        m_wizard->width() <= size.width() && m_wizard->height() <= size.height(),
        qPrintable(
            QStringLiteral("the wizard is %1×%2").arg(m_wizard->width()).arg(m_wizard->height())));
    const QString path = shot(
        m_wizard, QStringLiteral("realign-plan-layout-%1x%2").arg(size.width()).arg(size.height()));
    qInfo("Screenshot: %s", qPrintable(path));
    // And scrolled to its end, where the backup is confirmed.
    if (auto *scroll = m_plan->findChild<QScrollArea *>()) {
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        qInfo("Screenshot: %s",
              qPrintable(shot(m_wizard, QStringLiteral("realign-plan-layout-%1x%2-end")
                                            .arg(size.width())
                                            .arg(size.height()))));
        scroll->verticalScrollBar()->setValue(0);
    }
    const QStringList problems = layoutProblems(m_plan);
    for (const QString &problem : problems)
        qWarning("%s", qPrintable(problem)); // all of them: QVERIFY2 cuts its message short
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    // Cannot pass by finding nothing: the ways' buttons were among the widgets looked at.
    QVERIFY(m_plan->findChildren<QAbstractButton *>().size() >= 3);
}

void RealignWizardLayoutTest::resultPageShowsEveryCheck()
{
    // A run that checked five filesystems and could not check one: the warning is long.
    RealignSetup setup;
    setup.target = m_image;
    setup.layout = *m_window->window.currentLayout();
    setup.policy = m_window->window.alignmentPolicy();
    RealignWizard wizard(setup);
    RealignResult result;
    result.ok = true;
    for (int n : {1, 2, 5, 6})
        result.checks << QStringLiteral("partition %1 (ext4): clean").arg(n);
    result.checks << QStringLiteral("partition 7 (swap): recreated with its UUID and label");
    result.checks << QStringLiteral(
        "partition 9 (vfat): not checked before it moved: fsck.fat could not read the "
        "filesystem in the image without a loop device, and only root can create one; check it "
        "yourself with fsck.fat -n before you trust its files");
    wizard.state()->setOutcome(result, setup.layout, setup.layout, true, false);
    wizard.setStartId(RealignWizard::ResultPageId);
    wizard.resize(900, 700);
    wizard.show();
    wizard.restart();
    QVERIFY(QTest::qWaitForWindowExposed(&wizard));
    RealignResultPage *page = wizard.resultPage();
    QCOMPARE(page->checkLines(), result.checks);
    // The checks are at the page's end: scrolled there, as a person would.
    if (auto *scroll = page->findChild<QScrollArea *>())
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    qInfo("Screenshot: %s",
          qPrintable(shot(&wizard, QStringLiteral("realign-result-layout-900x700"))));
    QStringList problems = layoutProblems(page);
    for (const QString &check : result.checks) {
        const QString wrong = shownWhole(page, check);
        if (!wrong.isEmpty())
            problems << wrong;
    }
    for (const QString &problem : problems)
        qWarning("%s", qPrintable(problem));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void RealignWizardLayoutTest::introAndChoosePagesAreReadable()
{
    for (const QString &problem : std::as_const(m_earlyProblems))
        qWarning("%s", qPrintable(problem));
    QVERIFY2(m_earlyProblems.isEmpty(), qPrintable(m_earlyProblems.join(QLatin1Char('\n'))));
}

void RealignWizardLayoutTest::cleanupTestCase()
{
    if (m_wizard)
        m_wizard->reject();
    delete m_window;
}

QTEST_MAIN(RealignWizardLayoutTest)
#include "tst_wizardlayout.moc"
