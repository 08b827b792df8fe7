// The sector ruler as a new user meets it: a practice disk made from the command line, opened
// in the window, the misaligned partition selected; its blocks are drawn straddling physical
// sectors, in words too; after `realign --all` the same ruler shows them whole. Where the
// partition starts comes from sfdisk, and whether a block straddles from that start alone.
#include "buildsetting.h"
#include "guitestsupport.h"
#include "partitionmodel.h"
#include "ruler/sectorrulerpanel.h"
#include "ruler/sectorrulerwidget.h"
#include "window/mainwindow.h"

#include "clirun.h"
#include "sfdisktable.h"

#include <QFile>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace partwise;

using namespace guitest;
using namespace pwtest;

class TestSectorRulerPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void practiceDiskBeforeAndAfterRealign();
    void zoomFromTheKeyboard();
    void exportsPngAndSvg();
    void captionsDoNotOverlap_data();
    void captionsDoNotOverlap();

private:
    // Selects partition `number` (its start) and returns the panel, or null.
    SectorRulerPanel *select(MainWindow &window, int number);
    // Shows the practice disk with partition 1 selected.
    bool showPartitionOne(MainWindow &window, SectorRulerPanel *panel);
    // The colour drawn in the middle of the ruler's first block, on screen.
    QColor firstBlockColour(SectorRulerWidget *ruler);

    QTemporaryDir m_dir;
    QString m_image;
};

void TestSectorRulerPanel::initTestCase()
{
    useTestSettings();
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(m_dir.isValid());
    m_image = m_dir.filePath(QStringLiteral("xp.img"));
    const CliResult made = runCli({QStringLiteral("practice"), QStringLiteral("windows-xp"),
                                   m_image, QStringLiteral("--size"), QStringLiteral("128M")});
    QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
}

SectorRulerPanel *TestSectorRulerPanel::select(MainWindow &window, int number)
{
    const int row = rowOfPartition(*window.partitionModel(), number);
    if (row < 0)
        return nullptr;
    window.regionSelection()->setCurrentIndex(window.partitionModel()->index(row, 0),
                                              QItemSelectionModel::ClearAndSelect |
                                                  QItemSelectionModel::Rows);
    return window.findChild<SectorRulerPanel *>();
}

bool TestSectorRulerPanel::showPartitionOne(MainWindow &window, SectorRulerPanel *panel)
{
    window.show();
    // View → Sector Ruler: it starts hidden on a screen under 900 px high (offscreen's 800×600).
    panel->show();
    return QTest::qWaitForWindowExposed(&window) && openAndWait(window, m_image) &&
           select(window, 1) == panel && panel->ruler()->hasRuler();
}

QColor TestSectorRulerPanel::firstBlockColour(SectorRulerWidget *ruler)
{
    const QImage image = ruler->grab().toImage();
    const RulerBlock &block = ruler->ruler().blocks.front();
    const int x = int((ruler->xOf(block.begin) + ruler->xOf(block.end)) / 2);
    // A little off the middle line, clear of the block number's text.
    const int y = int(ruler->blockRowRect().top() + 5);
    return image.pixelColor(x, y);
}

