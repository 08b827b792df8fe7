// Where a move journal survives a power cut: not in memory (tmpfs, or an overlay whose
// writable layer is tmpfs, as on a live USB session). Checked on real mounts, and through
// `partwise-cli realign`, which must say so before it moves anything.
#include "buildsetting.h"
#include "clirun.h"
#include "diskimagebuilder.h"
#include "loopdevice.h"
#include "move/journaldurability.h"
#include "toolrun.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using namespace partwise::move;
using namespace pwtest;

namespace {

// A mount for the length of a test; unmounted (lazily, if busy) on destruction.
class ScopedMount
{
public:
    ScopedMount(const QStringList &args, const QString &where) : m_where(where)
    {
        QDir().mkpath(where);
        const ToolResult r = runTool(QStringLiteral("mount"), args + QStringList{where});
        m_ok = r.ok();
        if (!m_ok)
            m_error = r.describe();
    }
    ~ScopedMount()
    {
        if (m_ok)
            runTool(QStringLiteral("umount"), {QStringLiteral("-l"), m_where});
    }
    bool ok() const { return m_ok; }
    QString error() const { return m_error; }

private:
    QString m_where;
    QString m_error;
    bool m_ok = false;
};

} // namespace

class JournalDurabilityTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void diskFolderSurvives();
    void tmpfsDoesNot();
    void liveSessionOverlayDoesNot();
    void overlayOnDiskSurvives();
    void realignWarnsBeforeMoving();

private:
    QTemporaryDir m_dir{QStringLiteral("/var/tmp/pw-journal-XXXXXX")}; // /tmp may be tmpfs
};

void JournalDurabilityTest::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // tmpfs and overlay mounts
    QVERIFY(m_dir.isValid());
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
}

void JournalDurabilityTest::diskFolderSurvives()
{
    // /var/tmp is on a disk (FHS: it survives reboots); the folder need not exist yet.
    const JournalDurability d = journalDurability(m_dir.filePath(QStringLiteral("a/b/j.move")));
    QVERIFY2(d.survivesPowerCut, qPrintable(d.warning));
    QVERIFY(d.warning.isEmpty());
}

void JournalDurabilityTest::tmpfsDoesNot()
{
    const QString where = m_dir.filePath(QStringLiteral("ram"));
    ScopedMount ram({QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("pwtest")},
                    where);
    QVERIFY2(ram.ok(), qPrintable(ram.error()));
    const JournalDurability d = journalDurability(where + QStringLiteral("/moves/j.move"));
    QVERIFY(!d.survivesPowerCut);
    QCOMPARE(d.filesystem, QStringLiteral("tmpfs"));
    QVERIFY2(d.warning.contains(QLatin1String("--journal")), qPrintable(d.warning));
}

void JournalDurabilityTest::liveSessionOverlayDoesNot()
{
    // A live session's root: the read-only image below, a tmpfs for the changes above.
    const QString ram = m_dir.filePath(QStringLiteral("overlay-rw"));
    ScopedMount rw({QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("pwtest")}, ram);
    QVERIFY2(rw.ok(), qPrintable(rw.error()));
    QVERIFY(QDir().mkpath(ram + QStringLiteral("/upper")) &&
            QDir().mkpath(ram + QStringLiteral("/work")));
    const QString lower = m_dir.filePath(QStringLiteral("lower"));
    QVERIFY(QDir().mkpath(lower + QStringLiteral("/var/lib")));
    const QString root = m_dir.filePath(QStringLiteral("live-root"));
    ScopedMount overlay(
        {QStringLiteral("-t"), QStringLiteral("overlay"), QStringLiteral("pwtest"),
         QStringLiteral("-o"),
         QStringLiteral("lowerdir=%1,upperdir=%2/upper,workdir=%2/work").arg(lower, ram)},
        root);
    QVERIFY2(overlay.ok(), qPrintable(overlay.error()));
    const JournalDurability d =
        journalDurability(root + QStringLiteral("/var/lib/partwise/moves/loop0.partwise-move"));
    QVERIFY(!d.survivesPowerCut);
    QCOMPARE(d.filesystem, QStringLiteral("overlay on tmpfs"));
}

void JournalDurabilityTest::overlayOnDiskSurvives()
{
    const QString base = m_dir.filePath(QStringLiteral("ondisk"));
    for (const char *sub : {"lower", "upper", "work"})
        QVERIFY(QDir().mkpath(base + QLatin1Char('/') + QLatin1String(sub)));
    const QString root = m_dir.filePath(QStringLiteral("disk-root"));
    ScopedMount overlay(
        {QStringLiteral("-t"), QStringLiteral("overlay"), QStringLiteral("pwtest"),
         QStringLiteral("-o"),
         QStringLiteral("lowerdir=%1/lower,upperdir=%1/upper,workdir=%1/work").arg(base)},
        root);
    QVERIFY2(overlay.ok(), qPrintable(overlay.error()));
    QVERIFY(journalDurability(root + QStringLiteral("/j.move")).survivesPowerCut);
}

void JournalDurabilityTest::realignWarnsBeforeMoving()
{
    // A partition at GPT sector 34 would move; the dry run shows the plan and the warning.
    DiskImageBuilder builder(m_dir.path());
    const Fixture image = builder.gptSingle(34);
    QVERIFY2(image.ok, qPrintable(image.error));
    const QString ram = m_dir.filePath(QStringLiteral("cli-ram"));
    ScopedMount mount({QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("pwtest")},
                      ram);
    QVERIFY2(mount.ok(), qPrintable(mount.error()));
    const CliResult inMemory =
        runCli({QStringLiteral("realign"), QStringLiteral("--dry-run"), QStringLiteral("--journal"),
                ram + QStringLiteral("/j.realign"), image.path});
    QCOMPARE(inMemory.exitCode, 0);
    QVERIFY2(inMemory.err.contains("kept in memory (tmpfs"), inMemory.err.constData());
    QVERIFY2(inMemory.out.contains("partition 1"), inMemory.out.constData());

    const CliResult onDisk =
        runCli({QStringLiteral("realign"), QStringLiteral("--dry-run"), QStringLiteral("--journal"),
                m_dir.filePath(QStringLiteral("j.realign")), image.path});
    QCOMPARE(onDisk.exitCode, 0);
    QVERIFY2(!onDisk.err.contains("kept in memory"), onDisk.err.constData());
}

QTEST_GUILESS_MAIN(JournalDurabilityTest)
#include "tst_journaldurability.moc"
