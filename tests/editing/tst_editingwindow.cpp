// The editing half inside Partwise's real main window: a new user's session on a practice image
// (GPT, three aligned partitions ext4, vfat and swap, Apply), checked with sfdisk, sgdisk,
// parted and blkid, and the same layout from the saved plan through `partwise-cli apply`.
#include "buildsetting.h"
#include "diskmapwidget.h"
#include "editing/applydialog.h"
#include "editing/createpartitiondialog.h"
#include "editing/editingcontroller.h"
#include "editing/operationdialogs.h"
#include "editing/pendingoperations.h"
#include "editingtestsupport.h"
#include "partitionmodel.h"
#include "window/mainwindow.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>
#include <QtTest>

#include <functional>

using namespace partwise;

namespace {

QString run(const QString &program, const QStringList &args, int *status = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    p.waitForFinished(120000);
    if (status)
        *status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromUtf8(p.readAll());
}

QJsonArray sfdiskPartitions(const QString &device)
{
    return QJsonDocument::fromJson(
               run(QStringLiteral("sfdisk"), {QStringLiteral("-J"), device}).toUtf8())
        .object()
        .value(QStringLiteral("partitiontable"))
        .toObject()
        .value(QStringLiteral("partitions"))
        .toArray();
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

bool waitShown(MainWindow &window, const QString &path, QSignalSpy &spy)
{
    return QTest::qWaitFor(
        [&] {
            for (const QList<QVariant> &args : std::as_const(spy))
                if (args.value(0).toString() == path)
                    return true;
            return false;
        },
        60000);
    Q_UNUSED(window);
}

int largestFreeRow(const PartitionModel &model)
{
    int best = -1;
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.region(row).isFree() && !model.region(row).insideExtended &&
            (best < 0 || model.region(row).lengthSectors() > model.region(best).lengthSectors()))
            best = row;
    return best;
}

void clickButton(QMessageBox *box, QMessageBox::StandardButton which)
{
    if (QAbstractButton *button = box->button(which))
        button->click();
}

// What Apply asked: its text, the button Enter presses and the one that writes.
struct ApplyQuestion
{
    QString text, defaultButton, writeButton;
};

// Apply with the window's own dialogs: confirm, let the worker finish, close the dialog (saving
// a screenshot of it as `screenshot` when named). Returns whether the Apply succeeded.
bool applyQueue(EditingController *editing, const QString &screenshot = QString(),
                ApplyQuestion *asked = nullptr)
{
    bool applyOk = false;
    ModalDriver driver([&](QWidget *modal) {
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            if (asked && asked->text.isEmpty() && box->button(QMessageBox::Yes))
                *asked = {box->text(),
                          box->defaultButton() ? box->defaultButton()->text() : QString(),
                          box->button(QMessageBox::Yes)->text()};
            if (asked)
                box->grab().save(screenshotPath(QStringLiteral("apply-question")));
            clickButton(box, QMessageBox::Yes);
        } else if (auto *d = qobject_cast<ApplyDialog *>(modal); d && d->isFinished()) {
            applyOk = d->result().ok;
            if (!applyOk)
                qWarning() << d->logText();
            if (!screenshot.isEmpty())
                d->grab().save(screenshotPath(screenshot));
            d->accept();
        }
    });
    editing->action(EditingController::Action::Apply)->trigger();
    return applyOk;
}

} // namespace

class EditingWindowTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void newUserCreatesThreeAlignedPartitions();
    void newUserFormatsAUsbStick_data();
    void newUserFormatsAUsbStick();
    void closingAsksAboutPendingOperations();
    void policyChangeKeepsPreviewAndSelection();

private:
    QTemporaryDir m_dir;
};

void EditingWindowTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("PartwiseTests"));
    QCoreApplication::setApplicationName(QStringLiteral("partwise-editing-window-tests"));
    QSettings().clear();
}

