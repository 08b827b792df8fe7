// The root helper's newer surfaces against a hostile local user (a user the test creates, the
// helper started as pkexec starts it, PKEXEC_UID naming them): labels, mount back, copy and paste
// sources, mounts on the user's folder, unmount of what is not the user's, swap the system turned
// on, journals left by another disk under the same name, and a client that never reads. The disk
// is the user's own image behind a loop device, as `udisksctl loop-setup` gives a desktop user one
// without a password. What happened is read with blkid, findmnt, swapon, sha256 and the kernel's
// own word on the effective uid, never with Partwise's code.
#include "buildsetting.h"
#include "clirun.h"
#include "device/diskidentity.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "ops/writejournal.h"
#include "serveclient.h"
#include "testuser.h"
#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace pwtest;

namespace {

constexpr char kUser[] = "pwsurfaces";
constexpr int kRefused = -32001;
constexpr char kSecret[] = "PARTWISE-ROOT-ONLY-SURFACE-SECRET-7d02";

// The user's image: XFS, ext4, swap and FAT, GPT (sectors of 512).
constexpr qint64 kXfsStart = 2048, kXfsSectors = 655360; // XFS needs 300 MiB
constexpr qint64 kExtStart = 657408, kExtSectors = 32768;
constexpr qint64 kSwapStart = 690176, kSwapSectors = 16384;
constexpr qint64 kFatStart = 706560, kFatSectors = 32768;

QString messageOf(const QJsonObject &answer)
{
    return answer.value(QStringLiteral("error"))
        .toObject()
        .value(QStringLiteral("message"))
        .toString();
}

QString blkidValue(const QString &device, const QString &tag)
{
    const ToolResult r = runTool(QStringLiteral("blkid"),
                                 {QStringLiteral("-p"), QStringLiteral("-o"),
                                  QStringLiteral("value"), QStringLiteral("-s"), tag, device});
    return QString::fromUtf8(r.out).chopped(r.out.endsWith('\n') ? 1 : 0);
}

QString findmnt(const QString &column, const QString &option, const QString &value)
{
    const ToolResult r =
        runTool(QStringLiteral("findmnt"),
                {QStringLiteral("-n"), QStringLiteral("-o"), column, option, value});
    return QString::fromLocal8Bit(r.out).trimmed();
}

bool swapIsOnPerKernel(const QString &device)
{
    const ToolResult r = runTool(QStringLiteral("swapon"),
                                 {QStringLiteral("--show=NAME"), QStringLiteral("--noheadings")});
    return QString::fromLocal8Bit(r.out).split(QLatin1Char('\n')).contains(device);
}

QJsonObject planOf(const QJsonObject &operation)
{
    return {{QStringLiteral("operations"), QJsonArray{operation}}};
}

} // namespace

class TestServeSurfaces : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void labelsReachNoShellOrOptionParser();
    void mountBackIsNosuidWithSafeErrors();
    void rootOnlyDiskIsNotHandedToTheUser();
    void theSystemsPlacesAreNotUnmounted();
    void swapTheSystemTurnedOnStaysOn();
    void journalOfAnotherDiskIsNeitherOfferedNorResumed();
    void unreadOutputDoesNotKeepTheHelperAlive();

private:
    QString node(int number) const { return m_loop->partitionNode(number); }

    QTemporaryDir m_dir;
    QString m_home, m_image, m_rootImage, m_script, m_marker;
    std::unique_ptr<LoopDevice> m_loop, m_rootLoop;
    TestUser m_user;
};