void TestSectorRulerPanel::practiceDiskBeforeAndAfterRealign()
{
    const SfdiskTable before = SfdiskTable::read(m_image);
    QVERIFY2(before.ok, qPrintable(before.error));
    const qint64 start = before.find(1)->start;
    QVERIFY2((start * 512) % 4096 != 0, "the XP preset should start off a 4 KiB boundary");

    MainWindow window;
    // View → Sector Ruler: it starts hidden on a screen under 900 px high (offscreen's 800×600).
    installSectorRuler(&window)->show();
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, m_image));
    SectorRulerPanel *panel = select(window, 1);
    QVERIFY(panel && panel->isVisible());
    SectorRulerWidget *ruler = panel->ruler();
    QVERIFY(ruler->hasRuler());
    QCOMPARE(ruler->ruler().focusByte, start * 512);
    QCOMPARE(ruler->ruler().focusInPhysical, (start * 512) % 4096);
    QVERIFY(ruler->ruler().blocksStraddle());
    QVERIFY2(panel->caption().contains(QStringLiteral("read 2 sectors")),
             qPrintable(panel->caption()));
    QVERIFY(panel->caption().contains(QStringLiteral("not measured"), Qt::CaseInsensitive));
    // Screen readers reach the same facts: each block, and the sectors it covers in part.
    QVERIFY(ruler->accessibleDescription().contains(QStringLiteral("in part")));
    const QColor straddling = firstBlockColour(ruler);
    saveScreenshot(panel, QStringLiteral("ruler-windows-xp-before"));
    saveScreenshot(&window, QStringLiteral("ruler-window-windows-xp"));

    // The end of the same partition straddles too: its blocks are laid from its start.
    panel->showEnd(true);
    QVERIFY(ruler->ruler().blocksStraddle());
    QCOMPARE(ruler->ruler().focusByte, (before.find(1)->end() + 1) * 512);
    saveScreenshot(panel, QStringLiteral("ruler-windows-xp-end"));
    panel->showEnd(false);

    // The free space behind it: a new partition would start on the next MiB boundary.
    PartitionModel *model = window.partitionModel();
    int freeRow = -1;
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->region(row).isFree() && model->region(row).startSector > start)
            freeRow = row;
    QVERIFY(freeRow >= 0);
    window.regionSelection()->setCurrentIndex(
        model->index(freeRow, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    const qint64 freeStart = model->region(freeRow).startSector;
    QCOMPARE(ruler->ruler().edge, RulerEdge::Free);
    QCOMPARE(ruler->ruler().focusByte, (freeStart + 2047) / 2048 * 2048 * 512);
    QVERIFY(!ruler->ruler().blocksStraddle());
    QVERIFY2(panel->caption().startsWith(QStringLiteral("A new partition here")),
             qPrintable(panel->caption()));
    saveScreenshot(panel, QStringLiteral("ruler-windows-xp-free"));
    select(window, 1);

    const CliResult realigned =
        runCli({QStringLiteral("realign"), QStringLiteral("--all"), QStringLiteral("--yes"),
                QStringLiteral("--journal"), m_dir.filePath(QStringLiteral("realign.journal")),
                QStringLiteral("--backup-dir"), m_dir.path(), m_image});
    QVERIFY2(realigned.exitCode == 0, qPrintable(realigned.describe()));
    const SfdiskTable after = SfdiskTable::read(m_image);
    QVERIFY2(after.ok, qPrintable(after.error));
    const qint64 moved = after.find(1)->start;
    QVERIFY((moved * 512) % 4096 == 0);

    QVERIFY(openAndWait(window, m_image));
    panel = select(window, 1);
    QVERIFY(panel);
    QCOMPARE(ruler->ruler().focusByte, moved * 512);
    QVERIFY(!ruler->ruler().blocksStraddle());
    QVERIFY2(panel->caption().contains(QStringLiteral("whole physical sectors")),
             qPrintable(panel->caption()));
    const QColor whole = firstBlockColour(ruler);
    QVERIFY2(straddling != whole, "a straddling block and a whole one look the same");
    QVERIFY2(straddling.red() > straddling.green(), qPrintable(straddling.name()));
    QVERIFY2(whole.green() > whole.red(), qPrintable(whole.name()));
    saveScreenshot(panel, QStringLiteral("ruler-windows-xp-after"));
}

void TestSectorRulerPanel::zoomFromTheKeyboard()
{
    MainWindow window;
    SectorRulerPanel *panel = installSectorRuler(&window);
    QVERIFY(showPartitionOne(window, panel));
    SectorRulerWidget *ruler = panel->ruler();
    const qint64 shown = ruler->ruler().windowEnd - ruler->ruler().windowBegin;
    ruler->setFocus();
    QTest::keyClick(ruler, Qt::Key_Minus);
    QCOMPARE(ruler->ruler().windowEnd - ruler->ruler().windowBegin, 2 * shown);
    QTest::keyClick(ruler, Qt::Key_Plus);
    QTest::keyClick(ruler, Qt::Key_Plus);
    QCOMPARE(ruler->ruler().windowEnd - ruler->ruler().windowBegin, shown / 2);
    for (int i = 0; i < 20; ++i)
        QTest::keyClick(ruler, Qt::Key_Minus);
    QCOMPARE(ruler->ruler().windowEnd - ruler->ruler().windowBegin, kRulerMaxWindow);
    saveScreenshot(panel, QStringLiteral("ruler-zoomed-out"));
}

void TestSectorRulerPanel::exportsPngAndSvg()
{
    MainWindow window;
    SectorRulerPanel *panel = installSectorRuler(&window);
    QVERIFY(showPartitionOne(window, panel));
    QString error;
    const QString png = m_dir.filePath(QStringLiteral("ruler.png"));
    const QString svg = m_dir.filePath(QStringLiteral("ruler.svg"));
    QVERIFY2(panel->exportTo(png, &error), qPrintable(error));
    QVERIFY2(panel->exportTo(svg, &error), qPrintable(error));
    const QImage image(png);
    QCOMPARE(image.size(), panel->ruler()->size());
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("Partwise sector ruler"));
    QVERIFY(text.contains("Block 0 (bytes")); // the facts in <desc>
}

void TestSectorRulerPanel::captionsDoNotOverlap_data()
{
    QTest::addColumn<qint64>("startSector");
    QTest::addColumn<int>("width");
    // Wide enough for both captions side by side (at its narrowest, 320 px, they can meet).
    // A start a sector before the 1 MiB grain (the demo disk's extended partition) puts the
    // grain's line just right of the edge's; the others are the usual neighbours.
    for (const int width : {480, 640, 900}) {
        for (const qint64 start :
             {qint64(419839), qint64(2047), qint64(2049), qint64(63), qint64(2048), qint64(2040)})
            QTest::addRow("sector %lld, %d px", start, width) << start << width;
    }
}

void TestSectorRulerPanel::captionsDoNotOverlap()
{
    QFETCH(qint64, startSector);
    QFETCH(int, width);
    AlignmentGeometry geometry; // 512-byte sectors, 4 KiB physical assumed, 1 MiB grain
    RulerRequest request;
    request.regionFirstSector = startSector;
    request.regionLastSector = startSector + 20480;
    SectorRulerWidget ruler;
    ruler.resize(width, ruler.minimumSizeHint().height());
    ruler.setRuler(buildSectorRuler(geometry, request), QString());
    const QList<QRectF> captions = ruler.captionRects();
    // The edge's caption, and the grain's where its line is in the window (a sector away).
    QVERIFY(!captions.isEmpty());
    if (startSector == 419839)
        QCOMPARE(captions.size(), 2);
    for (int i = 0; i < captions.size(); ++i) {
        QVERIFY2(QRectF(ruler.rect()).contains(captions[i]),
                 qPrintable(QStringLiteral("caption %1 is cut off").arg(i)));
        for (int j = i + 1; j < captions.size(); ++j)
            QVERIFY2(!captions[i].intersects(captions[j]),
                     qPrintable(QStringLiteral("captions %1 and %2 overlap").arg(i).arg(j)));
    }
    if (startSector == 419839 && width == 900)
        saveScreenshot(&ruler, QStringLiteral("sector-ruler-captions"));
}

QTEST_MAIN(TestSectorRulerPanel)
#include "tst_sectorruler.moc"