void EditingWindowTest::newUserCreatesThreeAlignedPartitions()
{
    const QString img = blankImage(m_dir, QStringLiteral("practice.img"), 256 * kMiB);
    MainWindow window;
    EditingController *editing = window.editing(); // MainWindow installs it
    QVERIFY(editing);
    QSignalSpy shown(&window, &MainWindow::diskShown);
    window.show();
    window.openImage(img);
    QVERIFY(waitShown(window, img, shown));
    QVERIFY(window.menuBar()->actions().size() >= 2);
    QCOMPARE(window.menuBar()->actions().at(1)->menu(), editing->editMenu());
    // The map and the list offer the same operations as their context menu.
    for (QWidget *view : {static_cast<QWidget *>(window.diskMap()),
                          static_cast<QWidget *>(window.partitionView())}) {
        QCOMPARE(view->contextMenuPolicy(), Qt::ActionsContextMenu);
        QVERIFY(view->actions().contains(editing->action(EditingController::Action::Create)));
        QVERIFY(view->actions().contains(editing->action(EditingController::Action::Delete)));
    }

    // New Partition Table… → GPT (the default).
    {
        ModalDriver driver([](QWidget *modal) {
            if (auto *d = qobject_cast<NewTableDialog *>(modal))
                d->accept();
        });
        editing->action(EditingController::Action::NewTable)->trigger();
    }
    QCOMPARE(window.partitionModel()->layout().tableType, QStringLiteral("gpt"));

    struct Wanted
    {
        qint64 size;
        QString fs, label;
        QStringList flags;
    };
    const QList<Wanted> wanted = {
        {96 * kMiB, QStringLiteral("ext4"), QStringLiteral("root"), {}},
        {32 * kMiB, QStringLiteral("vfat"), QStringLiteral("EFI"), {QStringLiteral("esp")}},
        {-1, QStringLiteral("swap"), QString(), {}}};
    for (const Wanted &w : wanted) {
        const int row = largestFreeRow(*window.partitionModel());
        QVERIFY(row >= 0);
        window.regionSelection()->setCurrentIndex(window.partitionModel()->index(row, 0),
                                                  QItemSelectionModel::ClearAndSelect |
                                                      QItemSelectionModel::Rows);
        QVERIFY(editing->action(EditingController::Action::Create)->isEnabled());
        bool sawDialog = false;
        ModalDriver driver([&](QWidget *modal) {
            auto *d = qobject_cast<CreatePartitionDialog *>(modal);
            if (!d)
                return;
            sawDialog = true;
            if (w.size > 0)
                d->setSizeBytes(w.size);
            d->setFilesystem(w.fs);
            d->setLabel(w.label);
            d->setFlags(w.flags);
            QCoreApplication::processEvents(); // the libparted preview runs
            d->accept();
        });
        editing->action(EditingController::Action::Create)->trigger();
        QVERIFY(sawDialog);
    }
    QCOMPARE(editing->pending()->count(), 4);
    const DiskLayout preview = window.partitionModel()->layout();
    QCOMPARE(preview.partitions().size(), 3);
    for (const PartitionInfo &p : preview.partitions())
        QCOMPARE(p.startSector % 2048, 0);
    QTest::qWait(100);
    QVERIFY(window.grab().save(screenshotPath(QStringLiteral("mainwindow-pending-queue"))));

    const QString plan = m_dir.filePath(QStringLiteral("three.json"));
    QString error;
    QVERIFY2(editing->savePlanTo(plan, &error), qPrintable(error));

    // Apply: confirm, let the worker finish, close the dialog; the disk is read again.
    shown.clear();
    QVERIFY(applyQueue(editing, QStringLiteral("mainwindow-apply-done")));
    QVERIFY(waitShown(window, img, shown));
    QVERIFY(editing->pending()->isEmpty());
    QCOMPARE(window.partitionModel()->layout().partitions().size(), 3);

    // Independent checks.
    const QJsonArray parts = sfdiskPartitions(img);
    QCOMPARE(parts.size(), 3);
    for (const QJsonValue &v : parts)
        QCOMPARE(v.toObject().value(QStringLiteral("start")).toInteger() % 2048, 0);
    int status = -1;
    const QString verify = run(QStringLiteral("sgdisk"), {QStringLiteral("-v"), img}, &status);
    QVERIFY2(status == 0 && verify.contains(QLatin1String("No problems found")),
             qPrintable(verify));
    for (int n = 1; n <= 3; ++n) {
        const QString check = run(QStringLiteral("parted"),
                                  {QStringLiteral("-s"), img, QStringLiteral("align-check"),
                                   QStringLiteral("opt"), QString::number(n)},
                                  &status);
        QVERIFY2(status == 0, qPrintable(check)); // -s: the exit status is the answer
    }
    const QStringList types = {QStringLiteral("ext4"), QStringLiteral("vfat"),
                               QStringLiteral("swap")};
    for (int i = 0; i < 3; ++i) {
        const QJsonObject p = parts.at(i).toObject();
        const QString blkid =
            run(QStringLiteral("blkid"),
                {QStringLiteral("-p"), QStringLiteral("-O"),
                 QString::number(p.value(QStringLiteral("start")).toInteger() * 512),
                 QStringLiteral("-o"), QStringLiteral("value"), QStringLiteral("-s"),
                 QStringLiteral("TYPE"), img})
                .trimmed();
        QCOMPARE(blkid, types.at(i));
    }

    // The same plan through the command line gives the same table.
    const QString again = blankImage(m_dir, QStringLiteral("again.img"), 256 * kMiB);
    const QString cli =
        run(pwtest::buildSetting("PARTWISE_CLI"),
            {QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
             m_dir.filePath(QStringLiteral("cli-backups")), plan, again},
            &status);
    QVERIFY2(status == 0, qPrintable(cli));
    const QJsonArray same = sfdiskPartitions(again);
    QCOMPARE(same.size(), parts.size());
    for (int i = 0; i < parts.size(); ++i) {
        QCOMPARE(same.at(i).toObject().value(QStringLiteral("start")),
                 parts.at(i).toObject().value(QStringLiteral("start")));
        QCOMPARE(same.at(i).toObject().value(QStringLiteral("size")),
                 parts.at(i).toObject().value(QStringLiteral("size")));
        QCOMPARE(same.at(i).toObject().value(QStringLiteral("type")),
                 parts.at(i).toObject().value(QStringLiteral("type")));
    }
}

