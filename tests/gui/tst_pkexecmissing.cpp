// "Open This Computer's Disks" where pkexec cannot get permission: polkit missing, no agent,
// the password refused, the question closed. pkexec is a stand-in (PARTWISE_PKEXEC) that says
// on stderr what the real one says in each case (polkit's own words, seen on Debian 12) and
// exits as it does. The notice says plainly why nothing started and which Debian packages to
// install, never "exit status 127", and Close, not Connect Again, is what Enter presses.
#include "guitestsupport.h"
#include "helper/remotemachines.h"
#include "window/mainwindow.h"

#include <QAbstractButton>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

class PkexecMissingTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void noticeSaysWhy_data();
    void noticeSaysWhy();

private:
    QTemporaryDir m_dir;
};

void PkexecMissingTest::noticeSaysWhy_data()
{
    QTest::addColumn<QString>("said");
    QTest::addColumn<int>("status");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("polkit missing")
        << "Error getting authority: Error initializing authority: Could not connect: No such "
           "file or directory"
        << 127 << QStringList{"cannot be started", "polkit", "not installed", "polkitd", "pkexec"};
    QTest::newRow("no agent") << "Error executing command as another user: No authentication "
                                 "agent found."
                              << 127 << QStringList{"cannot be started", "no polkit agent"};
    QTest::newRow("refused") << "Error executing command as another user: Not authorized" << 127
                             << QStringList{"cannot be started", "did not allow it"};
    QTest::newRow("dismissed") << "" << 126 << QStringList{"password question was closed"};
}

void PkexecMissingTest::noticeSaysWhy()
{
    QFETCH(QString, said);
    QFETCH(int, status);
    QFETCH(QStringList, expected);
    const QString pkexec = m_dir.filePath(QStringLiteral("pkexec-%1").arg(status));
    QFile script(pkexec);
    QVERIFY(script.open(QIODevice::WriteOnly | QIODevice::Truncate));
    script.write(
        QStringLiteral("#!/bin/sh\necho '%1' >&2\nexit %2\n").arg(said).arg(status).toUtf8());
    script.close();
    QVERIFY(script.setPermissions(script.permissions() | QFileDevice::ExeOwner));
    qputenv("PARTWISE_PKEXEC", QFile::encodeName(pkexec));

    MainWindow window;
    window.show();
    RemoteMachines *machines = installRemoteMachines(&window);
    QSignalSpy lost(machines, &RemoteMachines::machineLost);
    machines->connectToThisMachine();
    QVERIFY(lost.wait(30000));
    QMessageBox *notice = machines->deathNotice();
    QVERIFY(notice);
    QTRY_VERIFY(notice->isVisible());
    const QString text = notice->text() + QLatin1Char(' ') + notice->informativeText();
    for (const QString &words : expected)
        QVERIFY2(text.contains(words), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("exit status")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("lost the connection")), qPrintable(text));
    QVERIFY(notice->defaultButton());
    QCOMPARE(notice->defaultButton(), notice->button(QMessageBox::Close));
    if (status == 127 && said.contains(QStringLiteral("authority")))
        guitest::saveScreenshot(notice, QStringLiteral("pkexec-polkit-missing"));
    notice->close();
}

QTEST_MAIN(PkexecMissingTest)
#include "tst_pkexecmissing.moc"
