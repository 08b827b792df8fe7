// The window and the wizards fit the screen, from 800×600 up. Run under Xvfb at 800×600,
// 900×700 and 1366×768 (ctest's gui_screenfit_*): the main window, the realignment wizard's
// intro, choose and plan pages, and the Copy Disk wizard's target, options and plan pages open
// inside the screen's available area, and every button a person can see on them lies inside it;
// a button outside any scroll area (Next, Back, Cancel, the confirmation boxes) is wholly in
// sight. Below 900 px of height the sector ruler starts hidden. Screenshots go to
// <build>/screenshots/screenfit-*-WxH.png.
#include "copy/copypages.h"
#include "copy/copywizard.h"
#include "copy/copyworker.h"
#include "ops/practicedisk.h"
#include "realign/realignpages.h"
#include "realign/realignwizard.h"
#include "realignguisupport.h"
#include "ruler/sectorrulerpanel.h"
#include "window/mainwindow.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGuiApplication>
#include <QLineEdit>
#include <QRadioButton>
#include <QScreen>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

namespace {

QRect screenArea()
{
    return QGuiApplication::primaryScreen()->availableGeometry();
}

QString sizeName()
{
    const QSize size = QGuiApplication::primaryScreen()->geometry().size();
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

// The part of `widget` its ancestors up to its window let be seen, in screen coordinates.
QRect seenPart(const QWidget *widget)
{
    QRect seen(widget->mapToGlobal(QPoint(0, 0)), widget->size());
    for (const QWidget *w = widget->parentWidget(); w; w = w->parentWidget()) {
        seen &= QRect(w->mapToGlobal(QPoint(0, 0)), w->size());
        if (w->isWindow())
            break;
    }
    return seen;
}

bool insideScrollArea(const QWidget *widget)
{
    for (const QWidget *w = widget->parentWidget(); w && !w->isWindow(); w = w->parentWidget())
        if (qobject_cast<const QScrollArea *>(w))
            return true;
    return false;
}

// What of `window` lies off the screen: its frame, and each button a person sees.
QStringList offScreen(QWidget *window, const QString &name)
{
    QStringList problems;
    const QRect screen = screenArea();
    if (!screen.contains(window->frameGeometry()))
        problems << QStringLiteral("%1: the window %2,%3 %4x%5 is not inside the screen's %6x%7")
                        .arg(name)
                        .arg(window->frameGeometry().x())
                        .arg(window->frameGeometry().y())
                        .arg(window->frameGeometry().width())
                        .arg(window->frameGeometry().height())
                        .arg(screen.width())
                        .arg(screen.height());
    for (QAbstractButton *button : window->findChildren<QAbstractButton *>()) {
        if (!button->isVisible())
            continue;
        const QRect seen = seenPart(button);
        const QString text = button->text().isEmpty() ? button->objectName() : button->text();
        if (!seen.isEmpty() && !screen.contains(seen))
            problems << QStringLiteral("%1: \"%2\" is off the screen").arg(name, text);
        else if (!insideScrollArea(button) &&
                 seen != QRect(button->mapToGlobal(QPoint(0, 0)), button->size()))
            problems << QStringLiteral("%1: \"%2\" is cut off").arg(name, text);
    }
    return problems;
}

template <typename T> T *child(QWidget *parent, const char *name)
{
    return parent->findChild<T *>(QLatin1String(name));
}

} // namespace

class ScreenFitTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void mainWindowFits();
    void realignWizardFits();
    void copyWizardFits();
    void cleanupTestCase();

private:
    // Problems of `window` as it is shown now, and its screenshot.
    void look(QWidget *window, const QString &name);
    QTemporaryDir m_dir;
    QString m_image;
    Window *m_window = nullptr;
    QStringList m_problems;
};

void ScreenFitTest::look(QWidget *window, const QString &name)
{
    QTest::qWait(150); // let the window manager, if any, place it
    m_problems << offScreen(window, name);
    const QRect frame = window->frameGeometry();
    qInfo("%s: frame %d,%d %dx%d, contents %dx%d", qPrintable(name), frame.x(), frame.y(),
          frame.width(), frame.height(), window->width(), window->height());
    qInfo("Screenshot: %s",
          qPrintable(screenshot(window, QStringLiteral("screenfit-%1-%2").arg(name, sizeName()))));
    // The whole screen as a person sees it, the window manager's title bar included.
    const QString whole =
        screenshot(window, QStringLiteral("screenfit-screen-%1-%2").arg(name, sizeName()));
    QGuiApplication::primaryScreen()->grabWindow(0).save(whole);
    qInfo("Screenshot: %s", qPrintable(whole));
}

void ScreenFitTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useFreshSettings(QStringLiteral("partwise-screenfit-tests"));
    qInfo("Screen %s, available %d,%d %dx%d", qPrintable(sizeName()), screenArea().x(),
          screenArea().y(), screenArea().width(), screenArea().height());
    // The disk `partwise --demo` opens: its plan page is the most crowded one.
    PracticeDiskSpec spec;
    spec.path = m_dir.filePath(QStringLiteral("demo.img"));
    spec.sizeBytes = qint64(256) << 20;
    spec.preset = PracticePreset::Demo;
    QString error;
    QVERIFY2(createPracticeDisk(spec, &error), qPrintable(error));
    m_image = spec.path;
    m_window = new Window(m_dir.filePath(QStringLiteral("backups")));
    QVERIFY(m_window->open(m_image));
}

void ScreenFitTest::mainWindowFits()
{
    SectorRulerPanel *ruler = installSectorRuler(&m_window->window);
    QVERIFY(QTest::qWaitForWindowExposed(&m_window->window));
    QCOMPARE(ruler->isVisible(), screenArea().height() >= 900);
    m_problems.clear();
    look(&m_window->window, QStringLiteral("window"));
    QVERIFY2(m_problems.isEmpty(), qPrintable(m_problems.join(QLatin1Char('\n'))));
}

void ScreenFitTest::realignWizardFits()
{
    m_problems.clear();
    RealignWizard *wizard = m_window->openWizard();
    QVERIFY(wizard);
    QVERIFY(QTest::qWaitForWindowExposed(wizard));
    look(wizard, QStringLiteral("realign-intro"));
    wizard->next();
    look(wizard, QStringLiteral("realign-choose"));
    RealignPlanPage *plan = nextToPlan(wizard);
    QVERIFY(plan);
    QVERIFY2(plan->prepared().ok, qPrintable(plan->prepared().error));
    look(wizard, QStringLiteral("realign-plan"));
    // What Realign waits for is in sight, not below the fold.
    QCheckBox *backup = child<QCheckBox>(wizard, "backupConfirm");
    QVERIFY(backup && backup->isVisible() && !insideScrollArea(backup));
    wizard->reject();
    QVERIFY2(m_problems.isEmpty(), qPrintable(m_problems.join(QLatin1Char('\n'))));
}

void ScreenFitTest::copyWizardFits()
{
    m_problems.clear();
    CopySetup setup;
    setup.sourceKey = setup.sourceName = setup.sourcePath = m_image;
    setup.sourceSizeBytes = QFileInfo(m_image).size();
    setup.sourceIsImage = true;
    setup.imageFolder = m_dir.path();
    CopyWizard wizard(setup, new CopyWorker);
    wizard.show();
    QVERIFY(QTest::qWaitForWindowExposed(&wizard));
    look(&wizard, QStringLiteral("copy-target"));
    child<QRadioButton>(&wizard, "copyToImage")->click();
    child<QLineEdit>(&wizard, "copyImagePath")->setText(m_dir.filePath(QStringLiteral("copy.img")));
    child<QDoubleSpinBox>(&wizard, "copyImageSize")->setValue(0.5); // GiB
    wizard.next();
    QTRY_COMPARE_WITH_TIMEOUT(wizard.currentId(), int(CopyWizard::OptionsPageId), 30000);
    look(&wizard, QStringLiteral("copy-options"));
    child<QRadioButton>(&wizard, "copyReplaces")->click();
    wizard.next();
    QTRY_VERIFY_WITH_TIMEOUT(!wizard.planPage()->planText().isEmpty(), 60000);
    look(&wizard, QStringLiteral("copy-plan"));
    QCheckBox *confirm = child<QCheckBox>(&wizard, "copyConfirm");
    QVERIFY(confirm && confirm->isVisible() && !insideScrollArea(confirm));
    wizard.reject();
    QVERIFY2(m_problems.isEmpty(), qPrintable(m_problems.join(QLatin1Char('\n'))));
}

void ScreenFitTest::cleanupTestCase()
{
    delete m_window;
}

QTEST_MAIN(ScreenFitTest)
#include "tst_screenfit.moc"
