// The GUI half of editing: PendingOperations (undo/redo), CreatePartitionDialog defaults on 512
// and 4Kn images checked with sfdisk, ApplyDialog's worker, plan files, and screenshots.
#include "diskmapwidget.h"
#include "editing/applydialog.h"
#include "editing/createpartitiondialog.h"
#include "editing/editingcontroller.h"
#include "editing/operationdialogs.h"
#include "editing/pendingoperations.h"
#include "editing/pendingoperationsdock.h"
#include "editingharness.h"
#include "editingtestsupport.h"
#include "ops/applyrunner.h"
#include "ops/operationpreview.h"
#include "ops/planfile.h"
#include "partitionmodel.h"
#include "sfdisktable.h"
#include "table/diskreader.h"
#include "toolrun.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QListWidget>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>
#include <QUndoView>

#include <QVBoxLayout>
#include <QtTest>
#include <memory>

using namespace partwise;

namespace {

// The shared window, plus where the largest free space is shown.
struct Harness : EditingHarness
{
    using EditingHarness::EditingHarness;

    int rowOfLargestFree() const
    {
        const PartitionInfo *free = largestFree(editing->shownLayout());
        return free ? int(free - editing->shownLayout().regions.constData()) : -1;
    }
};

} // namespace

class EditingTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void undoRedoRestoresQueueAndPreview();
    void clearedQueueOffersNoUndo();
    void controllerShowsThePreview();
    void failedApplyStopsAndReports();
    void partedQuestionsReachAMessageBox();
    void newUuidIsChosenWhenQueued();
    void planRoundTrips();
    void smallDialogsReturnTheirOperations();
    void windowScreenshotWithPendingQueue();

private:
    QTemporaryDir m_dir;
};

void EditingTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("PartwiseTests"));
    QCoreApplication::setApplicationName(QStringLiteral("partwise-editing-tests"));
}

// After Apply the queue is cleared: Edit must no longer offer to undo what the disk now holds,
// and the queue's view must show no row of it.
void EditingTest::clearedQueueOffersNoUndo()
{
    PendingOperations pending(QStringLiteral("/nonexistent.img"));
    QUndoView view(pending.undoStack());
    std::unique_ptr<QAction> undo(pending.undoStack()->createUndoAction(nullptr));
    pending.push(newTable(QStringLiteral("gpt")));
    QVERIFY(undo->isEnabled());
    QCOMPARE(view.model()->rowCount(), 2); // "<empty>" and the operation
    QSignalSpy changed(&pending, &PendingOperations::changed);
    pending.clear();
    QCOMPARE(changed.size(), 1);
    QVERIFY(pending.operations().isEmpty());
    QVERIFY(!undo->isEnabled());
    QVERIFY2(!undo->text().contains(QLatin1String("partition table")), qPrintable(undo->text()));
    QCOMPARE(view.model()->rowCount(), 1);
}

