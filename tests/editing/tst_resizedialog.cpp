// Resize/Move: the dialog's limits against the free space sfdisk sees, MiB alignment on 512 and
// 4Kn images, the Edit menu and context menus, undo of the preview, and grow, shrink and move of
// an ext4 partition applied through ApplyDialog and checked with sfdisk -J, e2fsck -fn and a
// file read back with debugfs. Expected numbers come from those tools or are worked out by hand.
#include "align/misalignmentreport.h"
#include "diskimagebuilder.h"
#include "diskmapwidget.h"
#include "editing/applydialog.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"
#include "editing/resizepartitiondialog.h"
#include "editingharness.h"
#include "editingtestsupport.h"
#include "loopdevice.h"
#include "partitionmodel.h"
#include "table/diskreader.h"
#include "toolrun.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtTest>

#include <functional>
#include <memory>

using namespace partwise;

using namespace pwtest;

namespace {

constexpr qint64 kStart = 40960;    // the ext4 partition starts at 20 MiB (512-byte sectors)
constexpr qint64 kSectors = 204800; // and is 100 MiB long

// What `sfdisk -J` says about a disk: the usable sectors and partition 1.
struct SfdiskView
{
    qint64 firstLba = 0, lastLba = 0, start = 0, size = 0;
};

SfdiskView sfdiskView(const QString &img)
{
    const QJsonObject t =
        QJsonDocument::fromJson(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), img}).out)
            .object()
            .value(QStringLiteral("partitiontable"))
            .toObject();
    const QJsonObject p1 = t.value(QStringLiteral("partitions")).toArray().at(0).toObject();
    return {t.value(QStringLiteral("firstlba")).toInteger(),
            t.value(QStringLiteral("lastlba")).toInteger(),
            p1.value(QStringLiteral("start")).toInteger(),
            p1.value(QStringLiteral("size")).toInteger()};
}

QString fsName(const QString &img, qint64 startSector)
{
    return QStringLiteral("%1?offset=%2").arg(img).arg(startSector * 512);
}

QByteArray readBack(const QString &img, qint64 startSector)
{
    return runTool(QStringLiteral("debugfs"),
                   {QStringLiteral("-R"), QStringLiteral("cat /payload"), fsName(img, startSector)})
        .out;
}

// resize2fs's own estimate of the smallest size, in bytes.
qint64 resize2fsMinimum(const QString &img, qint64 startSector)
{
    const QString name = fsName(img, startSector);
    const QString min =
        QString::fromUtf8(runTool(QStringLiteral("resize2fs"), {QStringLiteral("-P"), name}).out);
    const QString header =
        QString::fromUtf8(runTool(QStringLiteral("dumpe2fs"), {QStringLiteral("-h"), name}).out);
    const qint64 blocks = min.section(QLatin1Char(':'), -1).trimmed().toLongLong();
    qint64 blockSize = 0;
    for (const QString &line : header.split(QLatin1Char('\n')))
        if (line.startsWith(QLatin1String("Block size:")))
            blockSize = line.section(QLatin1Char(':'), 1).trimmed().toLongLong();
    return blocks * blockSize;
}

QSpinBox *spin(QWidget *dialog, const char *name)
{
    return dialog->findChild<QSpinBox *>(QString::fromLatin1(name));
}

// The shared window, and its Resize/Move action.
struct Harness : EditingHarness
{
    using EditingHarness::EditingHarness;

    QAction *resize() const { return editing->action(EditingController::Action::Resize); }
};

// Triggers `action` and hands the modal Resize/Move dialog it opens to `use`. If `use` leaves
// it open (a failed check returns early), it is rejected so the test fails instead of hanging;
// polling stops once the action returns, so no timer outlives this call's state.
bool withResizeDialog(QAction *action, const std::function<void(ResizePartitionDialog *)> &use)
{
    struct State
    {
        bool seen = false;
        bool done = false;
        std::function<void()> poll;
    };
    auto state = std::make_shared<State>();
    std::weak_ptr<State> weak = state;
    state->poll = [weak, use] {
        const std::shared_ptr<State> s = weak.lock();
        if (!s || s->done)
            return;
        if (auto *d = qobject_cast<ResizePartitionDialog *>(QApplication::activeModalWidget())) {
            s->seen = true;
            QPointer<ResizePartitionDialog> dialog(d);
            use(d);
            if (dialog && dialog->isVisible())
                dialog->reject();
        } else {
            QTimer::singleShot(20, s->poll);
        }
    };
    QTimer::singleShot(0, state->poll);
    action->trigger();
    state->done = true;
    return state->seen;
}

} // namespace

class ResizeDialogTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void limitsAreTheRealFreeSpace();
    void defaultAlignmentIsMiB();
    void fourKnStartIsAMultipleOf256();
    void filesystemsThatCannotShrink();
    void menusAndExtendedPartitions();
    void queuedFromTheMenuAndUndone();
    void growApplied();
    void shrinkApplied();
    void moveApplied();
    void applyWarnsOfAJournalInMemory();

private:
    // Queues `op` as the dialog made it and applies the queue through ApplyDialog's worker.
    ApplyResult applyQueued(const Operation &op);
    void checkApplied(qint64 start, qint64 sectors);

    QTemporaryDir m_dir;
    QString m_img;
    QByteArray m_payload;
};

void ResizeDialogTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("PartwiseTests"));
    QCoreApplication::setApplicationName(QStringLiteral("partwise-resize-tests"));
    for (int i = 0; i < (3 << 20) / 4; ++i)
        m_payload.append(reinterpret_cast<const char *>(&i), 4);
    QFile payload(m_dir.filePath(QStringLiteral("payload")));
    QVERIFY(payload.open(QIODevice::WriteOnly));
    payload.write(m_payload);
}

// A 256 MiB GPT image by sfdisk (first usable LBA 34, as libparted writes it): 20 MiB free, p1 100
// MiB ext4 "data" holding a 3 MiB file, then free space to the end.
void ResizeDialogTest::init()
{
    DiskImageBuilder b(m_dir.path());
    QString error;
    m_img = b.createSparse(QString::fromLatin1(QTest::currentTestFunction()), 256 * kMiB, &error);
    QVERIFY2(!m_img.isEmpty(), qPrintable(error));
    QVERIFY2(
        DiskImageBuilder::sfdisk(m_img,
                                 QStringLiteral("label: gpt\nfirst-lba: 34\nstart=%1, size=%2\n")
                                     .arg(kStart)
                                     .arg(kSectors),
                                 &error),
        qPrintable(error));
    QVERIFY2(DiskImageBuilder::mkfsExt4(m_img, kStart * 512, kSectors * 512, QStringLiteral("data"),
                                        &error),
             qPrintable(error));
    QVERIFY(
        runTool(QStringLiteral("debugfs"),
                {QStringLiteral("-w"), QStringLiteral("-R"),
                 QStringLiteral("write %1 payload").arg(m_dir.filePath(QStringLiteral("payload"))),
                 fsName(m_img, kStart)})
            .ok());
    QCOMPARE(readBack(m_img, kStart), m_payload);
}