void TestServeSurfaces::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    m_home = m_dir.filePath(QStringLiteral("home"));
    QVERIFY2(m_user.create(QString::fromLatin1(kUser), QStringLiteral("/bin/sh"), m_home),
             qPrintable(m_user.error()));
    QVERIFY(::chmod(QFile::encodeName(m_dir.path()).constData(), 0711) == 0);
    QVERIFY(QDir().mkpath(m_home));
    QVERIFY(::chown(QFile::encodeName(m_home).constData(), m_user.uid(), m_user.gid()) == 0);
    m_image = m_home + QStringLiteral("/disk.img");
    QVERIFY(m_user.asUser(QStringLiteral("truncate -s 400M %1").arg(m_image)).ok());
    const QString table = QStringLiteral("label: gpt\nstart=%1, size=%2, type=linux\n"
                                         "start=%3, size=%4, type=linux\n"
                                         "start=%5, size=%6, type=swap\n"
                                         "start=%7, size=%8, type=linux\n")
                              .arg(kXfsStart)
                              .arg(kXfsSectors)
                              .arg(kExtStart)
                              .arg(kExtSectors)
                              .arg(kSwapStart)
                              .arg(kSwapSectors)
                              .arg(kFatStart)
                              .arg(kFatSectors);
    const ToolResult sfdisk =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), m_image}, table.toUtf8());
    QVERIFY2(sfdisk.ok(), qPrintable(sfdisk.describe()));
    m_loop = std::make_unique<LoopDevice>(m_image);
    QVERIFY2(m_loop->ok(), qPrintable(m_loop->error()));
    QVERIFY(m_loop->addPartitions());
    for (const QStringList &mkfs :
         {QStringList{QStringLiteral("mkfs.xfs"), QStringLiteral("-q"), node(1)},
          QStringList{QStringLiteral("mkfs.ext4"), QStringLiteral("-q"), QStringLiteral("-F"),
                      node(2)},
          QStringList{QStringLiteral("mkswap"), node(3)},
          QStringList{QStringLiteral("mkfs.vfat"), node(4)}}) {
        const ToolResult made = runTool(mkfs.first(), mkfs.mid(1));
        QVERIFY2(made.ok(), qPrintable(made.describe()));
    }
    // The user's script, which a label would run as root if any byte of it reached a shell: the
    // helper's folder is /, so "tmp/pS" names it.
    m_script = QStringLiteral("/tmp/pS");
    m_marker = QStringLiteral("/tmp/pS.ran");
    QFile::remove(m_script);
    QFile::remove(m_marker);
    QVERIFY(m_user
                .asUser(QStringLiteral("printf 'id -u > %1\\n' > %2 && chmod 755 %2")
                            .arg(m_marker, m_script))
                .ok());

    // Root's own disk: an image only root may read, whose filesystem holds a secret.
    const QString rootOnly = m_dir.filePath(QStringLiteral("root-only"));
    QVERIFY(QDir().mkpath(rootOnly + QStringLiteral("/content")));
    QVERIFY(::chmod(QFile::encodeName(rootOnly).constData(), 0700) == 0);
    QFile secret(rootOnly + QStringLiteral("/content/secret.txt"));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write(QByteArray(kSecret) + "\n");
    secret.close();
    m_rootImage = rootOnly + QStringLiteral("/root.img");
    QVERIFY(runTool(QStringLiteral("truncate"),
                    {QStringLiteral("-s"), QStringLiteral("24M"), m_rootImage})
                .ok());
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), m_rootImage},
                    "label: gpt\nstart=2048, size=40960, type=linux\n")
                .ok());
    m_rootLoop = std::make_unique<LoopDevice>(m_rootImage);
    QVERIFY2(m_rootLoop->ok(), qPrintable(m_rootLoop->error()));
    QVERIFY(m_rootLoop->addPartitions());
    const ToolResult filled =
        runTool(QStringLiteral("mkfs.ext4"),
                {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-d"),
                 rootOnly + QStringLiteral("/content"), m_rootLoop->partitionNode(1)});
    QVERIFY2(filled.ok(), qPrintable(filled.describe()));
}

void TestServeSurfaces::cleanupTestCase()
{
    if (m_loop) {
        const QString place =
            findmnt(QStringLiteral("TARGET"), QStringLiteral("--source"), node(2));
        if (!place.isEmpty())
            runTool(QStringLiteral("umount"), {place});
        runTool(QStringLiteral("swapoff"), {node(3)});
    }
    m_loop.reset();
    m_rootLoop.reset();
    QFile::remove(m_script);
    QFile::remove(m_marker);
    m_user.remove();
    runTool(QStringLiteral("rm"), {QStringLiteral("-rf"), QStringLiteral("/run/media/") + kUser});
}

