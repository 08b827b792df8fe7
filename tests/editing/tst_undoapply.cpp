// Edit → Undo Last Apply… in Partwise's main window: a table-only Apply (a delete, an
// unformatted logical partition, a flag) on an MBR image and on a loop device, undone with its
// question answered, the table compared with sfdisk -J against the one before (and the kernel's
// partitions in sysfs); refused, with the table unchanged, once another tool moved a partition;
// greyed with its reason after a Format.
#include "editing/applydialog.h"
#include "editing/editingcontroller.h"
#include "editing/lastapplyundo.h"
#include "editingtestsupport.h"
#include "loopdevice.h"
#include "partitionmodel.h"
#include "toolrun.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <functional>

using namespace partwise;
using namespace pwtest;

namespace {

// The whole table as sfdisk reads it: label, id, every partition's start, size, type and flags.
QJsonObject sfdiskTable(const QString &target)
{
    return QJsonDocument::fromJson(
               runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), target}).out)
        .object()
        .value(QStringLiteral("partitiontable"))
        .toObject();
}

// Answers whatever modal dialog comes up, as the person at the keyboard would.
class ModalDriver
{
public:
    explicit ModalDriver(std::function<void(QWidget *)> handler) : m_handler(std::move(handler))
    {
        m_timer.setInterval(20);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            if (QWidget *modal = QApplication::activeModalWidget())
                m_handler(modal);
        });
        m_timer.start();
    }

private:
    std::function<void(QWidget *)> m_handler;
    QTimer m_timer;
};

// MBR: partition 1 (16 MiB), an extended partition over the rest holding logical 5 (10 MiB).
const QByteArray kTable = "label: dos\n2048,16MiB,83\n,,5\n,10MiB,83\n";

Operation op(Operation::Type type, int number = 0)
{
    Operation o;
    o.type = type;
    o.number = number;
    return o;
}

// Delete 1, a new unformatted logical partition of 8 MiB at 30 MiB, the boot flag on 5.
QList<Operation> tableOnlyChanges()
{
    Operation create = op(Operation::Type::Create);
    create.kind = PartitionInfo::Kind::Logical;
    create.startBytes = 30 * kMiB;
    create.sizeBytes = 8 * kMiB;
    Operation flag = op(Operation::Type::SetFlag, 5);
    flag.flag = QStringLiteral("boot");
    return {op(Operation::Type::Delete, 1), create, flag};
}

} // namespace

class UndoApplyTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void tableChangeUndoneOnImage();
    void tableChangeUndoneOnLoopDevice();
    void refusedAfterAPartitionMoved();
    void greyedAfterFormat();

private:
    // Opens `target` in `window` and waits until it is shown.
    bool open(MainWindow &window, const QString &target);
    // Queues `ops` and applies them with the window's own dialogs; the backup it took is
    // removed after the test.
    bool apply(MainWindow &window, const QList<Operation> &ops);
    // Undo Last Apply…, its question answered with Undo Apply; returns the last box's name.
    QString undo(MainWindow &window, const QString &screenshot, QString *question = nullptr);
    void undoAndCompare(const QString &target, bool image);

    QTemporaryDir m_dir;
    QStringList m_backups;
};

void UndoApplyTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("PartwiseTests"));
    QCoreApplication::setApplicationName(QStringLiteral("partwise-undo-apply-tests"));
    QSettings().clear();
}

void UndoApplyTest::cleanup()
{
    for (const QString &folder : std::as_const(m_backups))
        QDir(folder).removeRecursively();
    m_backups.clear();
}

bool UndoApplyTest::open(MainWindow &window, const QString &target)
{
    window.show();
    window.openImage(target); // File → Open Image… takes a loop device's node too
    return QTest::qWaitFor(
        [&] { return window.currentPath() == target && window.currentLayout().has_value(); },
        60000);
}