void ResizeDialogTest::limitsAreTheRealFreeSpace()
{
    const DiskLayout base = readDisk(m_img).layout;
    const SfdiskView sf = sfdiskView(m_img);
    QCOMPARE(sf.start, kStart);
    ResizePartitionDialog dialog(base, {}, base, base.regions.at(rowOf(base, 1)),
                                 AlignmentPolicy());
    // resize2fs runs on another thread: until it answers, the window is usable but the
    // partition cannot shrink.
    QVERIFY(!dialog.isMinimumKnown());
    QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("minimumSize"))
                ->text()
                .contains(QLatin1String("measuring")));
    QCOMPARE(spin(&dialog, "size")->minimum(), int(sf.size * 512 / kMiB));
    QTRY_VERIFY(dialog.isMinimumKnown());
    const qint64 before = (sf.start - sf.firstLba) * 512;
    const qint64 after = (sf.lastLba - (sf.start + sf.size - 1)) * 512;
    const qint64 total = (sf.lastLba - sf.firstLba + 1) * 512;
    QCOMPARE(dialog.range().lowestStart, sf.firstLba);
    QCOMPARE(dialog.range().highestEnd, sf.lastLba);
    // Whole MiB, rounded down: 19.98 MiB before, 100 MiB, 135.98 MiB after.
    QCOMPARE(spin(&dialog, "freeBefore")->value(), int(before / kMiB));
    QCOMPARE(spin(&dialog, "size")->value(), int(sf.size * 512 / kMiB));
    QCOMPARE(spin(&dialog, "size")->maximum(), int(total / kMiB));
    QCOMPARE(spin(&dialog, "freeAfter")->value(), int(after / kMiB));
    // The minimum is resize2fs's, and nothing can push the size below it.
    const qint64 minimum = resize2fsMinimum(m_img, kStart);
    QVERIFY(minimum > 0);
    QVERIFY(dialog.minimumFromFilesystem());
    QCOMPARE(dialog.minimumBytes(), minimum);
    QCOMPARE(spin(&dialog, "size")->minimum(), int((minimum + kMiB - 1) / kMiB));
    QCOMPARE(spin(&dialog, "freeBefore")->maximum(),
             int(total / kMiB) - spin(&dialog, "size")->minimum());
    dialog.setFreeAfterMiB(spin(&dialog, "freeAfter")->maximum());
    QCOMPARE(spin(&dialog, "size")->value(), spin(&dialog, "size")->minimum());
    QCOMPARE(spin(&dialog, "freeBefore")->value() + spin(&dialog, "size")->value() +
                 spin(&dialog, "freeAfter")->value(),
             int(total / kMiB));
    // Nothing changed yet: nothing to queue.
    ResizePartitionDialog untouched(base, {}, base, base.regions.at(rowOf(base, 1)),
                                    AlignmentPolicy());
    QTRY_VERIFY(untouched.isMinimumKnown());
    QVERIFY(!untouched.previewedPartition().has_value());
    // All of the space after it: the plan says "rest", and the end is the last MiB boundary
    // before the backup GPT.
    untouched.setFreeAfterMiB(0);
    QCOMPARE(untouched.operation().sizeBytes, qint64(-1));
    QTRY_VERIFY(untouched.previewedPartition().has_value());
    QCOMPARE(untouched.previewedPartition()->startSector, kStart);
    QCOMPARE(untouched.previewedPartition()->endSector, (sf.lastLba + 1) / 2048 * 2048 - 1);
}

void ResizeDialogTest::defaultAlignmentIsMiB()
{
    const DiskLayout base = readDisk(m_img).layout;
    ResizePartitionDialog dialog(base, {}, base, base.regions.at(rowOf(base, 1)),
                                 AlignmentPolicy());
    QTRY_VERIFY(dialog.isMinimumKnown());
    auto *align = dialog.findChild<QComboBox *>(QStringLiteral("alignTo"));
    QCOMPARE(align->currentText(), QStringLiteral("MiB"));
    QCOMPARE(AlignTo(align->currentData().toInt()), AlignTo::Grain);
    // 7 MiB after the free space's first sector (34) is not on a MiB: the start goes up to one.
    dialog.setFreeBeforeMiB(7);
    QTRY_VERIFY(dialog.previewedPartition().has_value());
    QCOMPARE(dialog.operation().alignTo, AlignTo::Grain);
    QCOMPARE(dialog.previewedPartition()->startSector % 2048, 0);
    QCOMPARE(dialog.previewedPartition()->startSector, 8 * 2048);
    QVERIFY2(dialog.previewText().contains(QLatin1String("Aligned")),
             qPrintable(dialog.previewText()));
    QVERIFY(dialog.previewText().contains(QLatin1String("moves")));
    // None keeps the sector asked for, and the verdict says it is off.
    dialog.setAlignTo(AlignTo::None);
    QTRY_COMPARE(dialog.previewedPartition()->startSector, 34 + 7 * 2048);
    QVERIFY2(dialog.previewText().contains(QLatin1String("Misaligned")),
             qPrintable(dialog.previewText()));
    dialog.setAlignTo(AlignTo::Grain);
    dialog.setSizeMiB(120);
    QTRY_COMPARE(dialog.previewedPartition()->endSector, 8 * 2048 + 120 * 2048 - 1);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTest::qWait(50);
    QVERIFY(dialog.grab().save(screenshotPath(QStringLiteral("resize-dialog"))));
}

