// The main window against images with known layouts: which partitions the map highlights
// (state and pixels), selection between map, list and info panel, preferences, errors,
// export. Expected values come from sfdisk -J and the ARCHITECTURE.md rule, never from core/align.
#include "alignmentpreferences.h"
#include "diskimagebuilder.h"
#include "disklistmodel.h"
#include "diskmapgeometry.h"
#include "diskmapwidget.h"
#include "guitestsupport.h"
#include "infopanel.h"
#include "partitionmodel.h"
#include "pictureexporter.h"
#include "preferencesdialog.h"
#include "sfdisktable.h"
#include "window/mainwindow.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace partwise;

using namespace guitest;
using pwtest::DiskImageBuilder;
using pwtest::Fixture;
using pwtest::SfdiskTable;

Q_DECLARE_METATYPE(std::function<Fixture(DiskImageBuilder &)>)

namespace {

using FixtureMaker = std::function<Fixture(DiskImageBuilder &)>;

DiskMapWidget::Highlight highlightFor(Expected expected)
{
    switch (expected) {
    case Expected::Misaligned:
        return DiskMapWidget::Highlight::Warning;
    case Expected::SectorAligned:
        return DiskMapWidget::Highlight::Notice;
    default:
        break;
    }
    return DiskMapWidget::Highlight::None;
}

qint64 digits(const QString &text)
{
    // "1,048,576 bytes" -> 1048576: the panel groups digits for people.
    QString number = text.section(QLatin1Char(' '), 0, 0);
    number.remove(QLatin1Char(','));
    bool ok = false;
    const qint64 value = number.toLongLong(&ok);
    return ok ? value : -1;
}

SfdiskTable sfdiskOf(const Fixture &fixture)
{
    return fixture.logicalSectorSize == 512
               ? SfdiskTable::read(fixture.path)
               : SfdiskTable::readWithSectorSize(fixture.path, fixture.logicalSectorSize);
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void mapHighlightsMisalignedPartitions_data();
    void mapHighlightsMisalignedPartitions();
    void infoPanelMatchesSfdisk_data();
    void infoPanelMatchesSfdisk();
    void selectionFollowsMapListAndPanel();
    void keyboardMovesAlongTheMap();
    void preferencesChangeVerdicts();
    void preferencesDialogParsesCustomGrain();
    void unreadableImageShowsItsError();
    void exportMapWritesPngAndSvg();
    void demoDiskShowsMisalignedPartitions();
    void tinyPartitionsStayClickable();
    void infoPanelGetsTheRoomForAnImage();

private:
    void addFixtureRows();

    QTemporaryDir m_dir;
    std::unique_ptr<DiskImageBuilder> m_builder;
};

void TestMainWindow::initTestCase()
{
    useTestSettings();
    QVERIFY(m_dir.isValid());
    m_builder = std::make_unique<DiskImageBuilder>(m_dir.path());
}

void TestMainWindow::addFixtureRows()
{
    QTest::addColumn<FixtureMaker>("make");
    QTest::newRow("winxp") << FixtureMaker([](DiskImageBuilder &b) { return b.winXpMbr(); });
    QTest::newRow("old-fdisk") << FixtureMaker(
        [](DiskImageBuilder &b) { return b.oldFdiskCylinder(); });
    QTest::newRow("hand-aligned") << FixtureMaker(
        [](DiskImageBuilder &b) { return b.handAlignedExtended(); });
    QTest::newRow("gpt-34") << FixtureMaker([](DiskImageBuilder &b) { return b.gptClassic(); });
    QTest::newRow("gpt-4kn") << FixtureMaker([](DiskImageBuilder &b) { return b.gpt4kn(); });
    QTest::newRow("modern-mbr") << FixtureMaker([](DiskImageBuilder &b) { return b.modernMbr(); });
    QTest::newRow("modern-gpt") << FixtureMaker([](DiskImageBuilder &b) { return b.modernGpt(); });
}

void TestMainWindow::mapHighlightsMisalignedPartitions_data()
{
    addFixtureRows();
}

void TestMainWindow::mapHighlightsMisalignedPartitions()
{
    QFETCH(FixtureMaker, make);
    const Fixture fixture = make(*m_builder);
    QVERIFY2(fixture.ok, qPrintable(fixture.error));
    const SfdiskTable table = sfdiskOf(fixture);
    QVERIFY2(table.ok, qPrintable(table.error));

    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, fixture.path));
    PartitionModel *model = window.partitionModel();
    DiskMapWidget *map = window.diskMap();
    QVERIFY2(map->message().isEmpty(), qPrintable(map->message()));

    const QImage image = map->grab().toImage();
    QList<int> expectedWarnings;
    int misaligned = 0;
    for (const auto &p : table.partitions) {
        const int row = rowOfPartition(*model, p.number);
        QVERIFY2(row >= 0, qPrintable(QStringLiteral("partition %1 missing").arg(p.number)));
        QCOMPARE(model->region(row).startSector, p.start);
        const Expected expected = expectedStatus(p.start, table.sectorSize, 4096, 1 << 20,
                                                 p.kind == QLatin1String("extended"));
        QVERIFY2(map->highlight(row) == highlightFor(expected),
                 qPrintable(QStringLiteral("partition %1 at %2 should be %3")
                                .arg(p.number)
                                .arg(p.start)
                                .arg(QLatin1String(expectedName(expected)))));
        if (expected == Expected::Misaligned) {
            expectedWarnings << row;
            ++misaligned;
        }
        // Pixels: red inside every misaligned partition, none inside the others. Extended
        // partitions hold their logical ones, whose red would count, so they are skipped.
        if (expected == Expected::Container)
            continue;
        const QRect rect = map->regionRect(row).adjusted(1, 1, -1, -1);
        QVERIFY2(rect.width() >= 8, "a partition narrower than the minimum width");
        const int red = countRedPixels(image, rect);
        if (expected == Expected::Misaligned)
            QVERIFY2(
                red > rect.height() * 2,
                qPrintable(
                    QStringLiteral("partition %1: only %2 red pixels").arg(p.number).arg(red)));
        else
            QVERIFY2(red == 0, qPrintable(QStringLiteral("partition %1 (%2): %3 red pixels")
                                              .arg(p.number)
                                              .arg(QLatin1String(expectedName(expected)))
                                              .arg(red)));
    }
    std::sort(expectedWarnings.begin(), expectedWarnings.end());
    QCOMPARE(map->rowsWithHighlight(DiskMapWidget::Highlight::Warning), expectedWarnings);

    int judged = 0;
    for (const auto &p : table.partitions)
        judged += p.kind == QLatin1String("extended") ? 0 : 1;
    const QString status = window.statusText();
    QVERIFY2(status.startsWith(QStringLiteral("%1 of %2 partition").arg(misaligned).arg(judged)),
             qPrintable(status));
    saveScreenshot(&window, QStringLiteral("fixture-") + QLatin1String(QTest::currentDataTag()));
}

