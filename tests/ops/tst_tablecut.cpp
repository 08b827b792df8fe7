// Power cuts while an Apply writes partition tables (ops/journaledtablecommit.h): a GPT disk
// given three partitions, and an MBR disk given a primary, an extended and three logical
// partitions (each a commit that rewrites the chain of EBRs). The Apply runs in a child that
// stops dead once the k-th table's redo record is committed; then none, the first half, all but
// the last, or a random part of its blocks (one torn at a sector) reach the image, as a drive's
// cache would. `resume` must then finish the job with the table an uncut Apply leaves, as
// `sfdisk -J` reads it, `sgdisk -v` finding no problem in a GPT (both headers and arrays agree)
// and `sfdisk --verify` none in an MBR; no journal or record left. Once more with a second cut
// during resume.
#include "ops/applyrunner.h"
#include "ops/jobresume.h"
#include "ops/planfile.h"

#include "fuseserverhold.h"
#include "loopdevice.h"
#include "redocut.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <dirent.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace partwise;
using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;
const char kTableLine[] = "blocks of the new table journaled in ";

QString journalOf(const QString &image)
{
    return image + QStringLiteral(".partwise-move.realign");
}

// Each partition's number, start, size, type and name, as sfdisk reads them.
QStringList tableOf(const QString &image)
{
    const SfdiskTable t = SfdiskTable::read(image);
    QStringList rows;
    for (const SfdiskPartition &p : t.partitions)
        rows << QStringLiteral("%1 %2 %3 %4 %5")
                    .arg(p.number)
                    .arg(p.start)
                    .arg(p.size)
                    .arg(p.type, p.entry.value(QStringLiteral("name")).toString());
    return t.ok ? rows : QStringList{t.error};
}

// What the table's own checkers say: empty when they find nothing wrong.
QString tableProblems(const QString &image, bool gpt)
{
    const ToolResult r =
        gpt ? runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), image})
            : runTool(QStringLiteral("sfdisk"), {QStringLiteral("--verify"), image});
    const QString out = QString::fromUtf8(r.out + r.err);
    const bool clean = r.ok() && (gpt ? out.contains(QLatin1String("No problems found"))
                                      : out.contains(QLatin1String("No errors detected")));
    return clean ? QString() : out;
}

struct Disk
{
    QString name;
    QByteArray script; // sfdisk's
    QByteArray plan;
    int commits = 0;
    bool gpt = false;
    QString pristine;
    QStringList table; // what an uncut Apply leaves
};

} // namespace

class TestTableCut : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QList<Disk> m_disks;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    bool apply(const Disk &disk, const QString &image,
               const std::function<void(const QString &)> &log) const
    {
        QList<Operation> ops;
        QString error;
        if (!parsePlan(disk.plan, &ops, &error))
            return false;
        ApplyOptions options;
        options.backupRoot = path(QStringLiteral("backups"));
        ApplyCallbacks callbacks;
        callbacks.log = log;
        return applyOperations(image, ops, options, callbacks).ok;
    }

    static QString resume(const QString &image, const std::function<void(const QString &)> &log)
    {
        RealignCallbacks callbacks;
        callbacks.log = log;
        const RealignResult r = resumeWriteJob(image, journalOf(image), callbacks);
        return r.ok ? QString() : QStringLiteral("resume failed: ") + r.error;
    }

    void expectFinished(const Disk &disk, const QString &image, const QString &state);

private slots:
    void initTestCase();
    void cutWhileRenamed_data();
    void cutWhileRenamed();
    void cutWhileTableWritten_data();
    void cutWhileTableWritten();
    void secondCutDuringResume();
    void killedInTheMiddleOfTheWrite();

private:
    void prepareTableDisks();
};