void ResizeDialogTest::fourKnStartIsAMultipleOf256()
{
    DiskImageBuilder b(m_dir.path());
    QString error;
    const QString img = b.createSparse(QStringLiteral("fourkn"), 64 * kMiB, &error);
    // 4096-byte LBAs: first usable 6; p1 at LBA 300 (4 KiB-aligned, not on a MiB), 10 MiB.
    QVERIFY2(DiskImageBuilder::fdiskScript(
                 img, 4096, QStringLiteral("label: gpt\nstart=300, size=2560\n"), &error),
             qPrintable(error));
    DiskReadOptions options;
    options.forcedSectorSize = 4096;
    const DiskLayout base = readDisk(img, options).layout;
    QCOMPARE(base.device.topology.logicalSectorSize, qint64(4096));
    ResizePartitionDialog dialog(base, {}, base, base.regions.at(rowOf(base, 1)),
                                 AlignmentPolicy());
    QTRY_VERIFY(dialog.isMinimumKnown());
    QCOMPARE(dialog.range().lowestStart, 6);
    QCOMPARE(spin(&dialog, "freeBefore")->value(), 1); // 294 LBAs: 1.15 MiB
    QCOMPARE(spin(&dialog, "size")->value(), 10);
    dialog.setFreeBeforeMiB(3);
    QTRY_VERIFY(dialog.previewedPartition().has_value());
    QCOMPARE(dialog.previewedPartition()->startSector % 256, 0);
    QCOMPARE(dialog.previewedPartition()->startSector, 4 * 256); // 6 + 768 up to the next MiB
    // A resize alone keeps the start where it is, and says it is off the grain.
    dialog.setFreeBeforeMiB(1);
    dialog.setSizeMiB(20);
    QTRY_COMPARE(dialog.previewedPartition()->startSector, 300);
    QVERIFY2(dialog.previewText().contains(QLatin1String("Sector-aligned")),
             qPrintable(dialog.previewText()));
}

void ResizeDialogTest::filesystemsThatCannotShrink()
{
    const DiskLayout base = readDisk(m_img).layout;
    // The same partition as the queue might leave it: XFS of unknown size. It cannot shrink, so
    // its own size is the minimum.
    PartitionInfo xfs = base.regions.at(rowOf(base, 1));
    xfs.filesystem = QStringLiteral("xfs");
    ResizePartitionDialog dialog(base, {}, base, xfs, AlignmentPolicy());
    QTRY_VERIFY(dialog.isMinimumKnown());
    QCOMPARE(spin(&dialog, "size")->minimum(), 100);
    QCOMPARE(dialog.minimumBytes(), kSectors * 512);
    const QString limit = dialog.findChild<QLabel *>(QStringLiteral("resizeLimit"))->text();
    QVERIFY2(limit.contains(QLatin1String("XFS has no way to shrink")), qPrintable(limit));
    const QString note = dialog.findChild<QLabel *>(QStringLiteral("filesystemNote"))->text();
    QVERIFY2(note.contains(QLatin1String("keeps its size")) &&
                 note.contains(QLatin1String("xfs_growfs")),
             qPrintable(note));
    // exFAT has no resizer at all: the partition keeps at least its size.
    xfs.filesystem = QStringLiteral("exfat");
    ResizePartitionDialog fat(base, {}, base, xfs, AlignmentPolicy());
    QTRY_VERIFY(fat.isMinimumKnown());
    QVERIFY(fat.findChild<QLabel *>(QStringLiteral("resizeLimit"))
                ->text()
                .contains(QLatin1String("exfatprogs has no resizer")));
    QCOMPARE(spin(&fat, "size")->minimum(), 100);
    // Every dialog says that a move copies the data, and to back up.
    const QString move = fat.findChild<QLabel *>(QStringLiteral("moveNote"))->text();
    QVERIFY(move.contains(QLatin1String("journaled")) && move.contains(QLatin1String("back up")));
}