void TestMainWindow::infoPanelMatchesSfdisk_data()
{
    addFixtureRows();
}

void TestMainWindow::infoPanelMatchesSfdisk()
{
    QFETCH(FixtureMaker, make);
    const Fixture fixture = make(*m_builder);
    QVERIFY2(fixture.ok, qPrintable(fixture.error));
    const SfdiskTable table = sfdiskOf(fixture);
    QVERIFY2(table.ok, qPrintable(table.error));

    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, fixture.path));
    PartitionModel *model = window.partitionModel();
    InfoPanel *panel = window.infoPanel();
    const qint64 ss = table.sectorSize;
    for (const auto &p : table.partitions) {
        const int row = rowOfPartition(*model, p.number);
        QVERIFY(row >= 0);
        window.regionSelection()->setCurrentIndex(model->index(row, 0),
                                                  QItemSelectionModel::ClearAndSelect);
        QCOMPARE(digits(panel->value(QStringLiteral("firstSector"))), p.start);
        QCOMPARE(digits(panel->value(QStringLiteral("lastSector"))), p.end());
        // An extended partition's size is what the MBR says; sfdisk agrees on that too.
        QCOMPARE(digits(panel->value(QStringLiteral("totalSectors"))), p.size);
        QCOMPARE(digits(panel->value(QStringLiteral("firstByte"))), p.start * ss);
        QCOMPARE(digits(panel->value(QStringLiteral("lastByte"))), (p.end() + 1) * ss - 1);
        QCOMPARE(digits(panel->value(QStringLiteral("sizeBytes"))), p.size * ss);
        QCOMPARE(digits(panel->value(QStringLiteral("startMod4k"))), (p.start * ss) % 4096);
        QCOMPARE(digits(panel->value(QStringLiteral("startModGrain"))), (p.start * ss) % (1 << 20));
        QCOMPARE(digits(panel->value(QStringLiteral("logicalSector"))), ss);
        QCOMPARE(digits(panel->value(QStringLiteral("physicalAssumed"))), qMax<qint64>(4096, ss));
        QCOMPARE(panel->value(QStringLiteral("tableType")), table.partedLabel());
    }
}