// Every printable character and every shell and option metacharacter, through every op that
// hands a string to a tool (a label, set on its own or with a new filesystem): each label is set
// exactly (as the filesystem keeps it) or refused with nothing changed, and no command runs.
void TestServeSurfaces::labelsReachNoShellOrOptionParser()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QStringList labels{QStringLiteral("x ;sh<tmp/pS"), QStringLiteral("x;sh<tmp/pS"),
                       QStringLiteral("|sh<tmp/pS"),   QStringLiteral("&sh<tmp/pS"),
                       QStringLiteral("`sh<tmp/pS`"),  QStringLiteral("$(sh<tmp/pS)"),
                       QStringLiteral("a\nsh<tmp/pS"), QStringLiteral("-L"),
                       QStringLiteral("--help"),       QStringLiteral("x -U"),
                       QStringLiteral("'\";sh<tmp/pS")};
    QString printable;
    for (char c = 0x20; c < 0x7f; ++c)
        printable += QLatin1Char(c);
    for (qsizetype i = 0; i < printable.size(); i += 11)
        labels << printable.mid(i, 11);
    struct Target
    {
        int number;
        QString filesystem;
        int keeps; // the bytes of a label the filesystem keeps
        bool upper;
    };
    const QList<Target> targets{{1, QStringLiteral("xfs"), 12, false},
                                {2, QStringLiteral("ext4"), 16, false},
                                {3, QStringLiteral("swap"), 16, false},
                                {4, QStringLiteral("vfat"), 11, true}};
    ServeClient helper(m_user.pkexecEnvironment());
    QVERIFY(helper.started());
    int set = 0, refused = 0;
    for (const Target &t : targets) {
        for (const QString &label : std::as_const(labels)) {
            const QString before = blkidValue(node(t.number), QStringLiteral("LABEL"));
            const QJsonObject answer = helper.call(
                QStringLiteral("apply"),
                {{QStringLiteral("path"), m_loop->path()},
                 {QStringLiteral("plan"), planOf({{QStringLiteral("op"), QStringLiteral("label")},
                                                  {QStringLiteral("number"), t.number},
                                                  {QStringLiteral("label"), label}})}});
            const QString after = blkidValue(node(t.number), QStringLiteral("LABEL"));
            QVERIFY2(!QFile::exists(m_marker),
                     qPrintable(t.filesystem + QStringLiteral(": a command ran for ") + label));
            // Tools that take a label as one argument (e2label, swaplabel) take any text that
            // is not refused for every filesystem: no quote, backtick, '$', backslash or
            // control character, no leading '-'.
            const bool plain =
                !label.startsWith(QLatin1Char('-')) &&
                !label.contains(QRegularExpression(QStringLiteral("[\"'`$\\\\\\x00-\\x1f]")));
            if (plain &&
                (t.filesystem == QLatin1String("ext4") || t.filesystem == QLatin1String("swap")))
                QVERIFY2(errorCodeOf(answer) == 0,
                         qPrintable(label + QStringLiteral(": ") + describe(answer)));
            if (errorCodeOf(answer) != 0) {
                ++refused;
                QVERIFY2(!messageOf(answer).isEmpty(), qPrintable(describe(answer)));
                QCOMPARE(after, before);
                continue;
            }
            ++set;
            const QString kept = t.upper ? label.toUpper() : label;
            QVERIFY2(after == kept.left(t.keeps).trimmed() || after == kept.left(t.keeps),
                     qPrintable(QStringLiteral("%1: asked \"%2\", blkid says \"%3\"")
                                    .arg(t.filesystem, label, after)));
        }
    }
    // The report's attack: xfs_admin split this label at its space and ran the rest as root.
    // XFS takes no space here (xfs_db reads words); a tool that takes one argument sets it.
    const QString attack = QStringLiteral("x ;sh<tmp/pS");
    for (const int number : {1, 2}) {
        const QJsonObject answer = helper.call(
            QStringLiteral("apply"),
            {{QStringLiteral("path"), m_loop->path()},
             {QStringLiteral("plan"), planOf({{QStringLiteral("op"), QStringLiteral("label")},
                                              {QStringLiteral("number"), number},
                                              {QStringLiteral("label"), attack}})}});
        QVERIFY2(!QFile::exists(m_marker), "the label ran the user's script as root");
        if (number == 1)
            QVERIFY2(messageOf(answer).contains(QStringLiteral("without spaces")),
                     qPrintable(describe(answer)));
        else
            QCOMPARE(blkidValue(node(2), QStringLiteral("LABEL")), attack);
    }
    // A new filesystem with such a label: mkfs takes it as one argument.
    const QJsonObject formatted =
        helper.call(QStringLiteral("apply"),
                    {{QStringLiteral("path"), m_loop->path()},
                     {QStringLiteral("plan"),
                      planOf({{QStringLiteral("op"), QStringLiteral("format")},
                              {QStringLiteral("number"), 1},
                              {QStringLiteral("fs"), QStringLiteral("xfs")},
                              {QStringLiteral("label"), QStringLiteral("a b;sh<tmp")}})}},
                    300000);
    QVERIFY2(errorCodeOf(formatted) == 0, qPrintable(describe(formatted)));
    QCOMPARE(blkidValue(node(1), QStringLiteral("LABEL")), QStringLiteral("a b;sh<tmp"));
    QVERIFY(!QFile::exists(m_marker));
    qInfo("labels: %d set exactly, %d refused with nothing changed", set, refused);
}

