// Root's own files and folders (journals, table backups) against another user who plants links
// and folders on the way (core/base/nofollowfile.h): a new file is never created through a
// link, a folder chain is made 0700 whatever the umask, and a folder another user owns or a
// link anywhere on the way is refused with nothing created beyond it.
#include "base/atomicfile.h"
#include "base/nofollowfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstring>
#include <sys/resource.h>

#include <sys/stat.h>
#include <unistd.h>

using namespace partwise;

namespace {

mode_t modeOf(const QString &path)
{
    struct stat st;
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode & 07777 : 0;
}

} // namespace

class TestNoFollowFile : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void atomicWriteReplacesAPlantedLinkInsteadOfFollowingIt();
    void aShortAtomicWriteSaysWhyAndLeavesNothing();
    void foldersAreMadePrivateWhateverTheUmask();
    void linksAndForeignFoldersOnTheWayAreRefused();
    void boundedReadsRefuseLinksPipesAndGiants();

private:
    QTemporaryDir m_dir;
};

void TestNoFollowFile::atomicWriteReplacesAPlantedLinkInsteadOfFollowingIt()
{
    const QString victim = m_dir.filePath(QStringLiteral("victim"));
    QFile v(victim);
    QVERIFY(v.open(QIODevice::WriteOnly) && v.write("untouched") == 9);
    v.close();
    const QString target = m_dir.filePath(QStringLiteral("journal"));
    QVERIFY(QFile::link(victim, target + QStringLiteral(".new"))); // the temporary name
    QVERIFY(QFile::link(victim, target));                          // and the final one
    const AtomicWrite written = writeFileAtomically(target, "journal text");
    QVERIFY2(written.ok(), qPrintable(written.reason));
    QFile check(victim);
    QVERIFY(check.open(QIODevice::ReadOnly));
    QCOMPARE(check.readAll(), QByteArray("untouched"));
    QVERIFY(!QFileInfo(target).isSymLink());
    QCOMPARE(modeOf(target), mode_t(0600));
}

// A file size limit (or a full disk) cuts a write short: the reason is the system's, and neither
// the file nor a partial temporary one is left.
void TestNoFollowFile::aShortAtomicWriteSaysWhyAndLeavesNothing()
{
    const QString target = m_dir.filePath(QStringLiteral("backup.bin"));
    rlimit old{};
    QVERIFY(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    const rlimit small{4096, old.rlim_max};
    const auto oldHandler = ::signal(SIGXFSZ, SIG_IGN);
    QVERIFY(::setrlimit(RLIMIT_FSIZE, &small) == 0);
    const AtomicWrite written = writeFileAtomically(target, QByteArray(8192, 'x'));
    ::setrlimit(RLIMIT_FSIZE, &old);
    ::signal(SIGXFSZ, oldHandler);
    QVERIFY(!written.ok());
    QCOMPARE(written.reason, QString::fromLocal8Bit(std::strerror(EFBIG)));
    QVERIFY(!QFile::exists(target));
    QVERIFY(!QFile::exists(written.tempPath));
}

void TestNoFollowFile::foldersAreMadePrivateWhateverTheUmask()
{
    const mode_t old = ::umask(0);
    QString why;
    const QString leaf = m_dir.filePath(QStringLiteral("a/b/c"));
    const bool made = makePrivateFolder(leaf, &why);
    ::umask(old);
    QVERIFY2(made, qPrintable(why));
    QCOMPARE(modeOf(m_dir.filePath(QStringLiteral("a"))), mode_t(0700));
    QCOMPARE(modeOf(m_dir.filePath(QStringLiteral("a/b"))), mode_t(0700));
    QCOMPARE(modeOf(leaf), mode_t(0700));
}

void TestNoFollowFile::linksAndForeignFoldersOnTheWayAreRefused()
{
    const QString elsewhere = m_dir.filePath(QStringLiteral("elsewhere"));
    QVERIFY(QDir().mkpath(elsewhere));
    QVERIFY(QFile::link(elsewhere, m_dir.filePath(QStringLiteral("link"))));
    QString why;
    QVERIFY(!makePrivateFolder(m_dir.filePath(QStringLiteral("link/moves")), &why));
    QVERIFY(!QFileInfo::exists(elsewhere + QStringLiteral("/moves")));
    // A folder anyone may write to, without the sticky bit.
    const QString open = m_dir.filePath(QStringLiteral("open"));
    QVERIFY(QDir().mkpath(open));
    QVERIFY(::chmod(QFile::encodeName(open).constData(), 0777) == 0);
    QVERIFY(!makePrivateFolder(open + QStringLiteral("/moves"), &why));
    QVERIFY2(why.contains(QStringLiteral("another user")), qPrintable(why));
    if (::geteuid() == 0) { // a folder of another user's, as only root can make one
        const QString theirs = m_dir.filePath(QStringLiteral("theirs"));
        QVERIFY(QDir().mkpath(theirs));
        QVERIFY(::chown(QFile::encodeName(theirs).constData(), 65534, 65534) == 0);
        QVERIFY(!makePrivateFolder(theirs + QStringLiteral("/moves"), &why));
        QVERIFY(!QFileInfo::exists(theirs + QStringLiteral("/moves")));
    }
}

void TestNoFollowFile::boundedReadsRefuseLinksPipesAndGiants()
{
    const QString small = m_dir.filePath(QStringLiteral("small"));
    QFile f(small);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write("12345") == 5);
    f.close();
    QByteArray out;
    QString why;
    QVERIFY(readRegularFileBounded(small, 5, &out, &why));
    QCOMPARE(out, QByteArray("12345"));
    QVERIFY(!readRegularFileBounded(small, 4, &out, &why));
    const QString link = m_dir.filePath(QStringLiteral("small-link"));
    QVERIFY(QFile::link(small, link));
    QVERIFY(!readRegularFileBounded(link, 100, &out, &why));
    QVERIFY(!readRegularFileBounded(QStringLiteral("/dev/zero"), 100, &out, &why));
    const QString fifo = m_dir.filePath(QStringLiteral("fifo"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    QVERIFY(!readRegularFileBounded(fifo, 100, &out, &why)); // at once: no writer is awaited
    if (::geteuid() == 0) { // another user's file, as one planted beside root's image in /tmp
        QVERIFY(::chown(QFile::encodeName(small).constData(), 65534, 65534) == 0);
        QVERIFY(!readRegularFileBounded(small, 100, &out, &why));
        QVERIFY2(why.contains(QStringLiteral("another user")), qPrintable(why));
    }
}

QTEST_GUILESS_MAIN(TestNoFollowFile)
#include "tst_nofollowfile.moc"