void ResizeDialogTest::menusAndExtendedPartitions()
{
    DiskImageBuilder b(m_dir.path());
    const Fixture mbr = b.modernMbr();
    QVERIFY2(mbr.ok, qPrintable(mbr.error));
    Harness h(mbr.path);
    QVERIFY(h.editing->editMenu()->actions().contains(h.resize()));
    QVERIFY(h.map->actions().contains(h.resize()));
    QVERIFY(h.list->actions().contains(h.resize()));
    const DiskLayout &shown = h.editing->shownLayout();
    for (int row = 0; row < shown.regions.size(); ++row) {
        h.selectRow(row);
        const PartitionInfo &r = shown.regions.at(row);
        QCOMPARE(h.resize()->isEnabled(), !r.isFree() && !r.isContainer());
        if (r.isContainer())
            QVERIFY2(h.resize()->toolTip().contains(QLatin1String("extended")),
                     qPrintable(h.resize()->toolTip()));
    }
    QVERIFY(h.editing->editMenu()->toolTipsVisible());
}

void ResizeDialogTest::queuedFromTheMenuAndUndone()
{
    Harness h(m_img);
    const QString asRead = fingerprint(h.model.layout());
    h.selectRow(rowOf(h.editing->shownLayout(), 1));
    QVERIFY(h.resize()->isEnabled());
    const bool seen = withResizeDialog(h.resize(), [](ResizePartitionDialog *d) {
        d->setSizeMiB(150);
        QTRY_VERIFY(d->previewedPartition().has_value());
        d->grab().save(screenshotPath(QStringLiteral("resize-dialog-grow")));
        d->accept();
    });
    QVERIFY(seen);
    QCOMPARE(h.editing->pending()->count(), 1);
    const Operation op = h.editing->pending()->operations().first();
    QCOMPARE(op.type, Operation::Type::Resize);
    QCOMPARE(op.number, 1);
    QCOMPARE(op.startBytes, qint64(-1));
    QCOMPARE(op.sizeBytes, 150 * kMiB);
    // The map and list show the preview: the partition now ends 50 MiB later.
    const PartitionInfo *p = h.model.layout().partitionByNumber(1);
    QVERIFY(p);
    QCOMPARE(p->startSector, kStart);
    QCOMPARE(p->endSector, kStart + 150 * 2048 - 1);
    const QString grown = fingerprint(h.model.layout());

    h.editing->action(EditingController::Action::Undo)->trigger();
    QCOMPARE(fingerprint(h.model.layout()), asRead);
    QCOMPARE(fingerprint(h.editing->shownLayout()), asRead);
    h.editing->action(EditingController::Action::Redo)->trigger();
    QCOMPARE(fingerprint(h.model.layout()), grown);
    h.editing->pending()->undoStack()->undo();
    QVERIFY(h.editing->pending()->isEmpty());
    QCOMPARE(fingerprint(h.model.layout()), asRead);
}

ApplyResult ResizeDialogTest::applyQueued(const Operation &op)
{
    // As the queue hands it over: through PendingOperations, then Apply's worker thread.
    PendingOperations queue(m_img);
    queue.push(op);
    QString log;
    ApplyResult r = applyWithDialog(m_img, queue.operations(), 0, &log);
    if (!r.ok)
        r.error += QLatin1Char('\n') + log;
    return r;
}

void ResizeDialogTest::checkApplied(qint64 start, qint64 sectors)
{
    const SfdiskView sf = sfdiskView(m_img);
    QCOMPARE(sf.start, start);
    QCOMPARE(sf.size, sectors);
    QCOMPARE(QFileInfo(m_img).size(), 256 * kMiB);
    const ToolResult fsck =
        runTool(QStringLiteral("e2fsck"), {QStringLiteral("-fn"), fsName(m_img, start)});
    QVERIFY2(fsck.exitCode == 0, qPrintable(fsck.describe()));
    QCOMPARE(readBack(m_img, start), m_payload);
}