void TestMainWindow::selectionFollowsMapListAndPanel()
{
    const Fixture fixture = m_builder->gptClassic();
    QVERIFY2(fixture.ok, qPrintable(fixture.error));
    const SfdiskTable table = SfdiskTable::read(fixture.path);
    QVERIFY2(table.ok, qPrintable(table.error));

    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, fixture.path));
    PartitionModel *model = window.partitionModel();
    DiskMapWidget *map = window.diskMap();
    QTreeView *list = window.partitionView();
    auto listRow = [&] {
        const QModelIndex proxy = list->selectionModel()->currentIndex();
        return window.sortedPartitions()->mapToSource(proxy).row();
    };

    // Map → list and panel: click in the middle of partition 3.
    const auto *p3 = table.find(3);
    QVERIFY(p3);
    const int row3 = rowOfPartition(*model, 3);
    QTest::mouseClick(map, Qt::LeftButton, {}, map->regionRect(row3).center());
    QCOMPARE(map->currentRow(), row3);
    QCOMPARE(listRow(), row3);
    QCOMPARE(window.infoPanel()->value(QStringLiteral("firstSector")).toLongLong(), p3->start);
    QVERIFY(list->selectionModel()->isRowSelected(list->selectionModel()->currentIndex().row(),
                                                  QModelIndex()));

    // List → map and panel, with the list sorted backwards so proxy and source rows differ.
    list->sortByColumn(PartitionModel::FirstSectorColumn, Qt::DescendingOrder);
    const auto *p1 = table.find(1);
    const int row1 = rowOfPartition(*model, 1);
    const QModelIndex proxy1 = window.sortedPartitions()->mapFromSource(model->index(row1, 0));
    QVERIFY(proxy1.row() != row1);
    list->selectionModel()->setCurrentIndex(proxy1, QItemSelectionModel::ClearAndSelect |
                                                        QItemSelectionModel::Rows);
    QCOMPARE(map->currentRow(), row1);
    QCOMPARE(window.infoPanel()->value(QStringLiteral("firstSector")).toLongLong(), p1->start);

    // Free space is selectable too, and the panel says so.
    int freeRow = -1;
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->region(row).isFree() && map->regionRect(row).width() > 4)
            freeRow = row;
    }
    QVERIFY(freeRow >= 0);
    QTest::mouseClick(map, Qt::LeftButton, {}, map->regionRect(freeRow).center());
    QCOMPARE(listRow(), freeRow);
    QCOMPARE(window.infoPanel()->value(QStringLiteral("firstSector")).toLongLong(),
             model->region(freeRow).startSector);
    saveScreenshot(&window, QStringLiteral("selection-free-space"));
}

void TestMainWindow::keyboardMovesAlongTheMap()
{
    const Fixture fixture = m_builder->oldFdiskCylinder();
    QVERIFY2(fixture.ok, qPrintable(fixture.error));
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, fixture.path));
    DiskMapWidget *map = window.diskMap();
    map->setFocus();
    QTest::keyClick(map, Qt::Key_Home);
    QCOMPARE(map->currentRow(), 0);
    QTest::keyClick(map, Qt::Key_Right);
    QCOMPARE(map->currentRow(), 1);
    QTest::keyClick(map, Qt::Key_End);
    QCOMPARE(map->currentRow(), window.partitionModel()->rowCount() - 1);
    QTest::keyClick(map, Qt::Key_Left);
    QCOMPARE(map->currentRow(), window.partitionModel()->rowCount() - 2);
    QVERIFY(map->accessibleDescription().contains(QStringLiteral("misaligned")));
}

