// A busy check that cannot look says so (device/busycheck): with no descriptor left, the mount
// table cannot be read and an exclusive open fails with EMFILE rather than EBUSY. That once read
// as "nothing holds it", and a mounted partition was reported free; now every such question
// answers "cannot tell", which refuses the write like any reason.
#include "device/busycheck.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>
#include <unistd.h>

using namespace pwtest;
using namespace partwise;

namespace {

// Runs `ask` with every descriptor this process may open in use.
QStringList withNoDescriptorLeft(const std::function<QStringList()> &ask)
{
    rlimit old{};
    ::getrlimit(RLIMIT_NOFILE, &old);
    const rlimit few{64, old.rlim_max};
    ::setrlimit(RLIMIT_NOFILE, &few);
    QList<int> taken;
    for (int fd; (fd = ::dup(0)) >= 0;)
        taken << fd;
    const QStringList answer = ask();
    for (const int fd : taken)
        ::close(fd);
    ::setrlimit(RLIMIT_NOFILE, &old);
    return answer;
}

} // namespace

class TestBusyUnknown : public QObject
{
    Q_OBJECT

private slots:
    void noDescriptorLeftIsNoAnswerOfFree()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString image = dir.filePath(QStringLiteral("disk.img"));
        QString error;
        QVERIFY2(SfdiskTable::writeImage(
                     image, 64 << 20, "label: gpt\nstart=2048, size=32768\nstart=36864\n", &error),
                 qPrintable(error));
        LoopDevice loop(image);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        QVERIFY(loop.addPartitions());
        QVERIFY(runTool(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), loop.partitionNode(1)})
                    .ok());
        const QString folder = dir.filePath(QStringLiteral("mnt"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(runTool(QStringLiteral("mount"), {loop.partitionNode(1), folder}).ok());
        const auto unmount = qScopeGuard([&] { runTool(QStringLiteral("umount"), {folder}); });

        // Looked at normally: partition 1 is mounted, partition 2 is free.
        QVERIFY(!busyReasons(loop.path(), 1).isEmpty());
        QVERIFY(busyReasons(loop.path(), 2).isEmpty());
        for (const int number : {1, 2, 0}) {
            const QStringList reasons =
                withNoDescriptorLeft([&] { return busyReasons(loop.path(), number); });
            QVERIFY2(!reasons.isEmpty(),
                     qPrintable(QStringLiteral("partition %1 reported free").arg(number)));
            QVERIFY2(reasons.join(' ').contains(QLatin1String("cannot tell")),
                     qPrintable(reasons.join('\n')));
        }
        const QStringList whole =
            withNoDescriptorLeft([&] { return wholeDeviceBusyReasons(loop.path()); });
        QVERIFY2(!whole.isEmpty(), "the whole device reported free");
        const QStringList own =
            withNoDescriptorLeft([&] { return partitionOwnBusyReasons(loop.path(), 1); });
        QVERIFY2(!own.isEmpty(), "the mounted partition reported free");
    }
};

QTEST_GUILESS_MAIN(TestBusyUnknown)
#include "tst_busyunknown.moc"