void TestTableCut::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // the copy-on-write view is served through /dev/fuse
    QVERIFY(m_dir.isValid());
    m_disks = {
        {QStringLiteral("gpt"),
         "label: gpt\n",
         R"({"operations":[{"op":"create","size":"8MiB","name":"one"},
             {"op":"create","size":"8MiB","name":"two"},{"op":"create","size":"rest"}]})",
         3,
         true,
         {},
         {}},
        // Logical partitions 5 and 6 with a gap between them: a partition made in the gap, the
        // first logical deleted and another one added each rewrite the chain of EBRs.
        {QStringLiteral("mbr"),
         "label: dos\nstart=2048, size=8192, type=83\nstart=16384, size=98304, type=5\n"
         "start=20480, size=8192, type=83\nstart=61440, size=8192, type=83\n",
         R"({"operations":[{"op":"create","kind":"logical","start":"20MiB","size":"2MiB"},
             {"op":"delete","number":5},
             {"op":"create","kind":"logical","size":"4MiB"}]})",
         3,
         false,
         {},
         {}},
    };
    prepareTableDisks();
}

void TestTableCut::prepareTableDisks()
{
    for (Disk &disk : m_disks) {
        QString error;
        disk.pristine = path(disk.name + QStringLiteral(".img"));
        QVERIFY2(SfdiskTable::writeImage(disk.pristine, 64 * kMiB, disk.script, &error),
                 qPrintable(error));
        const QString reference = path(disk.name + QStringLiteral("-reference.img"));
        QVERIFY(QFile::copy(disk.pristine, reference));
        int commits = 0;
        QVERIFY(apply(disk, reference, [&](const QString &line) {
            commits += line.contains(QLatin1String(kTableLine)) ? 1 : 0;
        }));
        // Every table write went through a record.
        QCOMPARE(commits, disk.commits);
        disk.table = tableOf(reference);
        QCOMPARE(disk.table.size(), disk.gpt ? 3 : 5);
        QCOMPARE(tableProblems(reference, disk.gpt), QString());
        QFile::remove(reference);
    }
}

void TestTableCut::expectFinished(const Disk &disk, const QString &image, const QString &state)
{
    QVERIFY2(tableOf(image) == disk.table,
             qPrintable(state + u'\n' + tableOf(image).join(u'\n') + QStringLiteral("\nnot\n") +
                        disk.table.join(u'\n')));
    const QString problems = tableProblems(image, disk.gpt);
    QVERIFY2(problems.isEmpty(), qPrintable(state + u'\n' + problems));
    // The job is over: neither its journal nor a record of it is left.
    const QFileInfo journal(journalOf(image));
    const QStringList left =
        journal.dir().entryList({journal.fileName() + QStringLiteral("*")}, QDir::Files);
    QVERIFY2(left.isEmpty(), qPrintable(left.join(u' ')));
}

// Hides /dev/fuse from this process (a child of the test) behind an empty file, as on a kernel
// without FUSE: the table is then committed to a scratch image of its sectors.
static bool hideFuse(const QString &stub)
{
    return ::unshare(CLONE_NEWNS) == 0 &&
           ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
           ::mount(QFile::encodeName(stub).constData(), "/dev/fuse", nullptr, MS_BIND, nullptr) ==
               0;
}

void TestTableCut::cutWhileTableWritten_data()
{
    QTest::addColumn<int>("disk");
    QTest::addColumn<int>("record");
    QTest::addColumn<int>("reach");
    QTest::addColumn<bool>("fuse");
    // With the record ignored on resume, every state but the first fails: Partwise refuses a
    // GPT whose two copies disagree, or the partition a Create made is gone from a chain of EBRs
    // cut short. (The MBR's delete and the next create: secondCutDuringResume.)
    const struct
    {
        int disk, record;
        Reach reach;
    } states[] = {{0, 1, Reach::None},      {0, 1, Reach::AllButLast}, {0, 2, Reach::RandomTorn},
                  {0, 3, Reach::FirstHalf}, {1, 1, Reach::FirstHalf},  {1, 1, Reach::RandomTorn}};
    for (const auto &s : states)
        QTest::addRow("%s, table %d, %s", s.disk == 0 ? "gpt" : "mbr", s.record, reachName(s.reach))
            << s.disk << s.record << int(s.reach) << true;
    // Without FUSE the record comes from the scratch image; the same cuts recover.
    QTest::newRow("no fuse, gpt, table 2, random torn")
        << 0 << 2 << int(Reach::RandomTorn) << false;
    QTest::newRow("no fuse, mbr, table 1, first half") << 1 << 1 << int(Reach::FirstHalf) << false;
}