bool UndoApplyTest::apply(MainWindow &window, const QList<Operation> &ops)
{
    EditingController *editing = window.editing();
    for (const Operation &o : ops) {
        QString error;
        if (!editing->queue(o, &error)) {
            qWarning() << "not queued:" << error;
            return false;
        }
    }
    bool ok = false;
    ModalDriver driver([&](QWidget *modal) {
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            box->button(QMessageBox::Yes)->click();
        } else if (auto *d = qobject_cast<ApplyDialog *>(modal); d && d->isFinished()) {
            ok = d->result().ok;
            if (!ok)
                qWarning() << d->logText();
            if (!d->result().backupFolder.isEmpty())
                m_backups << d->result().backupFolder;
            d->accept();
        }
    });
    QSignalSpy shown(&window, &MainWindow::diskShown);
    editing->action(EditingController::Action::Apply)->trigger();
    return ok && QTest::qWaitFor([&] { return !shown.isEmpty(); }, 60000);
}

QString UndoApplyTest::undo(MainWindow &window, const QString &screenshot, QString *question)
{
    QString last;
    QString asked;
    ModalDriver driver([&](QWidget *modal) {
        auto *box = qobject_cast<QMessageBox *>(modal);
        if (!box)
            return;
        box->grab().save(screenshotPath(screenshot + QLatin1Char('-') + box->objectName()));
        if (box->objectName() == QLatin1String("undoApplyQuestion")) {
            // Asked first, Cancel the default, as Apply asks.
            asked = box->defaultButton() ? box->defaultButton()->text() : QString();
            if (question)
                *question = box->informativeText();
            box->button(QMessageBox::Yes)->click();
        } else {
            last = box->objectName();
            box->accept();
        }
    });
    QSignalSpy shown(&window, &MainWindow::diskShown);
    window.editing()->lastApplyUndo()->action()->trigger();
    if (!QTest::qWaitFor([&] { return !last.isEmpty(); }, 60000))
        return QStringLiteral("no answer");
    if (last == QLatin1String("undoApplyDone")) {
        if (asked != QLatin1String("Cancel"))
            return QStringLiteral("asked with default ") + asked;
        if (!QTest::qWaitFor([&] { return !shown.isEmpty(); }, 60000))
            return QStringLiteral("not read again");
    }
    return last;
}

void UndoApplyTest::undoAndCompare(const QString &target, bool image)
{
    MainWindow window;
    QVERIFY(open(window, target));
    QAction *undoAction = window.editing()->lastApplyUndo()->action();
    QVERIFY(!undoAction->isEnabled()); // nothing applied yet
    QVERIFY2(undoAction->statusTip().contains(QStringLiteral("no Apply has written")),
             qPrintable(undoAction->statusTip()));
    const QJsonObject before = sfdiskTable(target);
    QCOMPARE(before.value(QStringLiteral("partitions")).toArray().size(), 3);

    QVERIFY(apply(window, tableOnlyChanges()));
    const QJsonObject applied = sfdiskTable(target);
    QVERIFY(applied != before);
    QCOMPARE(applied.value(QStringLiteral("partitions")).toArray().size(), 3); // 2, 5, 6
    QVERIFY2(undoAction->isEnabled(), qPrintable(undoAction->statusTip()));
    QVERIFY(window.editing()->editMenu()->actions().contains(undoAction));

    QString question;
    QCOMPARE(undo(window,
                  image ? QStringLiteral("undo-apply-image") : QStringLiteral("undo-apply-loop"),
                  &question),
             QStringLiteral("undoApplyDone"));
    // What goes back, partition by partition: the new one leaves, 1 returns, 5 loses its flag.
    for (const QString &line :
         {QStringLiteral("partition 6 (sectors 61440-77823) leaves the table"),
          QStringLiteral("partition 1 comes back (sectors 2048-34815)"),
          QStringLiteral("partition 5 gets back its flags and name (none)")})
        QVERIFY2(question.contains(line), qPrintable(question));
    QCOMPARE(sfdiskTable(target), before);
    // The window read the disk again: partition 1 is back, the new logical partition gone.
    const DiskLayout &shown = window.partitionModel()->layout();
    QVERIFY(shown.partitionByNumber(1));
    QVERIFY(!shown.partitionByNumber(6));
    QVERIFY(!undoAction->isEnabled()); // undone once
}

