// Copy and Paste of a partition in Partwise's real main window: Edit → Copy on an ext4 partition,
// free space selected, Edit → Paste (the dialog, its preview on the map), Apply; and a paste
// smaller than its source, shrunk on the way. Judged by
// sfdisk (the new partition on the 1 MiB grain), blkid (its filesystem, label and a new UUID),
// e2fsck (clean) and debugfs (the file it holds), never by Partwise's own reading.
#include "diskmapwidget.h"
#include "editing/applydialog.h"
#include "editing/createpartitiondialog.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"
#include "editingtestsupport.h"
#include "partitionmodel.h"
#include "window/mainwindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>
#include <QtTest>

#include <functional>

using namespace partwise;

namespace {

QByteArray run(const QString &program, const QStringList &args, const QByteArray &input = {},
               int *status = nullptr)
{
    QProcess p;
    p.start(program, args);
    p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(120000);
    if (status)
        *status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return p.readAllStandardOutput();
}

QString blkid(const QString &image, qint64 offset, const char *tag)
{
    return QString::fromUtf8(
               run(QStringLiteral("blkid"),
                   {QStringLiteral("-p"), QStringLiteral("-O"), QString::number(offset),
                    QStringLiteral("-o"), QStringLiteral("value"), QStringLiteral("-s"),
                    QLatin1String(tag), image}))
        .trimmed();
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

// Apply with the window's own dialogs: Yes to its question, the Apply dialog closed when done.
bool applyInWindow(EditingController *editing)
{
    bool applyOk = false;
    ModalDriver driver([&](QWidget *modal) {
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            if (QAbstractButton *yes = box->button(QMessageBox::Yes))
                yes->click();
        } else if (auto *d = qobject_cast<ApplyDialog *>(modal); d && d->isFinished()) {
            applyOk = d->result().ok;
            if (!applyOk)
                qWarning() << d->logText();
            d->accept();
        }
    });
    editing->action(EditingController::Action::Apply)->trigger();
    return applyOk;
}

void select(MainWindow &window, int row)
{
    window.regionSelection()->setCurrentIndex(window.partitionModel()->index(row, 0),
                                              QItemSelectionModel::ClearAndSelect |
                                                  QItemSelectionModel::Rows);
}

} // namespace

class PasteWindowTest : public QObject
{
    Q_OBJECT
private:
    // A GPT image of `bytes` whose 16 MiB partition 1 at 1 MiB holds an ext4 (labelled `label`
    // unless empty) with hello.txt saying `text`; empty when a tool failed.
    QString ext4Image(const QString &name, qint64 bytes, const QString &label,
                      const QByteArray &text)
    {
        const QString img = blankImage(m_dir, name, bytes);
        int status = -1;
        run(QStringLiteral("sfdisk"), {QStringLiteral("-q"), img},
            "label: gpt\nstart=2048, size=32768, type=L\n", &status);
        if (status != 0)
            return {};
        QTemporaryDir tree;
        QFile file(tree.filePath(QStringLiteral("hello.txt")));
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
            return {};
        file.close();
        QStringList args{QStringLiteral("-q")};
        if (!label.isEmpty())
            args << QStringLiteral("-L") << label;
        args << QStringLiteral("-d") << tree.path() << QStringLiteral("-E")
             << QStringLiteral("offset=1048576") << img << QStringLiteral("16M");
        run(QStringLiteral("mkfs.ext4"), args, {}, &status);
        return status == 0 ? img : QString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QCoreApplication::setOrganizationName(QStringLiteral("PartwiseTests"));
        QCoreApplication::setApplicationName(QStringLiteral("partwise-paste-window-tests"));
        QSettings().clear();
    }