void TestTableCut::cutWhileTableWritten()
{
    QFETCH(int, disk);
    QFETCH(int, record);
    QFETCH(int, reach);
    QFETCH(bool, fuse);
    const Disk &d = m_disks[disk];
    const QString image = path(QStringLiteral("cut.img"));
    QFile::remove(image);
    QVERIFY(QFile::copy(d.pristine, image));
    const QString note = path(QStringLiteral("cut.note"));
    const QString stub = path(QStringLiteral("no-fuse"));
    const QString scratchUsed = path(QStringLiteral("scratch.used"));
    QFile::remove(scratchUsed);
    QVERIFY(QFile(stub).open(QIODevice::WriteOnly));
    QCOMPARE(runUntilCommit(kTableLine, record, note,
                            [&](const std::function<void(const QString &)> &log) {
                                if (!fuse && !hideFuse(stub))
                                    return false;
                                return apply(d, image, [&](const QString &line) {
                                    if (line.contains(QLatin1String("no copy-on-write view")))
                                        QFile(scratchUsed).open(QIODevice::WriteOnly);
                                    log(line);
                                });
                            }),
             kStoppedAtCommit);
    QCOMPARE(QFile::exists(scratchUsed), !fuse);
    qint64 blocks = 0;
    QString error;
    QVERIFY2(reachImage(image, note, Reach(reach), quint32(disk * 100 + record * 10 + reach),
                        &blocks, &error),
             qPrintable(error));
    const QString resumed = resume(image, {});
    QVERIFY2(resumed.isEmpty(), qPrintable(resumed));
    expectFinished(d, image, QString::fromLatin1(QTest::currentDataTag()));
    QFile::remove(image);
}

// Cut while the MBR's partition in the gap is made (the first half of its table reached), then
// again while `resume` deletes the first logical partition (a random part, one torn); a second
// resume finishes.
void TestTableCut::secondCutDuringResume()
{
    const Disk &d = m_disks[1];
    const QString image = path(QStringLiteral("twice.img"));
    QVERIFY(QFile::copy(d.pristine, image));
    const QString note = path(QStringLiteral("twice.note"));
    QCOMPARE(runUntilCommit(kTableLine, 1, note,
                            [&](const std::function<void(const QString &)> &log) {
                                return apply(d, image, log);
                            }),
             kStoppedAtCommit);
    qint64 blocks = 0;
    QString error;
    QVERIFY2(reachImage(image, note, Reach::FirstHalf, 1, &blocks, &error), qPrintable(error));
    // Resume writes the cut record again (no new record), so its first commit is the delete's.
    QCOMPARE(runUntilCommit(kTableLine, 1, note,
                            [&](const std::function<void(const QString &)> &log) {
                                return resume(image, log).isEmpty();
                            }),
             kStoppedAtCommit);
    QVERIFY2(reachImage(image, note, Reach::RandomTorn, 2, &blocks, &error), qPrintable(error));
    const QString resumed = resume(image, {});
    QVERIFY2(resumed.isEmpty(), qPrintable(resumed));
    expectFinished(d, image, QStringLiteral("second cut during resume"));
    QFile::remove(image);
}

