// The window following disks as they come and go (MainWindow::followDiskEvents), driven by a
// hand-made event source: a disk "plugged in" is listed and read, one removed leaves the list,
// and the operations queued for a disk never outlive it. Removed, or found to be another disk
// under the same name (a file swapped under the path: another inode), or changed size or
// table outside Partwise: its queue is dropped with a notice naming it. A change that changed
// nothing keeps the queue. Tables are written and judged by sfdisk.
#include "diskeventsource.h"
#include "disklistmodel.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"
#include "guitestsupport.h"
#include "window/mainwindow.h"

#include "diskimagebuilder.h"
#include "sfdisktable.h"

#include <QMessageBox>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace partwise;
using namespace pwtest;

namespace {

const QString kOnePartition = QStringLiteral("label: gpt\nstart=2048, size=20480\n");

DiskEvent makeEvent(DiskEvent::Kind kind, const QString &path)
{
    return {kind, path, 64 << 20, QStringLiteral("test")};
}

} // namespace

class TestDiskEvents : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { guitest::useTestSettings(); }
    void init();
    void cleanup();
    void pluggedDiskIsListedAndRead();
    void removedDiskDropsItsQueue();
    void anotherDiskUnderTheSameNameGetsNoQueue();
    void removalAndPlugInOneBurst();
    void tableChangedOutsideDropsTheQueue();
    void sizeChangedOutsideDropsTheQueue();
    void unreadableThenRemovedSaysRemoved();
    void unreadableAndStillThereSaysSo();

private:
    QString makeDisk(const QString &name, const QString &script = kOnePartition);
    // Emits `kind` for the disk and waits until the window has read it (again).
    bool sendAndWaitForRead(DiskEvent::Kind kind);
    bool queueDelete();
    int queued() { return m_window->editing()->pendingFor(m_path)->count(); }
    QString noticeText();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<DiskEventSource> m_source;
    QString m_path;
};

void TestDiskEvents::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_window = std::make_unique<MainWindow>();
    m_source = std::make_unique<DiskEventSource>();
    m_window->followDiskEvents(m_source.get());
    m_path = makeDisk(QStringLiteral("disk"));
    QVERIFY(!m_path.isEmpty());
}

void TestDiskEvents::cleanup()
{
    m_window.reset();
    m_source.reset();
    m_dir.reset();
}

QString TestDiskEvents::makeDisk(const QString &name, const QString &script)
{
    DiskImageBuilder builder(m_dir->path());
    QString error;
    const QString path = builder.createSparse(name, 64 << 20, &error);
    if (path.isEmpty() || !DiskImageBuilder::sfdisk(path, script, &error)) {
        qWarning("%s", qPrintable(error));
        return QString();
    }
    return path;
}

bool TestDiskEvents::sendAndWaitForRead(DiskEvent::Kind kind)
{
    DiskListModel *disks = m_window->diskList();
    const int before =
        disks->rowOf(m_path) >= 0 ? disks->entry(disks->rowOf(m_path)).generation : 0;
    emit m_source->diskEvent(makeEvent(kind, m_path));
    return QTest::qWaitFor(
        [&] {
            const int row = disks->rowOf(m_path);
            return row >= 0 && disks->entry(row).state != DiskEntry::State::Reading &&
                   disks->entry(row).generation > before && m_window->currentPath() == m_path;
        },
        30000);
}

