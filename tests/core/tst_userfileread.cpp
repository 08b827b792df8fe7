// A file read with a user's rights (base/userfileread): what the user may not read stays unread,
// also when the root process was started with SIGCHLD ignored (a disposition that survives exec:
// the kernel then reaps the reading child itself, and a wait that failed once counted as the
// child's success, turning a root-only key file into an empty passphrase).
#include "base/userfileread.h"
#include "loopdevice.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/stat.h>

using namespace partwise;

class TestUserFileRead : public QObject
{
    Q_OBJECT

private slots:
    void readableAndRootOnly_data()
    {
        QTest::addColumn<bool>("ignoreChildren");
        QTest::newRow("SIGCHLD at its default") << false;
        QTest::newRow("SIGCHLD ignored") << true;
    }

    void readableAndRootOnly()
    {
        QFETCH(bool, ignoreChildren);
        PW_REQUIRE_ROOT_OR_SKIP(); // only root can take another user's rights
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(::chmod(QFile::encodeName(dir.path()).constData(), 0755) == 0);
        const QString open = dir.filePath(QStringLiteral("open.key"));
        const QString secret = dir.filePath(QStringLiteral("secret.key"));
        for (const QString &path : {open, secret}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write("words") == 5);
        }
        QVERIFY(::chmod(QFile::encodeName(open).constData(), 0644) == 0);
        QVERIFY(::chmod(QFile::encodeName(secret).constData(), 0600) == 0);
        const uid_t nobody = 65534;

        const auto old = ::signal(SIGCHLD, ignoreChildren ? SIG_IGN : SIG_DFL);
        QByteArray readOpen, readSecret;
        QString whyOpen, whySecret;
        const bool openRead = readFileAsUser(open, nobody, 1024, &readOpen, &whyOpen);
        const bool secretRead = readFileAsUser(secret, nobody, 1024, &readSecret, &whySecret);
        ::signal(SIGCHLD, old);

        QVERIFY2(!secretRead, "a file only root may read was read for the user");
        QVERIFY(readSecret.isEmpty());
        QVERIFY(!whySecret.isEmpty());
        // Ignored, a child's exit status is lost: the read fails closed rather than trusting it.
        if (!ignoreChildren) {
            QVERIFY2(openRead, qPrintable(whyOpen));
            QCOMPARE(readOpen, QByteArray("words"));
        } else {
            QVERIFY(!openRead);
        }
    }
};

QTEST_GUILESS_MAIN(TestUserFileRead)
#include "tst_userfileread.moc"