namespace {

// The FUSE view `client` has open (its file's folder is the mount point), or an empty string.
// Read with readlink() alone: anything that looks at the file would wait for its held server.
QString viewMountOf(pid_t client)
{
    const QByteArray fds = "/proc/" + QByteArray::number(client) + "/fd/";
    DIR *folder = ::opendir(fds.constData());
    QString found;
    while (const dirent *entry = folder ? ::readdir(folder) : nullptr) {
        char target[4096];
        const ssize_t n = ::readlink((fds + entry->d_name).constData(), target, sizeof target);
        const QString path = QFile::decodeName(QByteArray(target, n > 0 ? int(n) : 0));
        if (path.endsWith(QLatin1String("/fuse/window")))
            found = path.section(u'/', 0, -2);
    }
    if (folder)
        ::closedir(folder);
    return found;
}

bool isMounted(const QString &mountPoint)
{
    QFile table(QStringLiteral("/proc/self/mountinfo"));
    if (!table.open(QIODevice::ReadOnly))
        return true;
    const QByteArray needle = ' ' + QFile::encodeName(mountPoint) + ' ';
    return table.readAll().contains(needle);
}

// The FUSE connection of the mount on `mountPoint`: its device's minor number (mountinfo's
// third field), without asking its server (which may be gone).
QString fuseConnectionOf(const QString &mountPoint)
{
    QFile table(QStringLiteral("/proc/self/mountinfo"));
    if (!table.open(QIODevice::ReadOnly))
        return QString();
    for (const QByteArray &line : table.readAll().split('\n')) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() > 4 && fields[4] == QFile::encodeName(mountPoint))
            return QString::fromLatin1(fields[2].mid(fields[2].indexOf(':') + 1));
    }
    return QString();
}

template <typename Done> bool waitUntil(int timeoutMs, Done done)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        QThread::msleep(10);
    }
    return true;
}

} // namespace

// SIGKILL while libparted writes the GPT through the view, at the worst instant: the view's
// server has read the write request and not yet answered it (held there by ptrace). The killed
// Apply must exit once the server answers, the view's mount must go, and `resume` finish the
// job. With the server a thread of the Apply's own process, the Apply never exited (the kernel
// waits out a request its server has read, and the server had died with the process).
void TestTableCut::killedInTheMiddleOfTheWrite()
{
    const Disk &d = m_disks[0];
    const QString image = path(QStringLiteral("killed.img"));
    QFile::remove(image);
    QVERIFY(QFile::copy(d.pristine, image));
    // The killed Apply's children (the view's server, the mount's keeper) are reaped here.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    const pid_t client = ::fork();
    if (client == 0)
        ::_exit(apply(d, image, {}) ? 0 : 2);
    bool reaped = false;
    const auto reapOnFailure = qScopeGuard([&] {
        if (!reaped) {
            ::kill(client, SIGKILL);
            ::waitpid(client, nullptr, 0);
        }
    });
    FuseServerHold hold(client, "partwise-cow", 30000);
    QVERIFY2(hold.held(), qPrintable(hold.error()));
    const QString mountPoint = viewMountOf(client);
    QVERIFY(!mountPoint.isEmpty());
    QCOMPARE(::kill(client, SIGKILL), 0);
    hold.release();
    int status = 0;
    const bool exited =
        waitUntil(10000, [&] { return ::waitpid(client, &status, WNOHANG) == client; });
    if (!exited) { // leave no unkillable process behind: abort the view's connection by hand
        const QByteArray connections = "/sys/fs/fuse/connections";
        const bool mounted = ::mount("none", connections.constData(), "fusectl", 0, nullptr) == 0;
        QFile abort(
            QStringLiteral("/sys/fs/fuse/connections/%1/abort").arg(fuseConnectionOf(mountPoint)));
        if (abort.open(QIODevice::WriteOnly))
            abort.write("1");
        abort.close();
        waitUntil(10000, [&] { return ::waitpid(client, &status, WNOHANG) == client; });
        if (mounted)
            ::umount(connections.constData());
    }
    reaped = true;
    QVERIFY2(exited, "the killed Apply did not exit");
    QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    QVERIFY2(waitUntil(10000, [&] { return !isMounted(mountPoint); }), qPrintable(mountPoint));
    QVERIFY(waitUntil(10000, [&] {
        while (::waitpid(-1, nullptr, WNOHANG) > 0) {
        }
        return !taskAlive(hold.task()) && ::waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD;
    }));
    ::prctl(PR_SET_CHILD_SUBREAPER, 0);
    const QString resumed = resume(image, {});
    QVERIFY2(resumed.isEmpty(), qPrintable(resumed));
    expectFinished(d, image, QStringLiteral("killed in the middle of the write"));
    QFile::remove(image);
}

