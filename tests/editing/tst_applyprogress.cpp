// Apply's dialog during a long operation and after it: the bytes of a move with speed and time
// left, a Cancel that stops at a safe point and then says which operations were done and which
// were not (checked with sfdisk -J: what it calls not done is not on the disk), and a finished
// dialog whose buttons sit below its log, never over it.
#include "editing/applydialog.h"
#include "editingtestsupport.h"
#include "toolrun.h"

#include <QDialogButtonBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;
using namespace pwtest;

namespace {

QJsonArray sfdiskPartitions(const QString &img)
{
    return QJsonDocument::fromJson(
               runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), img}).out)
        .object()
        .value(QStringLiteral("partitiontable"))
        .toObject()
        .value(QStringLiteral("partitions"))
        .toArray();
}

// The two widgets do not overlap and `below` is under `above`, in the dialog's coordinates.
bool isBelow(const QWidget *below, const QWidget *above, const QWidget *dialog)
{
    const QRect a(above->mapTo(dialog, QPoint(0, 0)), above->size());
    const QRect b(below->mapTo(dialog, QPoint(0, 0)), below->size());
    return !a.intersects(b) && b.top() >= a.bottom();
}

} // namespace

class ApplyProgressTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void moveShowsBytesAndCancelSaysWhatWasDone();

private:
    QTemporaryDir m_dir;
};

void ApplyProgressTest::moveShowsBytesAndCancelSaysWhatWasDone()
{
    // 1 GiB, partition 1 (unknown contents, so moved whole) 600 MiB long with 64 MiB free before.
    const QString img = blankImage(m_dir, QStringLiteral("move.img"), 1024 * kMiB);
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), img},
                    "label: gpt\n133120,600MiB\n")
                .ok());
    Operation move;
    move.type = Operation::Type::Resize;
    move.number = 1;
    move.startBytes = 2048 * 512;
    move.sizeBytes = 600 * kMiB;
    Operation create;
    create.type = Operation::Type::Create;
    create.sizeBytes = 32 * kMiB;
    ApplyOptions options;
    options.backupRoot = m_dir.filePath(QStringLiteral("backups"));
    options.journalFolder = m_dir.filePath(QStringLiteral("journals"));
    ApplyDialog dialog(img, {move, create}, options);
    dialog.setQuestionHandler(
        [](const PartedMessage &m) { return PartedSession::readOnlyResolution(m); });
    QSignalSpy done(&dialog, &ApplyDialog::applyFinished);
    dialog.show();
    dialog.start();

    auto *bytes = dialog.findChild<QLabel *>(QStringLiteral("applyBytes"));
    auto *cancel = dialog.findChild<QPushButton *>(QStringLiteral("applyCancelButton"));
    auto *buttons = dialog.findChild<QDialogButtonBox *>();
    auto *log = dialog.findChild<QPlainTextEdit *>(QStringLiteral("applyLog"));
    QVERIFY(bytes && cancel && buttons && log);
    QVERIFY(cancel->isVisible() && cancel->isEnabled());
    QVERIFY(!buttons->button(QDialogButtonBox::Close)->isVisible()); // nothing to close yet
    // The first bytes of the move: what, how far, of how much (the partition's 600 MiB).
    QVERIFY(QTest::qWaitFor([&] { return bytes->isVisible() || !done.isEmpty(); }, 120000));
    QVERIFY2(done.isEmpty(),
             qPrintable(QStringLiteral("ended before any bytes: ") + dialog.result().error +
                        QLatin1Char('\n') + dialog.logText()));
    QVERIFY2(bytes->text().startsWith(QStringLiteral("Partition 1, moving: ")) &&
                 bytes->text().contains(QStringLiteral(" of 600 MiB")),
             qPrintable(bytes->text()));
    dialog.grab().save(screenshotPath(QStringLiteral("apply-progress")));
    cancel->click();
    QVERIFY(!cancel->isEnabled());
    QVERIFY(done.wait(180000) || !done.isEmpty());
    QTest::qWait(50);
    dialog.grab().save(screenshotPath(QStringLiteral("apply-cancelled")));

    const ApplyResult r = dialog.result();
    QVERIFY(!r.ok);
    // Cancel stops at a safe point: inside the move (resumable) or, if the move was already at
    // its end, before the Create. Either way the Create is not done and the dialog says so.
    QVERIFY(r.completed <= 1);
    auto *status = dialog.findChild<QLabel *>(QStringLiteral("applyStatus"));
    QVERIFY(status);
    const QString said = status->text();
    QVERIFY2(
        said.startsWith(QStringLiteral("Cancelled after %1 of 2 operations.").arg(r.completed)),
        qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("Not done: ")) &&
                 said.contains(QStringLiteral("2. Create")),
             qPrintable(said));
    QCOMPARE(said.contains(QStringLiteral("Done: 1. Resize")), r.completed == 1);
    if (r.completed == 0) {
        QVERIFY(r.resumable);
        QVERIFY2(said.contains(QStringLiteral("Stopped partway: 1. Move")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("partwise-cli resume")), qPrintable(said));
    }
    QCOMPARE(sfdiskPartitions(img).size(), 1); // no partition 2: the Create did not run

    // Finished: Close instead of Cancel, and the buttons below the log, never over it.
    QVERIFY(!cancel->isVisible());
    QVERIFY(buttons->button(QDialogButtonBox::Close)->isVisible());
    QVERIFY(isBelow(buttons, log, &dialog));
    QVERIFY(isBelow(log, status, &dialog));
    QVERIFY(dialog.rect().contains(QRect(buttons->mapTo(&dialog, QPoint(0, 0)), buttons->size())));
}

QTEST_MAIN(ApplyProgressTest)
#include "tst_applyprogress.moc"
