// What a caller of pkexec hands the root helper beyond its environment (core/cli/inheritedstate.h):
// resource limits, ignored and blocked signals, open descriptors, the current folder and the
// umask all survive pkexec's set-uid exec. A user the test creates owns the folder and the file
// the helper is started in and with; the state is set between fork and exec, where pkexec would
// leave it. The helper must serve as a service started clean would, or refuse to serve.
#include "buildsetting.h"
#include "cli/serveduser.h"
#include "clirun.h"
#include "filebytes.h"
#include "loopdevice.h"
#include "serveclient.h"
#include "testuser.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace pwtest;

namespace {

constexpr char kUser[] = "pwstartstate";

QJsonObject newTable()
{
    return QJsonObject{
        {"operations", QJsonArray{QJsonObject{{"op", "new-table"}, {"type", "gpt"}}}}};
}

QByteArray procFile(qint64 pid, const char *name)
{
    QFile file(QStringLiteral("/proc/%1/%2").arg(pid).arg(QLatin1String(name)));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The line of /proc/PID/limits or /proc/PID/status that starts with `label`, simplified.
QByteArray lineOf(const QByteArray &text, const QByteArray &label)
{
    for (const QByteArray &line : text.split('\n'))
        if (line.startsWith(label))
            return line.mid(label.size()).simplified();
    return {};
}

// CAP_SYS_RESOURCE (bit 24) in this process's effective set: only with it can root raise a hard
// limit a caller lowered. Containers often drop it.
bool mayRaiseHardLimits()
{
    const QByteArray caps = lineOf(procFile(::getpid(), "status"), "CapEff:");
    bool ok = false;
    const qulonglong bits = caps.toULongLong(&ok, 16);
    return ok && (bits & (1ULL << 24)) != 0;
}

// The newest table backup root made of `device` (named after it, in root's folder). The test's
// environment names PARTWISE_BACKUP_ROOT (tests/CMakeLists.txt); a helper started for a user
// must not follow it, its environment being reset, so the backup is here or nowhere.
QString newestBackupOf(const QString &device)
{
    const QDir backups(QStringLiteral("/var/backups/partwise"));
    const QString prefix = QFileInfo(device).fileName() + QLatin1Char('-');
    const QStringList made = backups.entryList({prefix + QLatin1Char('*')},
                                               QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
    return made.isEmpty() ? QString() : backups.filePath(made.first());
}

} // namespace

class TestServeStartState : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void limitsSignalsAndFilesOfTheCallerAreReset();
    void aHardLimitThatCannotBeLiftedEndsTheHelper();
    void localeValuesThatNamePathsAreDropped();

private:
    QTemporaryDir m_dir;
    QString m_home;
    TestUser m_user;
};

void TestServeStartState::initTestCase()
{
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    if (!runningAsRoot())
        return; // the locale test needs no root; the others skip (or fail under CI)
    QVERIFY2(m_user.create(QString::fromLatin1(kUser)), qPrintable(m_user.error()));
    QVERIFY(::chmod(QFile::encodeName(m_dir.path()).constData(), 0711) == 0);
    m_home = m_dir.filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(m_home));
    QVERIFY(::chown(QFile::encodeName(m_home).constData(), m_user.uid(), m_user.gid()) == 0);
    QVERIFY(::chmod(QFile::encodeName(m_home).constData(), 0700) == 0);
    const ToolResult held = m_user.asUser(QStringLiteral("echo mine > %1/held.txt").arg(m_home));
    QVERIFY2(held.ok(), qPrintable(held.describe()));
}

void TestServeStartState::cleanupTestCase()
{
    m_user.remove();
}