void EditingTest::undoRedoRestoresQueueAndPreview()
{
    const QString img = blankImage(m_dir, QStringLiteral("undo.img"), 64 * kMiB);
    const DiskLayout base = readDisk(img).layout;
    const AlignmentPolicy policy;
    PendingOperations pending(img);
    QSignalSpy changed(&pending, &PendingOperations::changed);

    QList<Operation> steps;
    steps << newTable(QStringLiteral("gpt"));
    Operation root;
    root.type = Operation::Type::Create;
    root.sizeBytes = 20 * kMiB;
    root.filesystem = QStringLiteral("ext4");
    root.label = QStringLiteral("root");
    steps << root;
    Operation swap;
    swap.type = Operation::Type::Create;
    swap.filesystem = QStringLiteral("swap");
    steps << swap;
    Operation name;
    name.type = Operation::Type::SetName;
    name.number = 1;
    name.name = QStringLiteral("system");
    steps << name;
    Operation del;
    del.type = Operation::Type::Delete;
    del.number = 2;
    steps << del;

    // States 0..n: the queue and its preview after each push.
    QList<QStringList> queues{describeAll(pending.operations())};
    QStringList previews{fingerprint(previewOperations(base, pending.operations(), policy).layout)};
    for (const Operation &op : steps) {
        pending.push(op);
        const PreviewResult r = previewOperations(base, pending.operations(), policy);
        QVERIFY2(r.ok, qPrintable(r.error));
        queues << describeAll(pending.operations());
        previews << fingerprint(r.layout);
    }
    // A flags change as one undo step made of two operations.
    Operation esp;
    esp.type = Operation::Type::SetFlag;
    esp.number = 1;
    esp.flag = QStringLiteral("esp");
    Operation hidden = esp;
    hidden.flag = QStringLiteral("hidden");
    pending.pushGroup({esp, hidden}, QStringLiteral("flags"));
    QVERIFY(previewOperations(base, pending.operations(), policy).ok);
    queues << describeAll(pending.operations());
    previews << fingerprint(previewOperations(base, pending.operations(), policy).layout);
    QCOMPARE(pending.count(), steps.size() + 2);
    QCOMPARE(pending.undoStack()->count(), steps.size() + 1);
    QVERIFY(changed.count() >= steps.size() + 1);
    for (int i = 1; i < previews.size(); ++i)
        QVERIFY(previews.at(i) != previews.at(i - 1));

    QUndoStack *stack = pending.undoStack();
    for (int state = queues.size() - 2; state >= 0; --state) {
        stack->undo();
        QCOMPARE(describeAll(pending.operations()), queues.at(state));
        QCOMPARE(fingerprint(previewOperations(base, pending.operations(), policy).layout),
                 previews.at(state));
    }
    QVERIFY(pending.isEmpty());
    QCOMPARE(fingerprint(previewOperations(base, pending.operations(), policy).layout),
             fingerprint(previewOperations(base, {}, policy).layout));
    for (int state = 1; state < queues.size(); ++state) {
        stack->redo();
        QCOMPARE(describeAll(pending.operations()), queues.at(state));
        QCOMPARE(fingerprint(previewOperations(base, pending.operations(), policy).layout),
                 previews.at(state));
    }
    // Undo to the middle, push something else: the redo tail is gone, as QUndoStack does it.
    stack->setIndex(2);
    QCOMPARE(describeAll(pending.operations()), queues.at(2));
    pending.push(swap);
    QCOMPARE(pending.count(), 3);
    QVERIFY(!stack->canRedo());
    pending.clear();
    QVERIFY(pending.isEmpty());
    QCOMPARE(stack->count(), 0);
}