// The helper unmounts a filesystem from where udisks mounts the user's, the user's image then
// carries another filesystem of the same UUID with a setuid-root program and errors=panic, and
// "mount back" puts it where the first one was: nosuid, nodev and errors=remount-ro, whatever
// the first one's options were.
void TestServeSurfaces::mountBackIsNosuidWithSafeErrors()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString place = QStringLiteral("/run/media/%1/stick").arg(kUser);
    QVERIFY(QDir().mkpath(place));
    QVERIFY(runTool(QStringLiteral("mount"), {node(2), place}).ok());
    QVERIFY(!findmnt(QStringLiteral("OPTIONS"), QStringLiteral("--mountpoint"), place)
                 .contains(QStringLiteral("nosuid")));
    ServeClient helper(m_user.pkexecEnvironment());
    QJsonObject answer =
        helper.call(QStringLiteral("unmount"),
                    {{QStringLiteral("path"), m_loop->path()}, {QStringLiteral("partition"), 2}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));

    // What the user brings, made offline: the same UUID, a setuid-root `id`, errors=panic.
    const QString evil = m_dir.filePath(QStringLiteral("evil.img"));
    const QString evilRoot = m_dir.filePath(QStringLiteral("evil"));
    QVERIFY(QDir().mkpath(evilRoot));
    QVERIFY(QFile::copy(QStringLiteral("/usr/bin/id"), evilRoot + QStringLiteral("/id")));
    QVERIFY(::chmod(QFile::encodeName(evilRoot + QStringLiteral("/id")).constData(), 04755) == 0);
    QVERIFY(runTool(QStringLiteral("truncate"),
                    {QStringLiteral("-s"), QString::number(kExtSectors * 512), evil})
                .ok());
    const ToolResult made =
        runTool(QStringLiteral("mkfs.ext4"),
                {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-U"),
                 blkidValue(node(2), QStringLiteral("UUID")), QStringLiteral("-e"),
                 QStringLiteral("panic"), QStringLiteral("-d"), evilRoot, evil});
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    QVERIFY(::chmod(QFile::encodeName(evil).constData(), 0644) == 0);
    const ToolResult copied =
        m_user.asUser(QStringLiteral("dd if=%1 of=%2 bs=512 seek=%3 conv=notrunc status=none")
                          .arg(evil, m_image)
                          .arg(kExtStart));
    QVERIFY2(copied.ok(), qPrintable(copied.describe()));
    runTool(QStringLiteral("blockdev"), {QStringLiteral("--flushbufs"), node(2)});

    answer = helper.call(QStringLiteral("mount"), {{QStringLiteral("path"), m_loop->path()},
                                                   {QStringLiteral("partition"), 2},
                                                   {QStringLiteral("back"), true}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    const QString options =
        findmnt(QStringLiteral("OPTIONS"), QStringLiteral("--mountpoint"), place);
    const ToolResult euid = m_user.asUser(place + QStringLiteral("/id -u"));
    runTool(QStringLiteral("umount"), {place});
    QVERIFY2(options.contains(QStringLiteral("nosuid")) &&
                 options.contains(QStringLiteral("nodev")),
             qPrintable(options));
    QVERIFY2(options.contains(QStringLiteral("errors=remount-ro")), qPrintable(options));
    QVERIFY2(euid.ok(), qPrintable(euid.describe()));
    QCOMPARE(QString::fromLatin1(euid.out).trimmed(), QString::number(m_user.uid()));

    // Mounted on the user's own folder, the same: errors=panic is not what root mounts.
    QVERIFY(m_user.asUser(QStringLiteral("mkdir -p %1/m").arg(m_home)).ok());
    answer = helper.call(QStringLiteral("mount"), {{QStringLiteral("path"), m_loop->path()},
                                                   {QStringLiteral("partition"), 2},
                                                   {QStringLiteral("folder"), m_home + "/m"}});
    QVERIFY2(errorCodeOf(answer) == 0, qPrintable(describe(answer)));
    const QString own = findmnt(QStringLiteral("OPTIONS"), QStringLiteral("--mountpoint"),
                                m_home + QStringLiteral("/m"));
    runTool(QStringLiteral("umount"), {m_home + QStringLiteral("/m")});
    QVERIFY2(own.contains(QStringLiteral("errors=remount-ro")), qPrintable(own));
}

// Root's own disk (an image only root may read) as the source of a copy or a paste onto the
// user's loop device, or mounted on the user's folder: refused, and the user's image unchanged.
void TestServeSurfaces::rootOnlyDiskIsNotHandedToTheUser()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QByteArray before = fileSha256(m_image);
    ServeClient helper(m_user.pkexecEnvironment());
    QList<QJsonObject> answers;
    for (const QString &method : {QStringLiteral("copy-plan"), QStringLiteral("copy")})
        answers << helper.call(method,
                               {{QStringLiteral("source"), m_rootLoop->path()},
                                {QStringLiteral("target"), m_loop->path()}},
                               300000);
    const QJsonObject paste{{QStringLiteral("op"), QStringLiteral("paste")},
                            {QStringLiteral("source"), m_rootLoop->path()},
                            {QStringLiteral("number"), 1}};
    for (const QString &method : {QStringLiteral("preview"), QStringLiteral("apply")})
        answers << helper.call(
            method,
            {{QStringLiteral("path"), m_loop->path()}, {QStringLiteral("plan"), planOf(paste)}},
            300000);
    QVERIFY(m_user.asUser(QStringLiteral("mkdir -p %1/r").arg(m_home)).ok());
    answers << helper.call(QStringLiteral("mount"), {{QStringLiteral("path"), m_rootLoop->path()},
                                                     {QStringLiteral("partition"), 1},
                                                     {QStringLiteral("folder"), m_home + "/r"}});
    answers << helper.call(QStringLiteral("mount"), {{QStringLiteral("path"), m_rootLoop->path()},
                                                     {QStringLiteral("partition"), 1},
                                                     {QStringLiteral("media"), true}});
    const QString mounted =
        findmnt(QStringLiteral("TARGET"), QStringLiteral("--source"), m_rootLoop->partitionNode(1));
    if (!mounted.isEmpty())
        runTool(QStringLiteral("umount"), {mounted});
    QCOMPARE(mounted, QString());
    for (const QJsonObject &answer : std::as_const(answers)) {
        QVERIFY2(errorCodeOf(answer) == kRefused, qPrintable(describe(answer)));
        QVERIFY2(messageOf(answer).contains(QStringLiteral("you may not read")),
                 qPrintable(describe(answer)));
    }
    QCOMPARE(fileSha256(m_image), before);
    QVERIFY(
        !m_user.asUser(QStringLiteral("grep -r %1 %2").arg(QLatin1String(kSecret), m_home)).ok());
    // The user's own disk is theirs to mount: the refusals are about whose bytes they are.
    const QJsonObject own =
        helper.call(QStringLiteral("mount"), {{QStringLiteral("path"), m_loop->path()},
                                              {QStringLiteral("partition"), 2},
                                              {QStringLiteral("folder"), m_home + "/r"}});
    QVERIFY2(errorCodeOf(own) == 0, qPrintable(describe(own)));
    QVERIFY(runTool(QStringLiteral("umount"), {m_home + QStringLiteral("/r")}).ok());
}