bool TestDiskEvents::queueDelete()
{
    Operation op;
    op.type = Operation::Type::Delete;
    op.number = 1;
    QString error;
    if (!m_window->editing()->queue(op, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return queued() == 1;
}

QString TestDiskEvents::noticeText()
{
    QStringList texts;
    for (QMessageBox *box :
         m_window->findChildren<QMessageBox *>(QStringLiteral("queueDroppedNotice")))
        texts << box->text();
    return texts.join(u'\n');
}

void TestDiskEvents::pluggedDiskIsListedAndRead()
{
    QCOMPARE(m_window->diskList()->rowOf(m_path), -1);
    QVERIFY(sendAndWaitForRead(DiskEvent::Kind::Added));
    const DiskEntry &entry = m_window->diskList()->entry(m_window->diskList()->rowOf(m_path));
    QCOMPARE(entry.state, DiskEntry::State::Ready);
    const SfdiskTable table = SfdiskTable::read(m_path);
    QVERIFY2(table.ok, qPrintable(table.error));
    QCOMPARE(entry.layout.partitionByNumber(1)->startSector, table.find(1)->start);
    QVERIFY(!entry.identity.isEmpty());
}

void TestDiskEvents::removedDiskDropsItsQueue()
{
    QVERIFY(sendAndWaitForRead(DiskEvent::Kind::Added));
    QVERIFY(queueDelete());
    emit m_source->diskEvent(makeEvent(DiskEvent::Kind::Removed, m_path));
    QVERIFY(QTest::qWaitFor([&] { return m_window->diskList()->rowOf(m_path) < 0; }, 10000));
    QCOMPARE(queued(), 0);
    QVERIFY2(noticeText().contains(m_path) && noticeText().contains(QStringLiteral("removed")),
             qPrintable(noticeText()));
}

void TestDiskEvents::anotherDiskUnderTheSameNameGetsNoQueue()
{
    QVERIFY(sendAndWaitForRead(DiskEvent::Kind::Added));
    QVERIFY(queueDelete());
    // The same table on another file, put where the first was; the first lives on under another
    // name, so its inode is not given to the new one.
    const QString other = makeDisk(QStringLiteral("other"));
    QVERIFY(::link(QFile::encodeName(m_path).constData(),
                   QFile::encodeName(m_dir->filePath(QStringLiteral("first.img"))).constData()) ==
            0);
    QVERIFY(::rename(QFile::encodeName(other).constData(), QFile::encodeName(m_path).constData()) ==
            0);
    QCOMPARE(SfdiskTable::read(m_path).starts(), QList<qint64>{2048});
    QVERIFY(sendAndWaitForRead(DiskEvent::Kind::Changed));
    QCOMPARE(queued(), 0);
    QVERIFY2(noticeText().contains(QStringLiteral("another disk")), qPrintable(noticeText()));
}

void TestDiskEvents::removalAndPlugInOneBurst()
{
    QVERIFY(sendAndWaitForRead(DiskEvent::Kind::Added));
    QVERIFY(queueDelete());
    // Unplugged and another stick plugged in before the window looks: both in one burst.
    const QString other = makeDisk(QStringLiteral("other"));
    QVERIFY(::rename(QFile::encodeName(other).constData(), QFile::encodeName(m_path).constData()) ==
            0);
    emit m_source->diskEvent(makeEvent(DiskEvent::Kind::Removed, m_path));
    emit m_source->diskEvent(makeEvent(DiskEvent::Kind::Added, m_path));
    DiskListModel *disks = m_window->diskList();
    QVERIFY(QTest::qWaitFor(
        [&] {
            const int row = disks->rowOf(m_path);
            return !noticeText().isEmpty() && row >= 0 &&
                   disks->entry(row).state == DiskEntry::State::Ready;
        },
        30000));
    QCOMPARE(queued(), 0);
    QVERIFY2(noticeText().contains(QStringLiteral("removed")), qPrintable(noticeText()));
}

void TestDiskEvents::tableChangedOutsideDropsTheQueue()
{
    QVERIFY(sendAndWaitForRead(DiskEvent::Kind::Added));
    QVERIFY(queueDelete());
    // A change event that changed nothing (udev's "change" after a close): the queue stays.
    QSignalSpy unchanged(m_window.get(), &MainWindow::diskUnchanged);
    emit m_source->diskEvent(makeEvent(DiskEvent::Kind::Changed, m_path));
    QVERIFY(unchanged.wait(30000));
    QCOMPARE(unchanged.first().first().toString(), m_path);
    QCOMPARE(queued(), 1);
    QVERIFY(noticeText().isEmpty());
    // Another program adds a partition.
    QString error;
    QVERIFY2(DiskImageBuilder::sfdisk(m_path,
                                      QStringLiteral("label: gpt\nstart=2048, size=20480\n"
                                                     "start=22528, size=20480\n"),
                                      &error),
             qPrintable(error));
    QVERIFY(sendAndWaitForRead(DiskEvent::Kind::Changed));
    QCOMPARE(queued(), 0);
    QVERIFY2(noticeText().contains(QStringLiteral("partition table")) &&
                 noticeText().contains(m_path),
             qPrintable(noticeText()));
    // The window shows the table sfdisk wrote.
    const DiskEntry &entry = m_window->diskList()->entry(m_window->diskList()->rowOf(m_path));
    QCOMPARE(entry.layout.partitionByNumber(2)->startSector,
             SfdiskTable::read(m_path).find(2)->start);
}

void TestDiskEvents::sizeChangedOutsideDropsTheQueue()
{
    QVERIFY(sendAndWaitForRead(DiskEvent::Kind::Added));
    QVERIFY(queueDelete());
    QString error;
    QVERIFY2(DiskImageBuilder::truncateTo(m_path, 96 << 20, &error), qPrintable(error));
    QVERIFY(sendAndWaitForRead(DiskEvent::Kind::Changed));
    QCOMPARE(queued(), 0);
    QVERIFY2(noticeText().contains(QStringLiteral("changed size")), qPrintable(noticeText()));
}

// A USB drive pulled out is first a disk that cannot be read (the kernel's "changed" as its
// capacity drops), then removed (seen in the guest, tests/guest/guesthotplug.cpp): the notice
// says it was removed.
void TestDiskEvents::unreadableThenRemovedSaysRemoved()
{
    QVERIFY(sendAndWaitForRead(DiskEvent::Kind::Added));
    QVERIFY(queueDelete());
    QVERIFY(QFile::remove(m_path));
    DiskListModel *disks = m_window->diskList();
    emit m_source->diskEvent(makeEvent(DiskEvent::Kind::Changed, m_path));
    QVERIFY(QTest::qWaitFor(
        [&] {
            const int row = disks->rowOf(m_path);
            return row >= 0 && disks->entry(row).state == DiskEntry::State::Failed;
        },
        30000));
    emit m_source->diskEvent(makeEvent(DiskEvent::Kind::Removed, m_path));
    QVERIFY(QTest::qWaitFor([&] { return disks->rowOf(m_path) < 0; }, 10000));
    QCOMPARE(queued(), 0);
    QVERIFY2(noticeText().contains(QStringLiteral("removed")) &&
                 !noticeText().contains(QStringLiteral("no longer")),
             qPrintable(noticeText()));
}

// Unreadable and not removed: the queue is dropped all the same, saying the disk cannot be read.
void TestDiskEvents::unreadableAndStillThereSaysSo()
{
    QVERIFY(sendAndWaitForRead(DiskEvent::Kind::Added));
    QVERIFY(queueDelete());
    QVERIFY(QFile::remove(m_path));
    emit m_source->diskEvent(makeEvent(DiskEvent::Kind::Changed, m_path));
    QVERIFY(QTest::qWaitFor([&] { return queued() == 0; }, 30000));
    QVERIFY2(noticeText().contains(QStringLiteral("can no longer be read")),
             qPrintable(noticeText()));
}

QTEST_MAIN(TestDiskEvents)
#include "tst_diskevents.moc"