void UndoApplyTest::tableChangeUndoneOnImage()
{
    const QString img = blankImage(m_dir, QStringLiteral("table.img"), 64 * kMiB);
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), img}, kTable).ok());
    undoAndCompare(img, true);
}

// On a block device the kernel is told of the table put back: its partitions in sysfs are the
// ones sfdisk reads.
void UndoApplyTest::tableChangeUndoneOnLoopDevice()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = blankImage(m_dir, QStringLiteral("loop.img"), 64 * kMiB);
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), img}, kTable).ok());
    LoopDevice loop(img);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QVERIFY(loop.addPartitions());
    undoAndCompare(loop.path(), false);
    const QString sys = QStringLiteral("/sys/block/") + QFileInfo(loop.path()).fileName();
    for (const int n : {1, 2, 5})
        QVERIFY2(QFileInfo::exists(
                     sys + QStringLiteral("/%1p%2").arg(QFileInfo(loop.path()).fileName()).arg(n)),
                 qPrintable(QString::number(n)));
    QVERIFY(
        !QFileInfo::exists(sys + QStringLiteral("/%1p6").arg(QFileInfo(loop.path()).fileName())));
    // The kernel's start of partition 1 is sfdisk's (sysfs counts 512-byte sectors).
    QFile start(sys + QStringLiteral("/%1p1/start").arg(QFileInfo(loop.path()).fileName()));
    QVERIFY(start.open(QIODevice::ReadOnly));
    QCOMPARE(start.readAll().trimmed(), QByteArray("2048"));
}

// Another tool moved partition 1 after the Apply: its data is not where the backup's table
// points, so Undo refuses, naming it, and writes nothing.
void UndoApplyTest::refusedAfterAPartitionMoved()
{
    const QString img = blankImage(m_dir, QStringLiteral("moved.img"), 64 * kMiB);
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), img}, kTable).ok());
    MainWindow window;
    QVERIFY(open(window, img));
    Operation flag = op(Operation::Type::SetFlag, 1);
    flag.flag = QStringLiteral("boot");
    QVERIFY(apply(window, {flag}));
    QVERIFY(runTool(QStringLiteral("sfdisk"),
                    {QStringLiteral("-q"), QStringLiteral("-N"), QStringLiteral("1"), img},
                    "4096,15MiB\n")
                .ok());
    const QJsonObject moved = sfdiskTable(img);
    QCOMPARE(moved.value(QStringLiteral("partitions"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("start")),
             QJsonValue(4096));
    QCOMPARE(undo(window, QStringLiteral("undo-apply-moved")), QStringLiteral("undoApplyRefused"));
    QCOMPARE(sfdiskTable(img), moved);
}

// A Format wrote a filesystem, which no table backup takes back: greyed, saying so.
void UndoApplyTest::greyedAfterFormat()
{
    const QString img = blankImage(m_dir, QStringLiteral("format.img"), 64 * kMiB);
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), img}, kTable).ok());
    MainWindow window;
    QVERIFY(open(window, img));
    Operation format = op(Operation::Type::Format, 5);
    format.filesystem = QStringLiteral("swap");
    QVERIFY(apply(window, {format}));
    QCOMPARE(runTool(QStringLiteral("blkid"),
                     {QStringLiteral("-p"), QStringLiteral("-o"), QStringLiteral("value"),
                      QStringLiteral("-s"), QStringLiteral("TYPE"), QStringLiteral("-O"),
                      QString::number(36864 * 512), img})
                 .out.trimmed(),
             QByteArray("swap"));
    QAction *undoAction = window.editing()->lastApplyUndo()->action();
    QVERIFY(!undoAction->isEnabled());
    QVERIFY2(undoAction->statusTip().contains(QStringLiteral("it formatted partition 5")),
             qPrintable(undoAction->statusTip()));
    window.grab().save(screenshotPath(QStringLiteral("undo-apply-greyed-window")));
}

QTEST_MAIN(UndoApplyTest)
#include "tst_undoapply.moc"
