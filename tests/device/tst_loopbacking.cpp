// A loop device is known by the file the kernel holds, not by the name sysfs gives it
// (device/loopbacking.h). Once a backing file is deleted, sysfs names it "/path/file (deleted)",
// a name anyone who may write in that folder can create: as a link to a disk it once made every
// busy check find that disk "backing a loop device" (root refused to write it, for every user),
// and as a link to a stalling FUSE file it hung root's stat() for good.
#include "device/busycheck.h"
#include "device/sourcehold.h"
#include "loopdevice.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;
using namespace partwise;

class TestLoopBacking : public QObject
{
    Q_OBJECT

private slots:
    void aNameLeftByADeletedFileIsNotFollowed()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto makeImage = [&](const QString &name) {
            QFile f(dir.filePath(name));
            return f.open(QIODevice::WriteOnly) && f.resize(8 << 20);
        };
        QVERIFY(makeImage(QStringLiteral("disk.img")) && makeImage(QStringLiteral("mine.img")));
        LoopDevice disk(dir.filePath(QStringLiteral("disk.img")));
        QVERIFY2(disk.ok(), qPrintable(disk.error()));
        QVERIFY(busyReasons(disk.path(), 0).isEmpty());

        // A loop device over a file that is then deleted, and a link planted at its old name.
        const QString mine = dir.filePath(QStringLiteral("mine.img"));
        LoopDevice over(mine);
        QVERIFY2(over.ok(), qPrintable(over.error()));
        QVERIFY(QFile::remove(mine));
        QVERIFY(QFile::link(disk.path(), mine + QStringLiteral(" (deleted)")));

        const QStringList reasons = busyReasons(disk.path(), 0);
        QVERIFY2(reasons.isEmpty(), qPrintable(reasons.join('\n')));
        // The deleted file cannot be held through that name either.
        QVERIFY(!SourceHold::take(over.path(), SourceHold::Claim::None));

        // A loop device really over the disk still holds it.
        LoopDevice stacked(disk.path());
        QVERIFY2(stacked.ok(), qPrintable(stacked.error()));
        const QStringList held = busyReasons(disk.path(), 0);
        QVERIFY2(held.join(' ').contains(
                     QStringLiteral("backing device of loop device %1").arg(stacked.path())),
                 qPrintable(held.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestLoopBacking)
#include "tst_loopbacking.moc"
