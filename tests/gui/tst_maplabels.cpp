// The disk map's labels on a disk with small partitions: the size first, then the name and the
// filesystem; a label too long for its region is shortened to something that still means it
// ("50M", "free", the filesystem without its label), never cut to a stub ("sw…", "unal…",
// "50...."); the exported picture is wide enough for every label in full. Sizes and names come
// from sfdisk's script and mkfs's label, worked out by hand.
#include "align/misalignmentreport.h"
#include "diskmapgeometry.h"
#include "diskmappainter.h"
#include "diskmapwidget.h"
#include "guitestsupport.h"
#include "partitionmodel.h"
#include "table/diskreader.h"
#include "toolrun.h"

#include <QItemSelectionModel>
#include <QPaintEngine>
#include <QPainter>
#include <QTemporaryDir>
#include <QTextItem>
#include <QtTest>

using namespace partwise;
using namespace pwtest;
using guitest::saveScreenshot;

namespace {

struct DrawnText
{
    QPointF at;
    QString text;
};

// A paint device that keeps the texts drawn on it and where, and draws nothing else.
class TextRecorder : public QPaintDevice
{
public:
    explicit TextRecorder(QSize size) : m_size(size) {}
    QPaintEngine *paintEngine() const override { return &m_engine; }
    const QList<DrawnText> &texts() const { return m_engine.texts; }

protected:
    int metric(PaintDeviceMetric m) const override
    {
        switch (m) {
        case PdmWidth:
            return m_size.width();
        case PdmHeight:
            return m_size.height();
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDepth:
            return 32;
        case PdmDevicePixelRatioScaled:
            return int(devicePixelRatioFScale());
        default:
            return 1;
        }
    }

private:
    struct Engine : QPaintEngine
    {
        Engine() : QPaintEngine(QPaintEngine::AllFeatures) {}
        bool begin(QPaintDevice *) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState &) override {}
        void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override {}
        void drawTextItem(const QPointF &p, const QTextItem &item) override
        {
            texts << DrawnText{painter()->transform().map(p), item.text()};
        }
        Type type() const override { return QPaintEngine::User; }
        QList<DrawnText> texts;
    };
    mutable Engine m_engine;
    QSize m_size;
};

QStringList textsIn(const QList<DrawnText> &texts, const QRectF &rect)
{
    QList<DrawnText> inside;
    for (const DrawnText &t : texts)
        if (rect.contains(t.at))
            inside << t;
    std::sort(inside.begin(), inside.end(),
              [](const DrawnText &a, const DrawnText &b) { return a.at.y() < b.at.y(); });
    QStringList out;
    for (const DrawnText &t : std::as_const(inside))
        out << t.text;
    return out;
}

} // namespace

class MapLabelsTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void narrowRegionsShortenWithMeaning();
    void exportedPictureHasFullLabels();

private:
    QTemporaryDir m_dir;
    QString m_img;
    DiskLayout m_layout;
};

void MapLabelsTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // 4 GiB GPT: a 50 MiB ext4 "Music collection", a 50 MiB swap, 3.9 GiB empty, 1 MiB free.
    m_img = m_dir.filePath(QStringLiteral("map.img"));
    QVERIFY(runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("4G"), m_img})
                .ok());
    QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), m_img},
                    "label: gpt\n2048,50MiB\n,50MiB\n,3900MiB\n")
                .ok());
    const QString fs = m_dir.filePath(QStringLiteral("fs"));
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-L"),
                     QStringLiteral("Music collection"), fs, QStringLiteral("50M")})
                .ok());
    QVERIFY(runTool(QStringLiteral("dd"),
                    {QStringLiteral("if=") + fs, QStringLiteral("of=") + m_img,
                     QStringLiteral("bs=1M"), QStringLiteral("seek=1"),
                     QStringLiteral("conv=notrunc"), QStringLiteral("status=none")})
                .ok());
    QFile::remove(fs);
    QVERIFY(runTool(QStringLiteral("truncate"), {QStringLiteral("-s"), QStringLiteral("50M"), fs})
                .ok());
    QVERIFY(runTool(QStringLiteral("mkswap"), {QStringLiteral("-q"), fs}).ok());
    QVERIFY(runTool(QStringLiteral("dd"),
                    {QStringLiteral("if=") + fs, QStringLiteral("of=") + m_img,
                     QStringLiteral("bs=1M"), QStringLiteral("seek=51"),
                     QStringLiteral("conv=notrunc"), QStringLiteral("status=none")})
                .ok());
    const DiskReadResult read = readDisk(m_img, DiskReadOptions());
    QVERIFY2(read.ok, qPrintable(read.error));
    m_layout = read.layout;
    QCOMPARE(m_layout.partitions().size(), 3);
    QCOMPARE(m_layout.partitionByNumber(1)->label, QStringLiteral("Music collection"));
    QCOMPARE(m_layout.partitionByNumber(2)->filesystem, QStringLiteral("swap"));
}