// The administrator's filesystem under /mnt (and under /media, outside the user's own folder)
// stays mounted: the user could otherwise mount it again on a folder of their own.
void TestServeSurfaces::theSystemsPlacesAreNotUnmounted()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    ServeClient helper(m_user.pkexecEnvironment());
    for (const QString &place : {QStringLiteral("/mnt/pwsurf-%1").arg(::getpid()),
                                 QStringLiteral("/media/pwsurf-%1").arg(::getpid())}) {
        QVERIFY(QDir().mkpath(place));
        QVERIFY(runTool(QStringLiteral("mount"), {m_rootLoop->partitionNode(1), place}).ok());
        const QJsonObject answer =
            helper.call(QStringLiteral("unmount"), {{QStringLiteral("path"), m_rootLoop->path()},
                                                    {QStringLiteral("partition"), 1}});
        const QString still =
            findmnt(QStringLiteral("SOURCE"), QStringLiteral("--mountpoint"), place);
        runTool(QStringLiteral("umount"), {place});
        QDir().rmdir(place);
        QVERIFY2(errorCodeOf(answer) == kRefused, qPrintable(describe(answer)));
        QCOMPARE(still, m_rootLoop->partitionNode(1));
    }
}

// Swap turned on by the system outside /etc/fstab (a systemd unit, GPT auto-swap) stays on.
void TestServeSurfaces::swapTheSystemTurnedOnStaysOn()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(runTool(QStringLiteral("swapon"), {node(3)}).ok());
    ServeClient helper(m_user.pkexecEnvironment());
    const QJsonObject answer =
        helper.call(QStringLiteral("swapoff"),
                    {{QStringLiteral("path"), m_loop->path()}, {QStringLiteral("partition"), 3}});
    const bool stillOn = swapIsOnPerKernel(node(3));
    runTool(QStringLiteral("swapoff"), {node(3)});
    QVERIFY2(errorCodeOf(answer) == kRefused, qPrintable(describe(answer)));
    QVERIFY(stillOn);
}