void TestServeStartState::limitsSignalsAndFilesOfTheCallerAreReset()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString disk = m_dir.filePath(QStringLiteral("disk.img"));
    QVERIFY(makeSparseFile(disk, 16 << 20));
    LoopDevice loop(disk);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));

    // Soft limits only: any user may lower them, and root lifts them back without privilege.
    const QByteArray held = QFile::encodeName(m_home + QStringLiteral("/held.txt"));
    const QByteArray home = QFile::encodeName(m_home);
    const auto hostile = [held, home] {
        const rlimit fileSize{4096, RLIM_INFINITY};
        ::setrlimit(RLIMIT_FSIZE, &fileSize); // root's 1 MiB table backups
        rlimit files{};
        ::getrlimit(RLIMIT_NOFILE, &files);
        files.rlim_cur = 16;
        ::setrlimit(RLIMIT_NOFILE, &files);
        rlimit stack{};
        ::getrlimit(RLIMIT_STACK, &stack);
        stack.rlim_cur = 65536; // glibc's thread stacks follow it
        ::setrlimit(RLIMIT_STACK, &stack);
        rlimit core{};
        ::getrlimit(RLIMIT_CORE, &core);
        core.rlim_cur = core.rlim_max;
        ::setrlimit(RLIMIT_CORE, &core);
        ::signal(SIGTERM, SIG_IGN);
        ::signal(SIGXFSZ, SIG_IGN);
        ::signal(SIGHUP, SIG_IGN);
        sigset_t blocked;
        sigemptyset(&blocked);
        sigaddset(&blocked, SIGINT);
        sigaddset(&blocked, SIGQUIT);
        sigaddset(&blocked, SIGUSR1);
        ::sigprocmask(SIG_BLOCK, &blocked, nullptr);
        const int fd = ::open(held.constData(), O_RDONLY); // the user's file, left open
        if (fd >= 0 && fd != 7)
            ::dup2(fd, 7);
        if (::chdir(home.constData()) != 0)
            ::_exit(99);
        ::umask(0);
    };
    ServeClient helper(m_user.pkexecEnvironment(), hostile);
    QVERIFY(helper.started());
    const QJsonObject answer =
        helper.call(QStringLiteral("apply"), {{"path", loop.path()}, {"plan", newTable()}});
    QVERIFY2(resultOf(answer).value(QStringLiteral("ok")).toBool(),
             qPrintable(describe(answer) + QString::fromLocal8Bit(helper.standardError())));

    // What an auditor reads of the running helper.
    const qint64 pid = helper.processId();
    const QByteArray limits = procFile(pid, "limits");
    QCOMPARE(lineOf(limits, "Max file size"), QByteArray("unlimited unlimited bytes"));
    QCOMPARE(lineOf(limits, "Max cpu time"), QByteArray("unlimited unlimited seconds"));
    QCOMPARE(lineOf(limits, "Max core file size"), QByteArray("0 0 bytes"));
    QCOMPARE(lineOf(limits, "Max stack size").split(' ').value(0), QByteArray("8388608"));
    QVERIFY2(lineOf(limits, "Max open files").split(' ').value(0).toULongLong() >= 1024,
             limits.constData());
    const QByteArray status = procFile(pid, "status");
    QCOMPARE(lineOf(status, "SigBlk:"), QByteArray("0000000000000000"));
    // Only SIGPIPE, which the helper ignores itself (a client gone mid-answer).
    QCOMPARE(lineOf(status, "SigIgn:"), QByteArray("0000000000001000"));
    QCOMPARE(lineOf(status, "Umask:"), QByteArray("0077"));
    QCOMPARE(QFile::symLinkTarget(QStringLiteral("/proc/%1/cwd").arg(pid)), QStringLiteral("/"));
    const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
    for (const QString &fd : fds.entryList(QDir::System | QDir::NoDotAndDotDot))
        QVERIFY2(QFile::symLinkTarget(fds.filePath(fd)) != QFile::decodeName(held),
                 qPrintable(QStringLiteral("the user's file is still open as %1").arg(fd)));
    QVERIFY(helper.closeAndWait(20000));

    // The table was written, and the backup taken before it is whole.
    const ToolResult table = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), loop.path()});
    QVERIFY2(table.out.contains("\"label\": \"gpt\""), qPrintable(table.describe()));
    const QString backup = newestBackupOf(loop.path());
    QVERIFY2(!backup.isEmpty(), "no table backup of the loop device");
    QCOMPARE(QFileInfo(backup + QStringLiteral("/first-mib.bin")).size(), qint64(1) << 20);
    QCOMPARE(QFileInfo(backup + QStringLiteral("/last-mib.bin")).size(), qint64(1) << 20);
    // Nothing in the user's folder from root (a core file, a journal).
    QCOMPARE(QDir(m_home).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList{QStringLiteral("held.txt")});
}