void MapLabelsTest::narrowRegionsShortenWithMeaning()
{
    PartitionModel model;
    model.setDisk(m_layout, analyzeAlignment(m_layout, AlignmentPolicy()));
    const QRectF bounds(0, 0, 720, 150);
    const DiskMapGeometry geometry(m_layout, DiskMapPainter::barRect(bounds));
    TextRecorder device(bounds.size().toSize());
    {
        QPainter painter(&device);
        DiskMapPainter(QPalette()).paint(painter, bounds, model, geometry, -1, false, QString());
    }
    for (int row = 0; row < model.rowCount(); ++row) {
        const QRectF rect = geometry.regionRect(row);
        const QStringList shown = textsIn(device.texts(), rect);
        const QStringList full = DiskMapPainter::labelLines(model, row);
        for (const QString &text : shown) {
            // Whole, or one of the short forms that keep the meaning.
            const bool whole = full.contains(text);
            const bool shortSize =
                QRegularExpression(QStringLiteral("^\\d+[BKMGTP]$")).match(text).hasMatch();
            const bool filesystemOnly =
                full.size() > 2 && full[2].startsWith(text + QLatin1Char(' '));
            const bool labelShortened =
                text.endsWith(QChar(0x2026)) && text.contains(QChar(0x201C));
            QVERIFY2(whole || shortSize || filesystemOnly || labelShortened ||
                         text == QStringLiteral("free"),
                     qPrintable(QStringLiteral("row %1 shows \"%2\"").arg(row).arg(text)));
        }
        // The size comes first wherever anything is shown.
        if (!shown.isEmpty() && !model.region(row).isContainer())
            QVERIFY2(shown.first() == full.first() ||
                         QRegularExpression(QStringLiteral("^\\d+[BKMGTP]$"))
                             .match(shown.first())
                             .hasMatch(),
                     qPrintable(shown.join(QLatin1Char('|'))));
    }
    // The large empty partition shows all of it: 3900 MiB (sfdisk's script) is 3.8 GiB.
    const int big = [&] {
        for (int row = 0; row < model.rowCount(); ++row)
            if (model.region(row).number == 3)
                return row;
        return -1;
    }();
    QVERIFY(big >= 0);
    QCOMPARE(textsIn(device.texts(), geometry.regionRect(big)).first(), QStringLiteral("3.8 GiB"));

    DiskMapWidget widget;
    QItemSelectionModel selection(&model);
    widget.setModel(&model, &selection);
    widget.resize(bounds.size().toSize());
    widget.show();
    saveScreenshot(&widget, QStringLiteral("map-narrow-labels"));
}

// Export Map: a picture wider than the window where the labels need it, every line in full
// inside its region.
void MapLabelsTest::exportedPictureHasFullLabels()
{
    PartitionModel model;
    model.setDisk(m_layout, analyzeAlignment(m_layout, AlignmentPolicy()));
    DiskMapWidget widget;
    QItemSelectionModel selection(&model);
    widget.setModel(&model, &selection);
    widget.resize(300, 150); // a narrow window: "ext4 “Music collection”" alone needs more
    widget.show();
    const PictureExporter::Picture picture = widget.picture();
    // Wider than the window, as far as the labels side by side need and no further.
    QVERIFY(picture.size.width() > 300);
    QVERIFY(picture.size.width() < 2000);
    QCOMPARE(picture.size.height(), 150);
    const QRectF bounds(QPointF(0, 0), picture.size);
    TextRecorder device(picture.size);
    {
        QPainter painter(&device);
        painter.setFont(widget.font());
        picture.render(painter, bounds);
    }
    const DiskMapGeometry geometry(m_layout, DiskMapPainter::barRect(bounds), widget.labelWidths());
    const QFontMetricsF metrics(widget.font());
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.region(row).isContainer())
            continue;
        const QRectF rect = geometry.regionRect(row);
        QCOMPARE(textsIn(device.texts(), rect), DiskMapPainter::labelLines(model, row));
        for (const DrawnText &t : device.texts())
            if (rect.contains(t.at))
                QVERIFY2(t.at.x() + metrics.horizontalAdvance(t.text) <= rect.right() + 0.5,
                         qPrintable(t.text));
    }
    // The labels a person reads, from mkfs and sfdisk: "Music collection" at 50 MiB.
    QStringList all;
    for (const DrawnText &t : device.texts())
        all << t.text;
    QVERIFY2(all.contains(QStringLiteral("ext4 “Music collection”")), qPrintable(all.join('|')));
    QVERIFY(all.contains(QStringLiteral("swap")));
    QVERIFY2(all.contains(QStringLiteral("50 MiB")), qPrintable(all.join('|')));
    // The caption and the legend in full, though the window is too narrow for either: the
    // image's name, its 4 GiB (truncate), its gpt (sfdisk) and its 512-byte sectors in one
    // line, and the legend's physical sector of 4096 B (the policy's "don't trust the drive"),
    // nothing elided, every text inside the picture.
    const auto drawn = [&](const QStringList &parts) {
        for (const QString &text : std::as_const(all))
            if (std::all_of(parts.cbegin(), parts.cend(),
                            [&](const QString &p) { return text.contains(p); }))
                return true;
        return false;
    };
    QVERIFY2(drawn({QStringLiteral("map.img"), QStringLiteral(" 4 GiB "), QStringLiteral(" gpt "),
                    QStringLiteral("sectors 512 B logical / 512 B physical")}),
             qPrintable(all.join('|')));
    QVERIFY2(drawn({QStringLiteral("grain 1 MiB, physical sector checked as 4096 B")}),
             qPrintable(all.join('|')));
    QVERIFY(all.contains(QStringLiteral("on a physical sector, not the grain")));
    for (const DrawnText &t : device.texts()) {
        QVERIFY2(!t.text.contains(QChar(0x2026)), qPrintable(t.text));
        QVERIFY2(t.at.x() >= 0 &&
                     t.at.x() + metrics.horizontalAdvance(t.text) <= picture.size.width() + 0.5,
                 qPrintable(t.text));
    }
    const QString png =
        QDir(QFileInfo(saveScreenshot(&widget, QStringLiteral("map-window"))).absolutePath())
            .filePath(QStringLiteral("map-exported.png"));
    QString error;
    QVERIFY2(PictureExporter::exportPicture(picture, png, &error), qPrintable(error));
    QCOMPARE(QImage(png).width(), picture.size.width());
}

QTEST_MAIN(MapLabelsTest)
#include "tst_maplabels.moc"