// A journal written while another disk had this /dev name: read-disk does not offer it, resume
// refuses it, and the disk now under that name keeps every byte. The same journal bound to this
// disk is offered, so the offer itself works.
void TestServeSurfaces::journalOfAnotherDiskIsNeitherOfferedNorResumed()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString other = m_home + QStringLiteral("/other.img");
    QVERIFY(m_user.asUser(QStringLiteral("truncate -s 16M %1").arg(other)).ok());
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), other},
                    "label: dos\nstart=63, size=16384, type=83\n")
                .ok());
    QVERIFY(m_user
                .asUser(QStringLiteral("dd if=/dev/urandom of=%1 bs=512 seek=63 count=16384 "
                                       "conv=notrunc status=none")
                            .arg(other))
                .ok());
    LoopDevice loop(other);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const QByteArray before = fileSha256(other);

    partwise::WriteJournal journal;
    journal.target = loop.path();
    journal.diskIdentity = partwise::diskIdentityOf(m_loop->path()); // the earlier disk
    QVERIFY(!journal.diskIdentity.isEmpty());
    journal.backupFolder = m_dir.filePath(QStringLiteral("backup"));
    partwise::PartitionMove move;
    move.number = 1;
    move.oldStart = 63;
    move.oldEnd = 63 + 16383;
    move.newStart = 2048;
    move.newEnd = 2048 + 16383 - 2048;
    journal.moves << move;
    journal.phases << partwise::WriteJournal::Phase::Pending;
    const QString path = partwise::WriteJournal::defaultPath(loop.path());
    QString error;
    QVERIFY2(journal.save(path, &error), qPrintable(error));

    ServeClient helper(m_user.pkexecEnvironment());
    const QJsonObject read =
        helper.call(QStringLiteral("read-disk"), {{QStringLiteral("path"), loop.path()}});
    const QJsonObject resumed =
        helper.call(QStringLiteral("resume"), {{QStringLiteral("path"), loop.path()}}, 300000);
    journal.diskIdentity = partwise::diskIdentityOf(loop.path());
    QVERIFY2(journal.save(path, &error), qPrintable(error));
    const QJsonObject offered =
        helper.call(QStringLiteral("read-disk"), {{QStringLiteral("path"), loop.path()}});
    partwise::WriteJournal::remove(path);
    QVERIFY2(errorCodeOf(read) == 0, qPrintable(describe(read)));
    QVERIFY2(!resultOf(read).contains(QStringLiteral("interrupted_journal")),
             qPrintable(describe(read)));
    QVERIFY2(errorCodeOf(resumed) != 0, qPrintable(describe(resumed)));
    QVERIFY2(messageOf(resumed).contains(QStringLiteral("another disk")),
             qPrintable(describe(resumed)));
    QCOMPARE(fileSha256(other), before);
    QCOMPARE(resultOf(offered).value(QStringLiteral("interrupted_journal")).toString(), path);
}