void EditingWindowTest::newUserFormatsAUsbStick_data()
{
    QTest::addColumn<QString>("fs");
    QTest::newRow("exFAT") << QStringLiteral("exfat");
    QTest::newRow("F2FS") << QStringLiteral("f2fs");
}

// A USB stick (or SD card) image: one partition over the whole of it, exFAT for sharing with
// Windows and macOS, F2FS for Android, everything else left at its default.
void EditingWindowTest::newUserFormatsAUsbStick()
{
    QFETCH(QString, fs);
    const QString img = blankImage(m_dir, QStringLiteral("stick-%1.img").arg(fs), 256 * kMiB);
    MainWindow window;
    EditingController *editing = window.editing();
    QSignalSpy shown(&window, &MainWindow::diskShown);
    window.show();
    window.openImage(img);
    QVERIFY(waitShown(window, img, shown));
    {
        ModalDriver driver([](QWidget *modal) {
            if (auto *d = qobject_cast<NewTableDialog *>(modal))
                d->accept();
        });
        editing->action(EditingController::Action::NewTable)->trigger();
    }
    window.regionSelection()->setCurrentIndex(
        window.partitionModel()->index(largestFreeRow(*window.partitionModel()), 0),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    {
        ModalDriver driver([&](QWidget *modal) {
            if (auto *d = qobject_cast<CreatePartitionDialog *>(modal)) {
                d->setFilesystem(fs);
                d->setLabel(QStringLiteral("STICK"));
                QCoreApplication::processEvents();
                d->accept();
            }
        });
        editing->action(EditingController::Action::Create)->trigger();
    }
    shown.clear();
    ApplyQuestion asked;
    QVERIFY(applyQueue(editing, QString(), &asked));
    QVERIFY(waitShown(window, img, shown));
    // Writes described as writes, GParted's way: Apply or Cancel, Cancel what Enter does; a
    // table on a blank disk destroys nothing, and nothing is said to be lost.
    QCOMPARE(asked.writeButton, QStringLiteral("&Apply"));
    QCOMPARE(asked.defaultButton, QStringLiteral("Cancel"));
    QVERIFY2(!asked.text.contains(QStringLiteral("loses")), qPrintable(asked.text));

    const QJsonArray parts = sfdiskPartitions(img);
    QCOMPARE(parts.size(), 1);
    const qint64 start = parts.first().toObject().value(QStringLiteral("start")).toInteger();
    QCOMPARE(start % 2048, 0); // the default: aligned to 1 MiB
    int status = -1;
    const QString blkid =
        run(QStringLiteral("blkid"),
            {QStringLiteral("-p"), QStringLiteral("-O"), QString::number(start * 512),
             QStringLiteral("-o"), QStringLiteral("export"), img},
            &status);
    QVERIFY2(blkid.contains(QStringLiteral("TYPE=") + fs), qPrintable(blkid));
    QVERIFY2(blkid.contains(QStringLiteral("LABEL=STICK")), qPrintable(blkid));

    // A new table over the stick's partition now says what it destroys.
    {
        ModalDriver driver([](QWidget *modal) {
            if (auto *d = qobject_cast<NewTableDialog *>(modal))
                d->accept();
        });
        editing->action(EditingController::Action::NewTable)->trigger();
    }
    ApplyQuestion again;
    shown.clear();
    QVERIFY(applyQueue(editing, QString(), &again));
    QVERIFY2(again.text.contains(QStringLiteral("The new partition table loses every partition")),
             qPrintable(again.text));
    QCOMPARE(again.defaultButton, QStringLiteral("Cancel"));
}

void EditingWindowTest::closingAsksAboutPendingOperations()
{
    const QString img = blankImage(m_dir, QStringLiteral("close.img"), 64 * kMiB);
    MainWindow window;
    EditingController *editing = window.editing();
    QVERIFY(editing);
    QSignalSpy shown(&window, &MainWindow::diskShown);
    window.show();
    window.openImage(img);
    QVERIFY(waitShown(window, img, shown));
    window.close(); // nothing queued: closes without a question
    QVERIFY(!window.isVisible());
    window.show();
    Operation table;
    table.type = Operation::Type::NewTable;
    table.tableType = QStringLiteral("msdos");
    QVERIFY(editing->queue(table));
    QStringList asked;
    QMessageBox::StandardButton answer = QMessageBox::Cancel;
    ModalDriver driver([&](QWidget *modal) {
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            asked << box->text();
            clickButton(box, answer);
        }
    });
    window.close();
    QCOMPARE(asked.size(), 1);
    QVERIFY(window.isVisible());
    // The disk by the name a person knows it by, not its path or the machinery reading it.
    QVERIFY2(
        asked.first().startsWith(QStringLiteral("1 pending operation on close.img will be lost")),
        qPrintable(asked.first()));
    answer = QMessageBox::Discard;
    window.close();
    QCOMPARE(asked.size(), 2);
    QVERIFY(!window.isVisible());
}