void TestServeStartState::aHardLimitThatCannotBeLiftedEndsTheHelper()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString disk = m_dir.filePath(QStringLiteral("hard.img"));
    QVERIFY(makeSparseFile(disk, 16 << 20));
    LoopDevice loop(disk);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    // Lowered for good: raising it again takes CAP_SYS_RESOURCE.
    const auto hostile = [] {
        const rlimit fileSize{4096, 4096};
        ::setrlimit(RLIMIT_FSIZE, &fileSize);
        ::signal(SIGXFSZ, SIG_IGN);
    };
    ServeClient helper(m_user.pkexecEnvironment(), hostile);
    QVERIFY(helper.started());
    const ToolResult before =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), loop.path()});
    QVERIFY(!before.out.contains("\"label\""));
    if (mayRaiseHardLimits()) {
        // Root with its capabilities lifts it and serves.
        const QJsonObject answer =
            helper.call(QStringLiteral("apply"), {{"path", loop.path()}, {"plan", newTable()}});
        QVERIFY2(resultOf(answer).value(QStringLiteral("ok")).toBool(),
                 qPrintable(describe(answer)));
        QVERIFY(helper.closeAndWait(20000));
        QCOMPARE(QFileInfo(newestBackupOf(loop.path()) + QStringLiteral("/first-mib.bin")).size(),
                 qint64(1) << 20);
        return;
    }
    // Without CAP_SYS_RESOURCE (a container): it ends before reading a request, saying why,
    // and the disk is as it was.
    helper.send(QStringLiteral("apply"), {{"path", loop.path()}, {"plan", newTable()}});
    QVERIFY(helper.closeAndWait(20000));
    QCOMPARE(helper.exitCode(), 2);
    const QByteArray why = helper.standardError();
    QVERIFY2(why.contains("file size limit it was started with (4096) cannot be lifted"),
             why.constData());
    const ToolResult after = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), loop.path()});
    QVERIFY2(!after.out.contains("\"label\""), qPrintable(after.describe()));
}

// glibc loads a locale, and gettext message catalogs, from a folder a locale value with a '/'
// names: such values are dropped, plain ones kept.
void TestServeStartState::localeValuesThatNamePathsAreDropped()
{
    qputenv("LANG", "de_DE.UTF-8");
    qputenv("LC_TIME", "en_GB.UTF-8");
    qputenv("LANGUAGE", "../../../../tmp/mine");
    qputenv("LC_MESSAGES", "/tmp/mine");
    qputenv("LC_CTYPE", "C.UTF-8%x");
    qputenv("GCONV_PATH", "/tmp/mine");
    partwise::resetEnvironmentForUser();
    QCOMPARE(qgetenv("LANG"), QByteArray("de_DE.UTF-8"));
    QCOMPARE(qgetenv("LC_TIME"), QByteArray("en_GB.UTF-8"));
    QVERIFY(!qEnvironmentVariableIsSet("LANGUAGE"));
    QVERIFY(!qEnvironmentVariableIsSet("LC_MESSAGES"));
    QVERIFY(!qEnvironmentVariableIsSet("LC_CTYPE"));
    QVERIFY(!qEnvironmentVariableIsSet("GCONV_PATH"));
}

QTEST_GUILESS_MAIN(TestServeStartState)
#include "tst_servestartstate.moc"