// A client that sends requests and never reads an answer, then closes its end: the helper ends
// within its grace periods all the same (its answers are dropped, not waited on).
void TestServeSurfaces::unreadOutputDoesNotKeepTheHelperAlive()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    int in[2], out[2];
    QVERIFY(::pipe2(in, O_CLOEXEC) == 0 && ::pipe2(out, O_CLOEXEC) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    const QByteArray cli = QFile::encodeName(cliPath());
    char *const argv[] = {const_cast<char *>(cli.constData()), const_cast<char *>("serve"),
                          nullptr};
    QList<QByteArray> environment;
    for (const QString &entry : m_user.pkexecEnvironment().toStringList())
        environment << entry.toLocal8Bit();
    QList<char *> envp;
    for (QByteArray &entry : environment)
        envp << entry.data();
    envp << nullptr;
    pid_t pid = -1;
    QCOMPARE(::posix_spawn(&pid, cli.constData(), &actions, nullptr, argv, envp.data()), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    // Far more answers than a pipe holds; the writes give up after a few seconds if the helper
    // stops reading, as a client would.
    ::fcntl(in[1], F_SETFL, O_NONBLOCK);
    QByteArray requests;
    for (int id = 1; id <= 5000; ++id)
        requests += QStringLiteral("{\"jsonrpc\":\"2.0\",\"id\":%1,\"method\":\"version\"}\n")
                        .arg(id)
                        .toUtf8();
    QElapsedTimer timer;
    timer.start();
    for (qsizetype sent = 0; sent < requests.size() && timer.elapsed() < 5000;) {
        const ssize_t n =
            ::write(in[1], requests.constData() + sent, size_t(requests.size() - sent));
        if (n > 0)
            sent += n;
        else
            QThread::msleep(20);
    }
    ::close(in[1]);
    int status = 0;
    pid_t waited = 0;
    timer.restart();
    while ((waited = ::waitpid(pid, &status, WNOHANG)) == 0 && timer.elapsed() < 90000)
        QThread::msleep(100);
    if (waited == 0) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
    }
    ::close(out[0]);
    QVERIFY2(waited == pid, "the helper was still running 90 s after its input ended");
    qInfo("the helper ended %lld ms after its input did", qint64(timer.elapsed()));
}

QTEST_GUILESS_MAIN(TestServeSurfaces)
#include "tst_servesurfaces.moc"