void TestMainWindow::preferencesChangeVerdicts()
{
    const Fixture fixture = m_builder->gptClassic();
    QVERIFY2(fixture.ok, qPrintable(fixture.error));
    const SfdiskTable table = SfdiskTable::read(fixture.path);
    QVERIFY2(table.ok, qPrintable(table.error));

    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, fixture.path));
    PartitionModel *model = window.partitionModel();
    DiskMapWidget *map = window.diskMap();
    const int selected = rowOfPartition(*model, 2);
    window.regionSelection()->setCurrentIndex(model->index(selected, 0),
                                              QItemSelectionModel::ClearAndSelect);

    struct Case
    {
        qint64 grain;
        bool trust;
        qint64 physical; // what the check must use: an image file reports 512
    };
    const QList<Case> cases{
        {1 << 20, false, 4096}, {4096, false, 4096}, {1 << 20, true, 512}, {64 * 1024, true, 512}};
    for (const Case &c : cases) {
        AlignmentPolicy policy;
        policy.grainBytes = c.grain;
        policy.trustDrive = c.trust;
        window.setAlignmentPolicy(policy);
        for (const auto &p : table.partitions) {
            const int row = rowOfPartition(*model, p.number);
            const Expected expected = expectedStatus(p.start, 512, c.physical, c.grain, false);
            QVERIFY2(map->highlight(row) == highlightFor(expected),
                     qPrintable(QStringLiteral("grain %1 trust %2: partition %3 should be %4")
                                    .arg(c.grain)
                                    .arg(c.trust)
                                    .arg(p.number)
                                    .arg(QLatin1String(expectedName(expected)))));
        }
        // Same disk, new verdicts: the selection stays where the user put it.
        QCOMPARE(map->currentRow(), selected);
        QCOMPARE(digits(window.infoPanel()->value(QStringLiteral("startModGrain"))),
                 (table.find(2)->start * 512) % c.grain);
        // Kept for the next session.
        QCOMPARE(AlignmentPreferences::load().grainBytes, c.grain);
        QCOMPARE(AlignmentPreferences::load().trustDrive, c.trust);
    }
    // GPT at 34 under the 4 KiB grain: 34 stays misaligned, 40 becomes aligned.
    window.setAlignmentPolicy(AlignmentPolicy{4096, false});
    QCOMPARE(map->highlight(rowOfPartition(*model, 1)), DiskMapWidget::Highlight::Warning);
    QCOMPARE(map->highlight(rowOfPartition(*model, 2)), DiskMapWidget::Highlight::None);
    saveScreenshot(&window, QStringLiteral("preferences-grain-4k"));
    window.setAlignmentPolicy(AlignmentPolicy());
}

void TestMainWindow::preferencesDialogParsesCustomGrain()
{
    PreferencesDialog dialog(AlignmentPolicy{});
    auto *grain = dialog.findChild<QComboBox *>(QStringLiteral("grainChoice"));
    auto *custom = dialog.findChild<QLineEdit *>(QStringLiteral("customGrain"));
    QVERIFY(grain && custom);
    QCOMPARE(dialog.policy().grainBytes, qint64(1 << 20));
    grain->setCurrentIndex(2);
    custom->setText(QStringLiteral("192k"));
    QVERIFY(dialog.isValid());
    QCOMPARE(dialog.policy().grainBytes, qint64(192 * 1024));
    custom->setText(QStringLiteral("1000"));
    QVERIFY(!dialog.isValid()); // not whole sectors
    custom->setText(QStringLiteral("nonsense"));
    QVERIFY(!dialog.isValid());
    PreferencesDialog reopened(AlignmentPolicy{192 * 1024, true});
    QCOMPARE(reopened.policy().grainBytes, qint64(192 * 1024));
    QVERIFY(reopened.policy().trustDrive);
}