    void copyThenPasteIntoFreeSpace()
    {
        // A GPT image: an ext4 partition of 16 MiB holding a file, 40 MiB free after it.
        const QString img = ext4Image(QStringLiteral("paste.img"), 64 * kMiB,
                                      QStringLiteral("orig"), "copied by Copy and Paste\n");
        QVERIFY(!img.isEmpty());

        MainWindow window;
        EditingController *editing = window.editing();
        QVERIFY(editing);
        QSignalSpy shown(&window, &MainWindow::diskShown);
        window.show();
        window.openImage(img);
        QVERIFY(QTest::qWaitFor([&] { return !shown.isEmpty(); }, 60000));
        QAction *copy = editing->action(EditingController::Action::Copy);
        QAction *paste = editing->action(EditingController::Action::Paste);
        QCOMPARE(copy->shortcut(), QKeySequence(QKeySequence::Copy));
        QCOMPARE(paste->shortcut(), QKeySequence(QKeySequence::Paste));
        for (QWidget *view : {static_cast<QWidget *>(window.diskMap()),
                              static_cast<QWidget *>(window.partitionView())}) {
            QVERIFY(view->actions().contains(copy));
            QVERIFY(view->actions().contains(paste));
        }

        // Copy on partition 1; Paste is offered on the free space, not before.
        int partRow = -1, freeRow = -1;
        for (int row = 0; row < window.partitionModel()->rowCount(); ++row) {
            const PartitionInfo &r = window.partitionModel()->region(row);
            if (r.number == 1 && !r.isFree())
                partRow = row;
            if (r.isFree() && r.lengthSectors() > 30000)
                freeRow = row;
        }
        QVERIFY(partRow >= 0 && freeRow >= 0);
        select(window, freeRow);
        QVERIFY(!paste->isEnabled());
        select(window, partRow);
        QVERIFY(copy->isEnabled());
        copy->trigger();
        select(window, freeRow);
        QVERIFY(paste->isEnabled());

        bool sawDialog = false;
        {
            ModalDriver driver([&](QWidget *modal) {
                auto *d = qobject_cast<CreatePartitionDialog *>(modal);
                if (!d)
                    return;
                sawDialog = d->objectName() == QLatin1String("pastePartitionDialog");
                d->setSizeBytes(24 * kMiB);        // larger: the filesystem grows with it
                QCoreApplication::processEvents(); // the libparted preview runs
                d->grab().save(screenshotPath(QStringLiteral("paste-dialog")));
                d->accept();
            });
            paste->trigger();
        }
        QVERIFY(sawDialog);
        QCOMPARE(editing->pending()->count(), 1);
        QCOMPARE(editing->pending()->operations().first().type, Operation::Type::Paste);
        // The preview on the map: a second ext4 partition labelled as its source.
        const DiskLayout preview = window.partitionModel()->layout();
        const PartitionInfo *pasted = preview.partitionByNumber(2);
        QVERIFY(pasted);
        QCOMPARE(pasted->filesystem, QStringLiteral("ext4"));
        QCOMPARE(pasted->label, QStringLiteral("orig"));
        QVERIFY(window.grab().save(screenshotPath(QStringLiteral("paste-preview"))));

        // Apply with the window's own dialogs.
        shown.clear();
        QVERIFY(applyInWindow(editing));
        QVERIFY(QTest::qWaitFor([&] { return !shown.isEmpty(); }, 60000));

        const QJsonArray parts =
            QJsonDocument::fromJson(run(QStringLiteral("sfdisk"), {QStringLiteral("-J"), img}))
                .object()
                .value(QStringLiteral("partitiontable"))
                .toObject()
                .value(QStringLiteral("partitions"))
                .toArray();
        QCOMPARE(parts.size(), 2);
        const qint64 start = parts.at(1).toObject().value(QStringLiteral("start")).toInteger();
        const qint64 size = parts.at(1).toObject().value(QStringLiteral("size")).toInteger();
        QCOMPARE(start % 2048, 0);
        QVERIFY(size * 512 >= 24 * kMiB);
        QCOMPARE(blkid(img, start * 512, "TYPE"), QStringLiteral("ext4"));
        QCOMPARE(blkid(img, start * 512, "LABEL"), QStringLiteral("orig"));
        QVERIFY(blkid(img, start * 512, "UUID") != blkid(img, 2048 * 512, "UUID"));
        const QString at = img + QStringLiteral("?offset=%1").arg(start * 512);
        int status = -1;
        run(QStringLiteral("e2fsck"), {QStringLiteral("-fn"), at}, {}, &status);
        QCOMPARE(status, 0);
        QCOMPARE(run(QStringLiteral("debugfs"),
                     {QStringLiteral("-R"), QStringLiteral("cat /hello.txt"), at}),
                 QByteArray("copied by Copy and Paste\n"));
    }

    // Smaller than its source: Copy measures how far the ext4 filesystem shrinks, and Paste is
    // then offered in free space smaller than the partition; the copy is shrunk on the way.
    void pasteSmallerThanItsSource()
    {
        // 16 MiB of ext4 holding a file, and about 15 MiB free after it.
        const QString img =
            ext4Image(QStringLiteral("smaller.img"), 32 * kMiB, QString(), "pasted smaller\n");
        QVERIFY(!img.isEmpty());

        MainWindow window;
        EditingController *editing = window.editing();
        QSignalSpy shown(&window, &MainWindow::diskShown);
        window.show();
        window.openImage(img);
        QVERIFY(QTest::qWaitFor([&] { return !shown.isEmpty(); }, 60000));
        int partRow = -1, freeRow = -1;
        for (int row = 0; row < window.partitionModel()->rowCount(); ++row) {
            const PartitionInfo &r = window.partitionModel()->region(row);
            if (r.number == 1 && !r.isFree())
                partRow = row;
            if (r.isFree() && r.lengthSectors() > 20000)
                freeRow = row;
        }
        QVERIFY(partRow >= 0 && freeRow >= 0);
        QAction *paste = editing->action(EditingController::Action::Paste);
        select(window, partRow);
        editing->action(EditingController::Action::Copy)->trigger();
        select(window, freeRow);
        // Offered once the filesystem's minimum is known (resize2fs -P, in the background).
        QVERIFY2(QTest::qWaitFor([&] { return paste->isEnabled(); }, 30000),
                 qPrintable(paste->toolTip()));
        {
            ModalDriver driver([&](QWidget *modal) {
                if (auto *d = qobject_cast<CreatePartitionDialog *>(modal)) {
                    d->setSizeBytes(10 * kMiB);
                    QCoreApplication::processEvents();
                    d->accept();
                }
            });
            paste->trigger();
        }
        QCOMPARE(editing->pending()->count(), 1);
        shown.clear();
        QVERIFY(applyInWindow(editing));
        const QJsonArray parts =
            QJsonDocument::fromJson(run(QStringLiteral("sfdisk"), {QStringLiteral("-J"), img}))
                .object()
                .value(QStringLiteral("partitiontable"))
                .toObject()
                .value(QStringLiteral("partitions"))
                .toArray();
        QCOMPARE(parts.size(), 2);
        const qint64 start = parts.at(1).toObject().value(QStringLiteral("start")).toInteger();
        QCOMPARE(parts.at(1).toObject().value(QStringLiteral("size")).toInteger() * 512, 10 * kMiB);
        const QString at = img + QStringLiteral("?offset=%1").arg(start * 512);
        int status = -1;
        run(QStringLiteral("e2fsck"), {QStringLiteral("-fn"), at}, {}, &status);
        QCOMPARE(status, 0);
        QCOMPARE(run(QStringLiteral("debugfs"),
                     {QStringLiteral("-R"), QStringLiteral("cat /hello.txt"), at}),
                 QByteArray("pasted smaller\n"));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(PasteWindowTest)
#include "tst_pastewindow.moc"