void EditingWindowTest::policyChangeKeepsPreviewAndSelection()
{
    const QString img = blankImage(m_dir, QStringLiteral("policy.img"), 128 * kMiB);
    MainWindow window;
    EditingController *editing = window.editing();
    QVERIFY(editing);
    QSignalSpy shown(&window, &MainWindow::diskShown);
    window.show();
    window.openImage(img);
    QVERIFY(waitShown(window, img, shown));
    Operation table;
    table.type = Operation::Type::NewTable;
    table.tableType = QStringLiteral("gpt");
    QVERIFY(editing->queue(table));
    for (int i = 0; i < 2; ++i) {
        Operation create;
        create.type = Operation::Type::Create;
        create.sizeBytes = 16 * kMiB;
        QVERIFY(editing->queue(create));
    }
    const PartitionModel *model = window.partitionModel();
    int second = -1;
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->region(row).number == 2)
            second = row;
    QVERIFY(second >= 0);
    window.regionSelection()->setCurrentIndex(
        model->index(second, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);

    AlignmentPolicy policy = window.alignmentPolicy();
    policy.grainBytes = 4096;
    window.setAlignmentPolicy(policy);
    QCoreApplication::processEvents();
    QCOMPARE(model->layout().partitions().size(), 2); // still the preview
    QCOMPARE(model->report().verdicts.size(), model->layout().regions.size());
    QCOMPARE(model->report().geometry.grainBytes, qint64(4096));
    QVERIFY(editing->selectedRegion().has_value());
    QCOMPARE(editing->selectedRegion()->number, 2);
    policy.grainBytes = AlignmentPolicy::kDefaultGrain;
    window.setAlignmentPolicy(policy);
}

QTEST_MAIN(EditingWindowTest)
#include "tst_editingwindow.moc"