void ResizeDialogTest::growApplied()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // resize2fs runs on a loop device over the partition
    const DiskLayout base = readDisk(m_img).layout;
    ResizePartitionDialog dialog(base, {}, base, base.regions.at(rowOf(base, 1)),
                                 AlignmentPolicy());
    QTRY_VERIFY(dialog.isMinimumKnown());
    dialog.setSizeMiB(150);
    QTRY_VERIFY(dialog.previewedPartition().has_value());
    const ApplyResult r = applyQueued(dialog.operation());
    QVERIFY2(r.ok, qPrintable(r.error));
    checkApplied(kStart, 150 * 2048);
}

void ResizeDialogTest::shrinkApplied()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const DiskLayout base = readDisk(m_img).layout;
    ResizePartitionDialog dialog(base, {}, base, base.regions.at(rowOf(base, 1)),
                                 AlignmentPolicy());
    QTRY_VERIFY(dialog.isMinimumKnown());
    dialog.setSizeMiB(60);
    QTRY_VERIFY(dialog.previewedPartition().has_value());
    QCOMPARE(dialog.previewedPartition()->endSector, kStart + 60 * 2048 - 1);
    const ApplyResult r = applyQueued(dialog.operation());
    QVERIFY2(r.ok, qPrintable(r.error));
    checkApplied(kStart, 60 * 2048);
}

void ResizeDialogTest::moveApplied()
{
    // A move down by about 10 MiB: asked for 10 MiB free after sector 34, the start goes up to
    // the next MiB, 11 MiB (sector 22528); the size stays exactly 100 MiB.
    const DiskLayout base = readDisk(m_img).layout;
    ResizePartitionDialog dialog(base, {}, base, base.regions.at(rowOf(base, 1)),
                                 AlignmentPolicy());
    QTRY_VERIFY(dialog.isMinimumKnown());
    dialog.setFreeBeforeMiB(10);
    QTRY_VERIFY(dialog.previewedPartition().has_value());
    QCOMPARE(dialog.operation().sizeBytes, kSectors * 512);
    QCOMPARE(dialog.previewedPartition()->startSector, 11 * 2048);
    const ApplyResult r = applyQueued(dialog.operation());
    QVERIFY2(r.ok, qPrintable(r.error));
    checkApplied(11 * 2048, kSectors);
    QVERIFY(!QFile::exists(m_img + QStringLiteral(".partwise-move.realign"))); // journal gone
}

// On a live session the journal of a move would be in RAM. The Apply question says so when the
// queue moves data, and only then.
void ResizeDialogTest::applyWarnsOfAJournalInMemory()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // mounts a tmpfs
    const QString ram = m_dir.filePath(QStringLiteral("ram"));
    QVERIFY(QDir().mkpath(ram));
    QVERIFY(runTool(QStringLiteral("mount"),
                    {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("pwtest"), ram})
                .ok());
    const QString image = ram + QStringLiteral("/disk.img");
    const bool copied =
        runTool(QStringLiteral("cp"), {QStringLiteral("--sparse=always"), m_img, image}).ok();
    const auto askedWhenApplying = [&](const Operation &op) {
        Harness h(image);
        h.editing->pending()->push(op);
        QString asked;
        QTimer answer;
        answer.setInterval(20);
        QObject::connect(&answer, &QTimer::timeout, [&] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                asked = box->text();
                box->button(QMessageBox::No)->click(); // nothing is written
            }
        });
        answer.start();
        h.action(EditingController::Action::Apply)->trigger();
        return asked;
    };
    Operation move;
    move.type = Operation::Type::Resize;
    move.number = 1;
    move.startBytes = 11 * kMiB;
    move.sizeBytes = kSectors * 512;
    Operation grow = move;
    grow.startBytes = -1;
    grow.sizeBytes = 150 * kMiB;
    const QString moving = copied ? askedWhenApplying(move) : QString();
    const QString growing = copied ? askedWhenApplying(grow) : QString();
    runTool(QStringLiteral("umount"), {QStringLiteral("-l"), ram});
    QVERIFY(copied);
    QVERIFY2(moving.contains(QLatin1String("in memory here (tmpfs")), qPrintable(moving));
    QVERIFY2(growing.contains(QLatin1String("Write 1 operation")) &&
                 !growing.contains(QLatin1String("in memory")),
             qPrintable(growing));
}

QTEST_MAIN(ResizeDialogTest)
#include "tst_resizedialog.moc"