void EditingTest::controllerShowsThePreview()
{
    const QString img = blankImage(m_dir, QStringLiteral("controller.img"), 64 * kMiB);
    Harness h(img);
    QVERIFY(h.editing->pending());
    const QString asRead = fingerprint(h.model.layout());
    QVERIFY(!h.editing->action(EditingController::Action::Apply)->isEnabled());
    QVERIFY(h.editing->action(EditingController::Action::NewTable)->isEnabled());

    QVERIFY(h.editing->queue(newTable(QStringLiteral("gpt"))));
    const QString withTable = fingerprint(h.model.layout());
    QCOMPARE(h.model.layout().tableType, QStringLiteral("gpt"));
    QVERIFY(h.editing->action(EditingController::Action::Apply)->isEnabled());

    h.selectRow(h.rowOfLargestFree());
    QVERIFY(h.editing->action(EditingController::Action::Create)->isEnabled());
    Operation create;
    create.type = Operation::Type::Create;
    create.sizeBytes = 16 * kMiB;
    create.filesystem = QStringLiteral("vfat");
    QVERIFY(h.editing->queue(create));
    const QString withPartition = fingerprint(h.model.layout());
    QCOMPARE(h.model.layout().partitions().size(), 1);
    // The new partition is selected, so the partition actions apply to it.
    QVERIFY(h.editing->selectedRegion().has_value());
    QCOMPARE(h.editing->selectedRegion()->number, 1);
    QVERIFY(h.editing->action(EditingController::Action::Delete)->isEnabled());

    // An operation libparted refuses is not queued.
    Operation bogus;
    bogus.type = Operation::Type::Delete;
    bogus.number = 9;
    QString error;
    QVERIFY(!h.editing->queue(bogus, &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(h.editing->pending()->count(), 2);

    QUndoStack *stack = h.editing->pending()->undoStack();
    h.editing->action(EditingController::Action::Undo)->trigger();
    QCOMPARE(fingerprint(h.model.layout()), withTable);
    stack->undo();
    QCOMPARE(fingerprint(h.model.layout()), asRead);
    h.editing->action(EditingController::Action::Redo)->trigger();
    QCOMPARE(fingerprint(h.model.layout()), withTable);
    stack->redo();
    QCOMPARE(fingerprint(h.model.layout()), withPartition);
    QCOMPARE(fingerprint(h.editing->shownLayout()), withPartition);
}

void EditingTest::failedApplyStopsAndReports()
{
    const QString img = blankImage(m_dir, QStringLiteral("fail.img"), 32 * kMiB);
    Operation tooBig;
    tooBig.type = Operation::Type::Create;
    tooBig.sizeBytes = 1024 * kMiB;
    QString log;
    const ApplyResult r = applyWithDialog(img, {newTable(QStringLiteral("gpt")), tooBig}, 0, &log,
                                          QStringLiteral("apply-dialog-failed"));
    QVERIFY(!r.ok);
    QVERIFY(!r.error.isEmpty());
    QVERIFY2(log.contains(r.error), qPrintable(log));
    QCOMPARE(pwtest::SfdiskTable::read(img).starts().size(), 0);

    // The log can be saved.
    ApplyDialog dialog(img, {newTable(QStringLiteral("gpt"))}, ApplyOptions());
    const QString logPath = m_dir.filePath(QStringLiteral("apply.log"));
    QString error;
    QVERIFY2(dialog.saveLog(logPath, &error), qPrintable(error));
    QVERIFY(QFile::exists(logPath));
}

void EditingTest::partedQuestionsReachAMessageBox()
{
    // A GPT image that grew: libparted asks whether to move the backup table to the new end.
    const QString img = blankImage(m_dir, QStringLiteral("grown.img"), 32 * kMiB);
    QVERIFY(applyWithDialog(img, {newTable(QStringLiteral("gpt"))}, 0).ok);
    QVERIFY(QFile::resize(img, 48 * kMiB));

    Operation create;
    create.type = Operation::Type::Create;
    create.sizeBytes = 8 * kMiB;
    ApplyOptions options;
    options.backupRoot = m_dir.filePath(QStringLiteral("backups"));
    ApplyDialog dialog(img, {create}, options);
    QSignalSpy done(&dialog, &ApplyDialog::applyFinished);
    QStringList seenChoices;
    QString seenText;
    bool onGuiThread = false;
    // Answer the message box the way a person would: click one of libparted's own buttons.
    QTimer clicker;
    clicker.setInterval(20);
    connect(&clicker, &QTimer::timeout, this, [&] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box || box->objectName() != QLatin1String("partedQuestion"))
            return;
        onGuiThread = QThread::currentThread() == qApp->thread();
        seenText = box->text() + QLatin1Char('\n') + box->informativeText();
        box->grab().save(screenshotPath(QStringLiteral("parted-question")));
        QAbstractButton *choice = nullptr;
        for (QAbstractButton *button : box->buttons()) {
            seenChoices << button->text();
            if (button->text() == QLatin1String("Fix"))
                choice = button;
        }
        if (!choice && !box->buttons().isEmpty())
            choice = box->buttons().first();
        if (choice)
            choice->click();
    });
    clicker.start();
    dialog.show();
    dialog.start();
    QVERIFY(done.wait(180000));
    clicker.stop();
    QVERIFY2(!seenChoices.isEmpty(), qPrintable(dialog.logText()));
    QVERIFY(onGuiThread);
    // Partwise explains before libparted's own words come.
    QVERIFY2(seenText.startsWith(QStringLiteral("libparted, the library that writes partition "
                                                "tables, stopped to ask")),
             qPrintable(seenText));
    QVERIFY2(seenChoices.contains(QStringLiteral("Fix")), qPrintable(seenChoices.join(',')));
    QVERIFY(dialog.logText().contains(QLatin1String("libparted:")));
    QVERIFY2(dialog.result().ok, qPrintable(dialog.result().error));
    QCOMPARE(pwtest::SfdiskTable::read(img).starts(), QList<qint64>{2048});
}

