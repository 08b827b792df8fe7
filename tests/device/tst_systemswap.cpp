// The system's own swap, as /etc/fstab names it, is recognised on a partition node (root, a loop
// disk): by path, UUID=, LABEL=, PARTUUID= and PARTLABEL=, and only for swap entries. The
// helper leaves such swap on for a user (core/cli/servemount.cpp); this suite proves the matcher
// that rule rests on. The swap's UUID and the partition's PARTUUID come from blkid, not Partwise.

#include "loopdevice.h"
#include "toolrun.h"

#include "device/partitionnode.h"
#include "device/systemswap.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace partwise;

class TestSystemSwap : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<pwtest::LoopDevice> m_loop;
    PartitionNode m_node;
    QString m_uuid, m_partUuid, m_partLabel;

    bool fstabNames(const QString &line)
    {
        const QString fstab = m_dir.filePath(QStringLiteral("fstab"));
        QFile f(fstab);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return false;
        f.write("# a comment\nproc /proc proc defaults 0 0\n");
        f.write(line.toUtf8() + '\n');
        f.close();
        return isSystemSwap(m_node, nullptr, fstab);
    }

    static QString blkidValue(const QString &node, const QString &tag)
    {
        const pwtest::ToolResult r = pwtest::runTool(
            QStringLiteral("blkid"), {QStringLiteral("-p"), QStringLiteral("-s"), tag,
                                      QStringLiteral("-o"), QStringLiteral("value"), node});
        return QString::fromUtf8(r.out).trimmed();
    }

private slots:
    void initTestCase()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        QVERIFY(m_dir.isValid());
        const QString image = m_dir.filePath(QStringLiteral("disk.img"));
        QFile f(image);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(24 << 20));
        f.close();
        const pwtest::ToolResult table = pwtest::runTool(
            QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
            QByteArray("label: gpt\nstart=2048, size=16384, type=S, name=pwswapname\n"));
        QVERIFY2(table.ok(), qPrintable(table.describe()));
        m_loop = std::make_unique<pwtest::LoopDevice>(image);
        QVERIFY2(m_loop->ok(), qPrintable(m_loop->error()));
        QVERIFY2(m_loop->addPartitions(), qPrintable(m_loop->error()));
        const QString node = m_loop->partitionNode(1);
        const pwtest::ToolResult mk = pwtest::runTool(
            QStringLiteral("mkswap"), {QStringLiteral("-L"), QStringLiteral("pwswaplabel"), node});
        QVERIFY2(mk.ok(), qPrintable(mk.describe()));
        QString why;
        QVERIFY2(findPartitionNode(m_loop->path(), 1, &m_node, &why), qPrintable(why));
        m_uuid = blkidValue(node, QStringLiteral("UUID"));
        m_partUuid = blkidValue(node, QStringLiteral("PART_ENTRY_UUID"));
        m_partLabel = blkidValue(node, QStringLiteral("PART_ENTRY_NAME"));
        QVERIFY(!m_uuid.isEmpty() && !m_partUuid.isEmpty());
        QCOMPARE(m_partLabel, QStringLiteral("pwswapname"));
    }

    void cleanupTestCase() { m_loop.reset(); }

    void namedBySwapEntries()
    {
        QVERIFY(fstabNames(QStringLiteral("UUID=%1 none swap sw 0 0").arg(m_uuid)));
        QVERIFY(fstabNames(QStringLiteral("LABEL=pwswaplabel none swap sw 0 0")));
        QVERIFY(fstabNames(QStringLiteral("PARTUUID=%1 none swap sw 0 0").arg(m_partUuid)));
        QVERIFY(fstabNames(QStringLiteral("PARTLABEL=pwswapname none swap sw 0 0")));
        QVERIFY(fstabNames(QStringLiteral("%1 none swap sw 0 0").arg(m_node.path)));
    }

    void otherEntriesAreNotIt()
    {
        QVERIFY(!fstabNames(QStringLiteral("UUID=0badf00d-0000-4000-8000-000000000000 none swap "
                                           "sw 0 0")));
        QVERIFY(!fstabNames(QStringLiteral("LABEL=otherlabel none swap sw 0 0")));
        // The same UUID as a mounted filesystem's entry is no swap entry.
        QVERIFY(!fstabNames(QStringLiteral("UUID=%1 /srv ext4 defaults 0 2").arg(m_uuid)));
        QVERIFY(!fstabNames(QStringLiteral("/dev/null none swap sw 0 0")));
    }

    // An fstab that exists but cannot be read: any swap may be the system's. Asked by a child
    // that took an unprivileged user's rights, for whom a 0000 file cannot be opened.
    void anUnreadableFstabKeepsSwapOn()
    {
        const QString fstab = m_dir.filePath(QStringLiteral("fstab-0000"));
        QFile f(fstab);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("# nothing\n") > 0);
        f.close();
        QVERIFY(::chmod(QFile::encodeName(fstab).constData(), 0) == 0);
        QVERIFY(::chmod(QFile::encodeName(m_dir.path()).constData(), 0755) == 0);
        const pid_t child = ::fork();
        if (child == 0) {
            if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                ::_exit(3);
            QString entry = QStringLiteral("not set");
            const bool system = isSystemSwap(m_node, &entry, fstab);
            ::_exit(system && entry.isEmpty() ? 0 : 1);
        }
        int status = -1;
        QVERIFY(child > 0 && ::waitpid(child, &status, 0) == child);
        QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                 "an fstab that could not be read counted as not naming the swap");
        // No fstab at all names nothing.
        QVERIFY(!isSystemSwap(m_node, nullptr, m_dir.filePath(QStringLiteral("no-fstab"))));
    }
};

QTEST_GUILESS_MAIN(TestSystemSwap)
#include "tst_systemswap.moc"
