// Realigning an image as a plain user, as the README's first command runs Partwise: no root,
// so no loop device. Every filesystem is still checked by its own tool before it moves (on a
// scratch copy of the partition), what the dry run planned is what runs, the NTFS of the
// Windows XP practice disk passes ntfsfix afterwards with every file intact, and the sparse
// image stays small on disk.
#include "clirun.h"
#include "loopdevice.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace pwtest;

namespace {

constexpr uid_t kNobody = 65534;

qint64 allocatedBytes(const QString &path)
{
    struct stat st;
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? qint64(st.st_blocks) * 512 : -1;
}

// The partitions' starts, as sfdisk reads them.
QList<qint64> startsOf(const QString &image)
{
    const ToolResult r = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), image});
    QList<qint64> starts;
    for (const QJsonValue &p : QJsonDocument::fromJson(r.out)
                                   .object()
                                   .value(QStringLiteral("partitiontable"))
                                   .toObject()
                                   .value(QStringLiteral("partitions"))
                                   .toArray())
        starts << p.toObject().value(QStringLiteral("start")).toInteger();
    return starts;
}

} // namespace

class TestUserRealign : public QObject
{
    Q_OBJECT

private slots:
    void windowsXpAsAUser();

private:
    ToolResult asNobody(const QStringList &command) const;
    QTemporaryDir m_dir; // nobody's home for this test: its backups and settings go here
};

ToolResult TestUserRealign::asNobody(const QStringList &command) const
{
    return runTool(
        QStringLiteral("setpriv"),
        QStringList{QStringLiteral("--reuid=%1").arg(kNobody),
                    QStringLiteral("--regid=%1").arg(kNobody), QStringLiteral("--clear-groups"),
                    QStringLiteral("env"), QStringLiteral("HOME=") + m_dir.path(),
                    QStringLiteral("XDG_DATA_HOME=") + m_dir.filePath(QStringLiteral("data")),
                    QStringLiteral(PARTWISE_CLI)} +
            command);
}

void TestUserRealign::windowsXpAsAUser()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // to become another user, and to check the result on a loop device
    QTemporaryDir &dir = m_dir;
    QVERIFY(dir.isValid());
    QVERIFY(::chown(QFile::encodeName(dir.path()).constData(), kNobody, kNobody) == 0);
    const QString image = dir.filePath(QStringLiteral("xp.img"));
    const ToolResult made = asNobody({QStringLiteral("practice"), QStringLiteral("--size"),
                                      QStringLiteral("256M"), QStringLiteral("windows-xp"), image});
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    QCOMPARE(startsOf(image), QList<qint64>{63});
    const qint64 allocatedBefore = allocatedBytes(image);

    const ToolResult planned = asNobody(
        {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--dry-run"), image});
    QVERIFY2(planned.exitCode == 0, qPrintable(planned.describe()));
    QVERIFY2(planned.out.contains("2048"), planned.out.constData());
    const ToolResult ran = asNobody(
        {QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"), image});
    QVERIFY2(ran.ok(), qPrintable(ran.describe()));
    const QByteArray log = ran.out + ran.err;
    // Checked by ntfsfix before it moved, without root.
    QVERIFY2(QRegularExpression(QStringLiteral("Partition 1 \\(ntfs\\): clean"))
                 .match(QString::fromUtf8(log))
                 .hasMatch(),
             log.constData());
    QVERIFY2(!log.contains("not checked"), log.constData());
    // What the dry run planned ran: partition 1 at sector 2048, as sfdisk reads it.
    QCOMPARE(startsOf(image), QList<qint64>{2048});
    // Sparse stays sparse: a few MiB of data moved, not the 256 MiB partition written out.
    const qint64 allocatedAfter = allocatedBytes(image);
    QVERIFY2(
        allocatedAfter <= allocatedBefore + 8 * 1024 * 1024,
        qPrintable(
            QStringLiteral("%1 -> %2 bytes on disk").arg(allocatedBefore).arg(allocatedAfter)));
    // The filesystem is whole, with its files.
    LoopDevice loop(image);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    const ToolResult fix =
        runTool(QStringLiteral("ntfsfix"), {QStringLiteral("--no-action"), loop.partitionNode(1)});
    QVERIFY2(fix.ok(), qPrintable(fix.describe()));
    const ToolResult files =
        runTool(QStringLiteral("ntfsls"), {QStringLiteral("-R"), loop.partitionNode(1)});
    QVERIFY2(files.ok() && !files.out.trimmed().isEmpty(), qPrintable(files.describe()));
}

QTEST_GUILESS_MAIN(TestUserRealign)
#include "tst_userrealign.moc"