void TestMainWindow::unreadableImageShowsItsError()
{
    const Fixture garbage = m_builder->garbage();
    const Fixture missing = m_builder->missingPath();
    const Fixture good = m_builder->winXpMbr();
    QVERIFY(garbage.ok && missing.ok && good.ok);

    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, missing.path));
    const DiskEntry &entry = window.diskList()->entry(window.diskList()->rowOf(missing.path));
    QCOMPARE(entry.state, DiskEntry::State::Failed);
    QVERIFY(!entry.error.isEmpty());
    // The error is shown in place of the map and in the status line.
    QVERIFY2(window.statusText().contains(entry.error), qPrintable(window.statusText()));
    QVERIFY(window.diskMap()->message().contains(entry.error));
    QCOMPARE(window.partitionModel()->rowCount(), 0);
    saveScreenshot(&window, QStringLiteral("error-missing-image"));

    // The rest still works: a good image opens next to it.
    QVERIFY(openAndWait(window, good.path));
    QVERIFY(window.partitionModel()->rowCount() > 0);
    QVERIFY(window.diskMap()->message().isEmpty());
    QVERIFY(openAndWait(window, garbage.path));
    QVERIFY(!window.statusText().contains(QStringLiteral("misaligned on")));
    saveScreenshot(&window, QStringLiteral("error-garbage-image"));
}

void TestMainWindow::exportMapWritesPngAndSvg()
{
    const Fixture fixture = m_builder->oldFdiskCylinder();
    QVERIFY(fixture.ok);
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, fixture.path));
    QString error;
    const QString png = m_dir.filePath(QStringLiteral("map.png"));
    const QString svg = m_dir.filePath(QStringLiteral("map.svg"));
    QVERIFY2(PictureExporter::exportPicture(window.diskMap()->picture(), png, &error),
             qPrintable(error));
    QVERIFY2(PictureExporter::exportPicture(window.diskMap()->picture(), svg, &error),
             qPrintable(error));
    const QImage image(png);
    // As tall as the map; wider where its caption and legend need it, which the window elides
    // and the picture draws whole (gui_maplabels).
    QCOMPARE(image.height(), window.diskMap()->height());
    QVERIFY(image.width() >= window.diskMap()->width());
    QVERIFY(countRedPixels(image, image.rect()) > 0);
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("#d32020")); // the misaligned outline survives as a vector colour
}

void TestMainWindow::demoDiskShowsMisalignedPartitions()
{
    QTemporaryDir demoFolder;
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy created(&window, &MainWindow::imageCreated);
    window.openDemoDisk(demoFolder.path());
    QVERIFY(created.wait(120000));
    const QString path = created.at(0).at(0).toString();
    QVERIFY2(!path.isEmpty(), qPrintable(created.at(0).at(1).toString()));
    QVERIFY(waitUntilShown(window, path));

    const SfdiskTable table = SfdiskTable::read(path);
    QVERIFY2(table.ok, qPrintable(table.error));
    int misaligned = 0;
    for (const auto &p : table.partitions) {
        const Expected expected = expectedStatus(p.start, table.sectorSize, 4096, 1 << 20,
                                                 p.kind == QLatin1String("extended"));
        const int row = rowOfPartition(*window.partitionModel(), p.number);
        QVERIFY(row >= 0);
        QVERIFY(window.diskMap()->highlight(row) == highlightFor(expected));
        misaligned += expected == Expected::Misaligned ? 1 : 0;
    }
    QVERIFY2(misaligned > 0, "the demo disk is meant to show misaligned partitions");
    // The window opens on the first misaligned partition, so the panel explains it at once.
    QCOMPARE(window.diskMap()->highlight(window.diskMap()->currentRow()),
             DiskMapWidget::Highlight::Warning);
    saveScreenshot(&window, QStringLiteral("demo"));
}

