// A read-only disk image, walked as a person would (the file is 0444 and the window runs as a
// plain user: as root the suite drops to `nobody` first, for root may write anything): every
// place that names the disk says "read-only", nothing offers to write it (the Realign banner
// has no button, every writing action is greyed and says why, also while the mouse is over the
// greyed menu item), and Copy Partition copies from it into a writable image. A second case:
// Paste into free space of a full MBR (four primary partitions, as sfdisk wrote them) is
// refused up front in Partwise's words, not libparted's "Too many primary partitions".
#include "diskimagebuilder.h"
#include "disklistmodel.h"
#include "editing/editingcontroller.h"
#include "ops/operationpreview.h"
#include "ops/practicedisk.h"
#include "partitionmodel.h"
#include "realign/realignbanner.h"
#include "realign/realigncontroller.h"
#include "table/diskreader.h"
#include "toolrun.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace partwise;
using namespace pwtest;

namespace {

constexpr uid_t kNobody = 65534;
constexpr gid_t kNogroup = 65534;

// The row of the partition numbered `number` (or of the free space starting at `start`).
int rowWhere(const PartitionModel &model, const std::function<bool(const PartitionInfo &)> &is)
{
    for (int row = 0; row < model.layout().regions.size(); ++row)
        if (is(model.layout().regions.at(row)))
            return row;
    return -1;
}

void select(MainWindow &window, int row)
{
    window.regionSelection()->setCurrentIndex(window.partitionModel()->index(row, 0),
                                              QItemSelectionModel::ClearAndSelect |
                                                  QItemSelectionModel::Rows);
}

bool shown(MainWindow &window, const QString &image)
{
    const int row = window.diskList()->rowOf(image);
    return row >= 0 && window.diskList()->entry(row).state == DiskEntry::State::Ready &&
           window.currentPath() == image;
}

// sfdisk's count of the partitions on an image.
int sfdiskPartitions(const QString &image)
{
    return QJsonDocument::fromJson(
               runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), image}).out)
        .object()
        .value(QStringLiteral("partitiontable"))
        .toObject()
        .value(QStringLiteral("partitions"))
        .toArray()
        .size();
}

} // namespace

class ReadOnlyTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fullMbrRefusesPasteUpFront(); // as root still: it writes its own images
    void readOnlyImageWalk();          // drops root for good

private:
    QTemporaryDir m_dir;
};

void ReadOnlyTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(::chmod(QFile::encodeName(m_dir.path()).constData(), 0755) == 0);
}

void ReadOnlyTest::fullMbrRefusesPasteUpFront()
{
    DiskImageBuilder b(m_dir.path());
    QString error;
    const QString img = b.createSparse(QStringLiteral("full-mbr"), 64 * (qint64(1) << 20), &error);
    QVERIFY2(!img.isEmpty(), qPrintable(error));
    // Four primary partitions of 8 MiB, free space behind them.
    QVERIFY2(DiskImageBuilder::fdiskScript(img, 512,
                                           QStringLiteral("label: dos\nstart=2048, size=16384\n"
                                                          "size=16384\nsize=16384\nsize=16384\n"),
                                           &error),
             qPrintable(error));
    QCOMPARE(sfdiskPartitions(img), 4);
    QVERIFY2(runTool(QStringLiteral("mkfs.ext4"),
                     {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-E"),
                      QStringLiteral("offset=%1").arg(2048 * 512), img, QStringLiteral("8M")})
                 .ok(),
             "mkfs.ext4");

    MainWindow window;
    window.openImage(img);
    QTRY_VERIFY_WITH_TIMEOUT(shown(window, img), 30000);
    const PartitionModel &model = *window.partitionModel();
    EditingController *editing = window.editing();
    select(window, rowWhere(model, [](const PartitionInfo &p) { return p.number == 1; }));
    QAction *copy = editing->action(EditingController::Action::Copy);
    QTRY_VERIFY2(copy->isEnabled(), qPrintable(copy->statusTip()));
    copy->trigger();
    const int freeRow = rowWhere(model, [](const PartitionInfo &p) { return p.isFree(); });
    QVERIFY(freeRow >= 0);
    select(window, freeRow);
    QAction *paste = editing->action(EditingController::Action::Paste);
    QTRY_VERIFY(!paste->isEnabled());
    QVERIFY2(paste->statusTip().contains(QLatin1String("four primary partitions")),
             qPrintable(paste->statusTip()));
    // Apply's preview (and partwise-cli apply) says the same before libparted can.
    Operation create;
    create.type = Operation::Type::Create;
    create.sizeBytes = 4 << 20;
    const PreviewResult preview = previewOperations(readDisk(img).layout, {create}, {});
    QVERIFY(!preview.ok);
    QVERIFY2(preview.error.startsWith(QLatin1String("An MBR (msdos) table holds four primary")),
             qPrintable(preview.error));
    QVERIFY2(!preview.error.contains(QLatin1String("Too many primary")), qPrintable(preview.error));
}