// Apply's stand-alone Label and New UUID on an ext4 (fs/journaledresize.h's runToolJournaled):
// cut once the label's or the UUID's record is committed, part of it reaching the image; resume
// finishes with the new label, a UUID other than the old one, and e2fsck -fn clean. With the
// record ignored (the tool run again), the UUID's state fails: e2fsck refuses the half-renumbered
// ext4 before tune2fs runs. (e2label's one superblock write is redone either way.)
void TestTableCut::cutWhileRenamed_data()
{
    QTest::addColumn<int>("record");
    QTest::addColumn<int>("reach");
    QTest::newRow("label, the first half reached") << 1 << int(Reach::FirstHalf);
    QTest::newRow("uuid, a random part reached, one torn") << 2 << int(Reach::RandomTorn);
}

void TestTableCut::cutWhileRenamed()
{
    QFETCH(int, record);
    QFETCH(int, reach);
    const QString image = path(QStringLiteral("renamed.img"));
    QFile::remove(image);
    QString error;
    QVERIFY2(
        SfdiskTable::writeImage(image, 24 * kMiB, "label: gpt\nstart=2048, size=32768\n", &error),
        qPrintable(error));
    const ToolResult made =
        runTool(QStringLiteral("mkfs.ext4"),
                {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-E"),
                 QStringLiteral("offset=1048576"), image, QStringLiteral("16M")});
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    const auto probe = [&](const QString &tag) {
        return QString::fromUtf8(runTool(QStringLiteral("blkid"),
                                         {QStringLiteral("-p"), QStringLiteral("-O"),
                                          QStringLiteral("1048576"), QStringLiteral("-s"), tag,
                                          QStringLiteral("-o"), QStringLiteral("value"), image})
                                     .out)
            .trimmed();
    };
    const QString oldUuid = probe(QStringLiteral("UUID"));
    QVERIFY(!oldUuid.isEmpty());
    Disk disk;
    disk.plan = R"({"operations":[{"op":"label","number":1,"label":"renamed"},
                  {"op":"new-uuid","number":1}]})";
    const QString note = path(QStringLiteral("renamed.note"));
    QCOMPARE(runUntilCommit("changed blocks journaled in ", record, note,
                            [&](const std::function<void(const QString &)> &log) {
                                return apply(disk, image, log);
                            }),
             kStoppedAtCommit);
    qint64 blocks = 0;
    QVERIFY2(reachImage(image, note, Reach(reach), quint32(record), &blocks, &error),
             qPrintable(error));
    const QString resumed = resume(image, {});
    QVERIFY2(resumed.isEmpty(), qPrintable(resumed));
    QCOMPARE(probe(QStringLiteral("LABEL")), QStringLiteral("renamed"));
    const QString newUuid = probe(QStringLiteral("UUID"));
    QVERIFY2(!newUuid.isEmpty() && newUuid != oldUuid, qPrintable(newUuid));
    // e2fsck reads a filesystem from a file's first byte: the partition copied out.
    const QString copy = path(QStringLiteral("renamed-fs.img"));
    const ToolResult cut =
        runTool(QStringLiteral("dd"), {QStringLiteral("if=") + image, QStringLiteral("of=") + copy,
                                       QStringLiteral("bs=1M"), QStringLiteral("skip=1"),
                                       QStringLiteral("count=16"), QStringLiteral("status=none")});
    QVERIFY2(cut.ok(), qPrintable(cut.describe()));
    const ToolResult fsck = runTool(QStringLiteral("e2fsck"), {QStringLiteral("-fn"), copy});
    QVERIFY2(fsck.ok(), qPrintable(fsck.describe() + QString::fromUtf8(fsck.out)));
    QFile::remove(copy);
    QFile::remove(image);
}

QTEST_GUILESS_MAIN(TestTableCut)
#include "tst_tablecut.moc"
