// The Preferences' folder for move journals, for a live-session user whose default journal
// folder is in memory: the dialog says whether a folder survives a power cut, and a disk's
// realignment (and the wizard's warning) follow the folder chosen. Needs root: a tmpfs is
// mounted and the disk is a loop device (images keep their journals beside them).

#include "journalpreferences.h"
#include "loopdevice.h"
#include "preferencesdialog.h"
#include "realignguisupport.h"
#include "toolrun.h"

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using pwtest::runTool;

class JournalFolderTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void dialogSaysWhetherAFolderSurvivesAPowerCut();
    void realignmentOfADiskUsesThePreferredFolder();

private:
    // The wizard's warning about the journal's place on the plan page, for the disk at `path`.
    QString planWarning(const QString &path);

    QTemporaryDir m_dir;
    QString m_ram; // a tmpfs, as the root of a live session is
};

void JournalFolderTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    useFreshSettings(QStringLiteral("partwise-journal-folder-tests"));
    PW_REQUIRE_ROOT_OR_SKIP();
    m_ram = m_dir.filePath(QStringLiteral("ram"));
    QVERIFY(QDir().mkpath(m_ram));
    QVERIFY(runTool(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"),
                                              QStringLiteral("pwtest"), m_ram})
                .ok());
}

void JournalFolderTest::cleanupTestCase()
{
    QSettings().clear();
    if (!m_ram.isEmpty())
        runTool(QStringLiteral("umount"), {QStringLiteral("-l"), m_ram});
}

void JournalFolderTest::dialogSaysWhetherAFolderSurvivesAPowerCut()
{
    PreferencesDialog dialog{AlignmentPolicy()};
    auto *folder = dialog.findChild<QLineEdit *>(QStringLiteral("journalFolder"));
    auto *hint = dialog.findChild<QLabel *>(QStringLiteral("journalHint"));
    QVERIFY(folder && hint);
    QCOMPARE(dialog.journalFolder(), QString()); // the default until one is chosen

    dialog.setJournalFolder(m_ram);
    QVERIFY2(hint->text().contains(QLatin1String("tmpfs")), qPrintable(hint->text()));
    QVERIFY(hint->text().contains(QLatin1String("power cut")));
    screenshot(&dialog, QStringLiteral("preferences-journal-in-memory"));

    // /var/tmp is on a disk (/tmp may be a tmpfs itself).
    folder->setText(QStringLiteral("/var/tmp"));
    QVERIFY2(!hint->text().contains(QLatin1String("tmpfs")), qPrintable(hint->text()));
    QCOMPARE(dialog.journalFolder(), QStringLiteral("/var/tmp"));
}

QString JournalFolderTest::planWarning(const QString &path)
{
    Window w(m_dir.filePath(QStringLiteral("backups")));
    if (!w.open(path))
        return QStringLiteral("(not opened)");
    return w.planJournalWarning();
}

void JournalFolderTest::realignmentOfADiskUsesThePreferredFolder()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    TestDisk disk;
    QString error;
    QVERIFY2(buildDisk(m_dir.path(), QStringLiteral("usb"), DiskShape{1 << 20}, &disk, &error),
             qPrintable(error));
    pwtest::LoopDevice loop(disk.image);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const QString device = QFileInfo(loop.path()).fileName();

    // In memory, as the default folder of a live session would be: the wizard warns and says
    // where the way out is.
    JournalPreferences::setFolder(m_ram);
    {
        Window w(m_dir.filePath(QStringLiteral("backups")));
        QCOMPARE(w.realign->journalPathFor(loop.path()),
                 m_ram + QLatin1Char('/') + device + QStringLiteral(".partwise-move.realign"));
        // An image keeps its journal beside it, whatever the preference.
        QVERIFY(w.realign->journalPathFor(disk.image).startsWith(disk.image));
    }
    const QString inMemory = planWarning(loop.path());
    QVERIFY2(inMemory.contains(QLatin1String("tmpfs")) &&
                 inMemory.contains(QLatin1String("Preferences")),
             qPrintable(inMemory));

    // A folder on a disk: no warning.
    QTemporaryDir onDisk(QStringLiteral("/var/tmp/pw-journals-XXXXXX"));
    QVERIFY(onDisk.isValid());
    JournalPreferences::setFolder(onDisk.path());
    QCOMPARE(planWarning(loop.path()), QString());
}

QTEST_MAIN(JournalFolderTest)
#include "tst_journalfolder.moc"