void ReadOnlyTest::readOnlyImageWalk()
{
    const QString missing = [] {
        for (const char *tool : {"mkfs.ext4", "mkfs.fat", "mkswap"})
            if (QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty() &&
                QStandardPaths::findExecutable(
                    QLatin1String(tool), {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")})
                    .isEmpty())
                return QString::fromLatin1(tool);
        return QString();
    }();
    if (!missing.isEmpty())
        QSKIP(qPrintable(missing + QStringLiteral(" is not installed")));
    // The demo disk `partwise --demo` opens, made read-only as a person's file would be.
    PracticeDiskSpec spec;
    spec.path = m_dir.filePath(QStringLiteral("readonly.img"));
    spec.sizeBytes = qint64(512) << 20;
    spec.preset = PracticePreset::Demo;
    QString error;
    QVERIFY2(createPracticeDisk(spec, &error), qPrintable(error));
    QVERIFY(::chmod(QFile::encodeName(spec.path).constData(), 0444) == 0);
    // A writable image to paste into, with free space (sfdisk's empty GPT).
    DiskImageBuilder b(m_dir.path());
    const QString target = b.createSparse(QStringLiteral("target"), 256 << 20, &error);
    QVERIFY2(!target.isEmpty(), qPrintable(error));
    QVERIFY2(DiskImageBuilder::fdiskScript(target, 512, QStringLiteral("label: gpt\n"), &error),
             qPrintable(error));
    if (::geteuid() == 0) {
        QVERIFY(::chown(QFile::encodeName(target).constData(), kNobody, kNogroup) == 0);
        qputenv("HOME", QFile::encodeName(m_dir.path()));
        QVERIFY(::setgroups(0, nullptr) == 0 && ::setresgid(kNogroup, kNogroup, kNogroup) == 0 &&
                ::setresuid(kNobody, kNobody, kNobody) == 0);
    }
    QVERIFY(::access(QFile::encodeName(spec.path).constData(), W_OK) != 0);

    MainWindow window;
    RealignController *realign = installRealign(&window, window.editing());
    QVERIFY(realign);
    window.openImage(spec.path);
    QTRY_VERIFY_WITH_TIMEOUT(shown(window, spec.path), 30000);
    // Named read-only wherever the disk is named.
    const QString chooser =
        window.findChild<QComboBox *>(QStringLiteral("deviceChooser"))->currentText();
    QVERIFY2(chooser.contains(QLatin1String("read-only")), qPrintable(chooser));
    QVERIFY2(window.windowTitle().contains(QLatin1String("read-only")),
             qPrintable(window.windowTitle()));
    const QString status = window.findChild<QLabel *>(QStringLiteral("alignmentStatus"))->text();
    QVERIFY2(status.contains(QLatin1String("read-only")), qPrintable(status));
    // The banner says the disk is misaligned, and offers nothing it cannot do.
    auto *banner = window.findChild<RealignBanner *>();
    QVERIFY(banner);
    QTRY_COMPARE(banner->mode(), RealignBanner::Mode::Misaligned);
    QVERIFY2(banner->text().contains(QLatin1String("read-only")), qPrintable(banner->text()));
    QVERIFY(!banner->button()->isVisibleTo(banner));
    QAction *realignAction = window.findChild<QAction *>(QStringLiteral("realignAction"));
    QVERIFY(!realignAction->isEnabled());
    QVERIFY2(realignAction->statusTip().contains(QLatin1String("read-only")),
             qPrintable(realignAction->statusTip()));

    // Partition 1 (FAT): Copy is offered, every write is greyed and says why.
    const PartitionModel &model = *window.partitionModel();
    select(window, rowWhere(model, [](const PartitionInfo &p) { return p.number == 1; }));
    EditingController *editing = window.editing();
    QTRY_VERIFY(editing->action(EditingController::Action::Copy)->isEnabled());
    for (EditingController::Action a :
         {EditingController::Action::NewTable, EditingController::Action::Resize,
          EditingController::Action::Delete, EditingController::Action::Format,
          EditingController::Action::SetLabel, EditingController::Action::Flags,
          EditingController::Action::Check, EditingController::Action::LoadPlan}) {
        QAction *action = editing->action(a);
        QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
        QVERIFY2(action->statusTip().contains(QLatin1String("read-only")),
                 qPrintable(action->text() + QStringLiteral(": ") + action->statusTip()));
    }
    // Every greyed item of the Edit and Drive menus says why.
    for (QMenu *menu :
         {editing->editMenu(), window.menuBar()->findChild<QMenu *>(QStringLiteral("driveMenu"))}) {
        QVERIFY(menu);
        for (QAction *action : menu->actions())
            if (!action->isSeparator() && !action->menu() && !action->isEnabled())
                QVERIFY2(!action->statusTip().isEmpty(), qPrintable(action->text()));
    }
    // The reason shows while the mouse is over the greyed item.
    QMenu *edit = editing->editMenu();
    QAction *remove = editing->action(EditingController::Action::Delete);
    edit->popup(window.mapToGlobal(QPoint(20, 20)));
    QTRY_VERIFY(edit->isVisible());
    QTest::mouseMove(edit, edit->actionGeometry(remove).center());
    QTRY_COMPARE(window.statusBar()->currentMessage(), remove->statusTip());
    edit->hide();

    // Copying reads only: the copy pastes into the writable image.
    editing->action(EditingController::Action::Copy)->trigger();
    window.openImage(target);
    QTRY_VERIFY_WITH_TIMEOUT(shown(window, target), 30000);
    QVERIFY(!window.windowTitle().contains(QLatin1String("read-only")));
    select(window, rowWhere(model, [](const PartitionInfo &p) { return p.isFree(); }));
    QAction *paste = editing->action(EditingController::Action::Paste);
    QTRY_VERIFY2(paste->isEnabled(), qPrintable(paste->statusTip()));
}

QTEST_MAIN(ReadOnlyTest)
#include "tst_readonly.moc"