void EditingTest::planRoundTrips()
{
    const QString img = blankImage(m_dir, QStringLiteral("plan.img"), 64 * kMiB);
    Harness h(img);
    QList<Operation> ops{newTable(QStringLiteral("gpt"))};
    QVERIFY(h.editing->queue(ops.first()));
    {
        const PartitionInfo *free = largestFree(h.editing->shownLayout());
        CreatePartitionDialog dialog(h.base, h.editing->pending()->operations(),
                                     h.editing->shownLayout(), *free, h.policy);
        dialog.setSizeBytes(12 * kMiB);
        dialog.setBeforeBytes(3 * kMiB);
        dialog.setAlignTo(AlignTo::FourKiB);
        dialog.setFilesystem(QStringLiteral("vfat"));
        dialog.setLabel(QStringLiteral("EFI"));
        dialog.setName(QStringLiteral("EFI system"));
        dialog.setFlags({QStringLiteral("esp")});
        QTRY_VERIFY(dialog.previewedPartition().has_value());
        ops << dialog.operation();
        QVERIFY(h.editing->queue(ops.last()));
    }
    Operation rest;
    rest.type = Operation::Type::Create;
    rest.filesystem = QStringLiteral("swap");
    rest.alignTo = AlignTo::Grain;
    ops << rest;
    Operation format;
    format.type = Operation::Type::Format;
    format.number = 2;
    format.filesystem = QStringLiteral("ext4");
    format.label = QStringLiteral("data");
    ops << format;
    Operation label;
    label.type = Operation::Type::SetLabel;
    label.number = 2;
    label.label = QStringLiteral("data2");
    ops << label;
    Operation name;
    name.type = Operation::Type::SetName;
    name.number = 2;
    name.name = QStringLiteral("home");
    ops << name;
    Operation flag;
    flag.type = Operation::Type::SetFlag;
    flag.number = 1;
    flag.flag = QStringLiteral("hidden");
    flag.flagState = true;
    ops << flag;
    Operation check;
    check.type = Operation::Type::Check;
    check.number = 2;
    check.repair = true;
    ops << check;
    Operation del;
    del.type = Operation::Type::Delete;
    del.number = 1;
    ops << del;
    for (int i = 2; i < ops.size(); ++i) {
        QString error;
        QVERIFY2(h.editing->queue(ops.at(i), &error), qPrintable(error));
    }
    QCOMPARE(describeAll(h.editing->pending()->operations()), describeAll(ops));

    const QString planPath = m_dir.filePath(QStringLiteral("plan.json"));
    QString error;
    QVERIFY2(h.editing->savePlanTo(planPath, &error), qPrintable(error));
    QFile file(planPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QList<Operation> parsed;
    QVERIFY2(parsePlan(file.readAll(), &parsed, &error), qPrintable(error));
    QCOMPARE(describeAll(parsed), describeAll(ops));

    // Loading it back into an emptied queue gives the same queue and preview, in one undo step.
    const QString preview = fingerprint(h.editing->shownLayout());
    h.editing->pending()->clear();
    QVERIFY2(h.editing->loadPlanFrom(planPath, &error), qPrintable(error));
    QCOMPARE(describeAll(h.editing->pending()->operations()), describeAll(ops));
    QCOMPARE(fingerprint(h.editing->shownLayout()), preview);
    QCOMPARE(h.editing->pending()->undoStack()->count(), 1);
    h.editing->pending()->undoStack()->undo();
    QVERIFY(h.editing->pending()->isEmpty());
    h.editing->pending()->undoStack()->redo();
    QCOMPARE(describeAll(h.editing->pending()->operations()), describeAll(ops));
}

void EditingTest::smallDialogsReturnTheirOperations()
{
    DiskLayout layout;
    layout.device.path = QStringLiteral("/dev/sdz");
    layout.tableType = QStringLiteral("gpt");
    PartitionInfo p;
    p.number = 2;
    p.startSector = 2048;
    p.endSector = 4095;
    p.filesystem = QStringLiteral("ext4");
    p.label = QStringLiteral("old");
    p.flags = {QStringLiteral("boot"), QStringLiteral("hidden")};
    layout.regions << p;

    NewTableDialog table(layout);
    QCOMPARE(table.operation().type, Operation::Type::NewTable);
    QCOMPARE(table.operation().tableType, QStringLiteral("gpt"));
    table.findChild<QComboBox *>(QStringLiteral("tableType"))->setCurrentIndex(1);
    QCOMPARE(table.operation().tableType, QStringLiteral("msdos"));
    table.show();
    QVERIFY(table.grab().save(screenshotPath(QStringLiteral("new-table-dialog"))));

    FormatDialog format(p);
    QCOMPARE(format.operation().type, Operation::Type::Format);
    QCOMPARE(format.operation().number, 2);
    QCOMPARE(format.operation().filesystem, QStringLiteral("ext4"));
    QCOMPARE(format.operation().label, QStringLiteral("old"));
    format.show();
    QVERIFY(format.grab().save(screenshotPath(QStringLiteral("format-dialog"))));

    FlagsDialog flags(p, QStringLiteral("gpt"));
    QVERIFY(flags.operations().isEmpty()); // nothing changed yet
    QListWidget *list = flags.findChild<QListWidget *>(QStringLiteral("flags"));
    for (int i = 0; i < list->count(); ++i) {
        // Each flag with what it means: "esp — EFI system partition".
        QVERIFY2(list->item(i)->text().contains(QStringLiteral(" — ")),
                 qPrintable(list->item(i)->text()));
        if (list->item(i)->data(Qt::UserRole).toString() == QLatin1String("esp"))
            list->item(i)->setCheckState(Qt::Checked);
        if (list->item(i)->data(Qt::UserRole).toString() == QLatin1String("hidden"))
            list->item(i)->setCheckState(Qt::Unchecked);
    }
    const QList<Operation> changes = flags.operations();
    QCOMPARE(changes.size(), 2);
    for (const Operation &op : changes) {
        QCOMPARE(op.type, Operation::Type::SetFlag);
        QCOMPARE(op.number, 2);
        QCOMPARE(op.flagState, op.flag == QLatin1String("esp"));
    }
    flags.show();
    QVERIFY(flags.grab().save(screenshotPath(QStringLiteral("flags-dialog"))));

    CheckDialog check(p);
    QCOMPARE(check.operation().type, Operation::Type::Check);
    QVERIFY(!check.operation().repair);
    check.findChild<QCheckBox *>(QStringLiteral("repair"))->setChecked(true);
    QVERIFY(check.operation().repair);
    check.show();
    QVERIFY(check.grab().save(screenshotPath(QStringLiteral("check-dialog"))));

    const Operation del = OperationPrompts::deletion(p);
    QCOMPARE(del.type, Operation::Type::Delete);
    QCOMPARE(del.number, 2);
}

void EditingTest::windowScreenshotWithPendingQueue()
{
    const QString img = blankImage(m_dir, QStringLiteral("shot.img"), 256 * kMiB);
    Harness h(img);
    QVERIFY(h.editing->queue(newTable(QStringLiteral("gpt"))));
    const QList<std::pair<qint64, QString>> parts = {{64 * kMiB, QStringLiteral("ext4")},
                                                     {32 * kMiB, QStringLiteral("vfat")},
                                                     {-1, QStringLiteral("swap")}};
    for (const auto &[size, fs] : parts) {
        Operation op;
        op.type = Operation::Type::Create;
        op.sizeBytes = size;
        op.filesystem = fs;
        QVERIFY(h.editing->queue(op));
    }
    h.selectRow(1);
    h.window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&h.window));
    QTest::qWait(100);
    QCOMPARE(h.editing->dock()->view()->stack()->count(), 4);
    QVERIFY(h.window.grab().save(screenshotPath(QStringLiteral("editing-pending-queue"))));
}