void TestMainWindow::tinyPartitionsStayClickable()
{
    // A 2 TiB disk with a 1 MiB partition, a huge one, and an extended partition holding a
    // 1 MiB logical one: the small ones keep the minimum width and are hit by clicks.
    auto region = [](PartitionInfo::Kind kind, int number, qint64 start, qint64 end) {
        PartitionInfo r;
        r.kind = kind;
        r.number = number;
        r.startSector = start;
        r.endSector = end;
        return r;
    };
    const qint64 mib = 2048;
    DiskLayout layout;
    layout.tableType = QStringLiteral("msdos");
    layout.device.lengthSectors = qint64(4) << 30; // 2 TiB of 512-byte sectors
    layout.regions = {
        region(PartitionInfo::Kind::Primary, 1, mib, 2 * mib - 1),
        region(PartitionInfo::Kind::Primary, 2, 2 * mib, (qint64(3) << 30) - 1),
        region(PartitionInfo::Kind::Extended, 3, qint64(3) << 30, (qint64(4) << 30) - 1),
        region(PartitionInfo::Kind::Logical, 5, (qint64(3) << 30) + mib,
               (qint64(3) << 30) + 2 * mib - 1),
        region(PartitionInfo::Kind::Logical, 6, (qint64(3) << 30) + 2 * mib, (qint64(4) << 30) - 1),
    };
    const QRectF bar(0, 0, 600, 100);
    const DiskMapGeometry geometry(layout, bar);
    for (int row : {0, 3}) {
        const QRectF rect = geometry.regionRect(row);
        QVERIFY2(rect.width() >= DiskMapGeometry::kMinPartitionWidth - 1,
                 qPrintable(QStringLiteral("row %1 is %2 px wide").arg(row).arg(rect.width())));
        QCOMPARE(geometry.regionAt(rect.center()), row);
    }
    // Logical partitions lie inside their extended partition; its title band selects it.
    const QRectF extended = geometry.regionRect(2);
    QVERIFY(extended.contains(geometry.regionRect(3)));
    QVERIFY(extended.contains(geometry.regionRect(4)));
    QCOMPARE(geometry.regionAt(QPointF(extended.center().x(), extended.top() + 4)), 2);
    // Widths still follow sizes: the 1.5 TiB partition 2 dwarfs partition 1.
    QVERIFY(geometry.regionRect(1).width() > 5 * geometry.regionRect(0).width());
    // Nothing spills out of the bar.
    for (const QRectF &rect : geometry.regionRects())
        QVERIFY(bar.adjusted(-0.5, -0.5, 0.5, 0.5).contains(rect));
}

void TestMainWindow::infoPanelGetsTheRoomForAnImage()
{
    const Fixture fixture = m_builder->winXpMbr();
    QVERIFY2(fixture.ok, qPrintable(fixture.error));
    MainWindow window; // at its own size, with the Pending Operations dock below the panel
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, fixture.path));
    PartitionModel *model = window.partitionModel();
    window.regionSelection()->setCurrentIndex(model->index(rowOfPartition(*model, 1), 0),
                                              QItemSelectionModel::ClearAndSelect);
    InfoPanel *panel = window.infoPanel();
    QTest::qWait(50);
    qInfo("%s", qPrintable(saveScreenshot(&window, QStringLiteral("info-panel-image"))));
    // An image has no drive to ask: the panel says so once, and shows no empty drive rows.
    const auto *answer = panel->findChild<QLabel *>(QStringLiteral("driveAnswer"));
    QVERIFY(answer && answer->isVisible() && !answer->text().isEmpty());
    QStringList emptyRows;
    for (const char *key : {"driveModel", "driveSerial", "driveFirmware", "driveWwn",
                            "driveRotation", "driveHealth"}) {
        const auto *value = panel->findChild<QLabel *>(QString::fromLatin1(key));
        QVERIFY(value);
        QVERIFY(value->text().isEmpty());
        if (value->isVisible())
            emptyRows << QString::fromLatin1(key);
        for (const QLabel *title : panel->findChildren<QLabel *>())
            if (title->buddy() == value && title->isVisible())
                emptyRows << title->text();
    }
    QVERIFY2(emptyRows.isEmpty(), qPrintable(emptyRows.join(QStringLiteral(", "))));
    // The panel has the room; the empty queue below it needs only its buttons and a few rows.
    auto *pending = window.findChild<QDockWidget *>(QStringLiteral("pendingOperationsDock"));
    QVERIFY(pending && pending->isVisible());
    QVERIFY2(panel->height() >= 2 * pending->height(),
             qPrintable(QStringLiteral("the info panel is %1 px tall, the pending operations %2")
                            .arg(panel->height())
                            .arg(pending->height())));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