QTEST_MAIN(EditingTest)
// The window's New UUID names its UUID and the files that follow it when queued (the pending
// list shows it), and Apply writes that UUID, not another: mtools reads it on the FAT, and the
// boot loader entry naming the old one names it now, its original kept beside it.
void EditingTest::newUuidIsChosenWhenQueued()
{
    using pwtest::runTool;
    const QString img = m_dir.filePath(QStringLiteral("newuuid.img"));
    QString error;
    QVERIFY2(pwtest::SfdiskTable::writeImage(img, 10 << 20, "label: gpt\nstart=2048, size=8MiB\n",
                                             &error),
             qPrintable(error));
    const QString fat = img + QStringLiteral("@@1M");
    QVERIFY(runTool(QStringLiteral("mkfs.fat"),
                    {QStringLiteral("--offset=2048"), QStringLiteral("-i"),
                     QStringLiteral("1a2b3c4d"), img, QStringLiteral("8192")})
                .ok());
    const QString local = m_dir.filePath(QStringLiteral("entry.conf"));
    QFile e(local);
    QVERIFY(e.open(QIODevice::WriteOnly));
    e.write("options root=UUID=1A2B-3C4D\n");
    e.close();
    QVERIFY(runTool(QStringLiteral("mmd"), {QStringLiteral("-i"), fat, QStringLiteral("::/loader"),
                                            QStringLiteral("::/loader/entries")})
                .ok());
    QVERIFY(runTool(QStringLiteral("mcopy"),
                    {QStringLiteral("-i"), fat, local, QStringLiteral("::/loader/entries/a.conf")})
                .ok());
    EditingHarness h(img);
    int row = 0;
    while (row < h.model.rowCount() &&
           !h.model.index(row, 0).data().toString().contains(QLatin1Char('1')))
        ++row;
    h.selectRow(row);
    QVERIFY(h.action(EditingController::Action::NewUuid)->isEnabled());
    h.action(EditingController::Action::NewUuid)->trigger();
    const QList<Operation> ops = h.editing->pending()->operations();
    QCOMPARE(ops.size(), 1);
    const QString uuid = ops[0].uuid;
    QVERIFY2(uuid.size() == 9 && uuid != QLatin1String("1A2B-3C4D"), qPrintable(uuid));
    QVERIFY2(ops[0].description().contains(uuid) &&
                 ops[0].description().contains(QStringLiteral("/loader/entries/*.conf")),
             qPrintable(ops[0].description()));
    h.window.resize(900, 400);
    QVERIFY(h.window.grab().save(screenshotPath(QStringLiteral("new-uuid-queued"))));
    const ApplyResult r = applyOperations(img, ops, ApplyOptions{});
    QVERIFY2(r.ok, qPrintable(r.error));
    const QByteArray info =
        runTool(QStringLiteral("minfo"), {QStringLiteral("-i"), fat, QStringLiteral("::")}).out;
    QVERIFY2(info.contains("serial number: " + QString(uuid).remove(QLatin1Char('-')).toUtf8()),
             info.constData());
    QCOMPARE(runTool(QStringLiteral("mtype"),
                     {QStringLiteral("-i"), fat, QStringLiteral("::/loader/entries/a.conf")})
                 .out,
             "options root=UUID=" + uuid.toUtf8() + "\n");
    QVERIFY(runTool(QStringLiteral("mtype"),
                    {QStringLiteral("-i"), fat,
                     QStringLiteral("::/loader/entries/a.conf.partwise-") +
                         QString(uuid).remove(QLatin1Char('-')).left(8).toLower()})
                .ok());
}

#include "tst_editing.moc"
