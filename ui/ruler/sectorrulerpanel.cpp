#include "sectorrulerpanel.h"

#include "base/humansize.h"
#include "partitionmodel.h"
#include "rulercaption.h"
#include "screenfit.h"
#include "sectorrulerwidget.h"
#include "window/mainwindow.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

using namespace partwise;

namespace {

// Block sizes filesystems use: FAT's and NTFS's small clusters up to XFS's and btrfs's largest.
constexpr qint64 kBlockSizes[] = {512, 1024, 2048, 4096, 8192, 16384, 65536};
constexpr qint64 kDefaultBlockSize = 4096; // ext4, NTFS, XFS, btrfs and FAT32 above 8 GiB

} // namespace

SectorRulerPanel::SectorRulerPanel(QWidget *parent) : QDockWidget(tr("Sector Ruler"), parent)
{
    setObjectName(QStringLiteral("sectorRulerPanel"));
    auto *body = new QWidget;
    auto *layout = new QVBoxLayout(body);
    auto *controls = new QHBoxLayout;

    m_edge = new QComboBox;
    m_edge->addItems({tr("Start"), tr("End")});
    m_edge->setAccessibleName(tr("Edge of the partition"));
    auto *edgeLabel = new QLabel(tr("Ed&ge:"));
    edgeLabel->setBuddy(m_edge);

    m_blockSize = new QComboBox;
    for (const qint64 size : kBlockSizes)
        m_blockSize->addItem(humanSize(size), size);
    m_blockSize->setCurrentIndex(m_blockSize->findData(kDefaultBlockSize));
    m_blockSize->setToolTip(tr("The filesystem's block (cluster) size laid over the sectors"));
    auto *blockLabel = new QLabel(tr("&Block:"));
    blockLabel->setBuddy(m_blockSize);

    m_ruler = new SectorRulerWidget;
    m_ruler->setObjectName(QStringLiteral("sectorRuler"));
    m_zoom = new QSlider(Qt::Horizontal);
    m_zoom->setRange(0, SectorRulerWidget::zoomSteps() - 1);
    m_zoom->setValue(m_ruler->zoomStep());
    m_zoom->setAccessibleName(tr("Zoom: bytes shown"));
    auto *zoomLabel = new QLabel(tr("&Zoom:"));
    zoomLabel->setBuddy(m_zoom);
    m_export = new QPushButton(tr("E&xport…"));

    for (QWidget *w : {static_cast<QWidget *>(edgeLabel), static_cast<QWidget *>(m_edge),
                       static_cast<QWidget *>(blockLabel), static_cast<QWidget *>(m_blockSize),
                       static_cast<QWidget *>(zoomLabel)})
        controls->addWidget(w);
    controls->addWidget(m_zoom, 1);
    controls->addWidget(m_export);
    layout->addLayout(controls);
    layout->addWidget(m_ruler);

    m_caption = new QLabel;
    m_caption->setObjectName(QStringLiteral("sectorRulerCaption"));
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_caption->setFocusPolicy(Qt::StrongFocus);
    layout->addWidget(m_caption);
    setWidget(body);

    connect(m_edge, &QComboBox::currentIndexChanged, this, &SectorRulerPanel::refresh);
    connect(m_blockSize, &QComboBox::currentIndexChanged, this, &SectorRulerPanel::refresh);
    connect(m_zoom, &QSlider::valueChanged, m_ruler, &SectorRulerWidget::setZoomStep);
    connect(m_ruler, &SectorRulerWidget::zoomStepChanged, this, [this](int step) {
        m_zoom->setValue(step);
        refresh();
    });
    connect(m_export, &QPushButton::clicked, this, &SectorRulerPanel::chooseExportFile);
    refresh();
}

void SectorRulerPanel::setModel(PartitionModel *model, QItemSelectionModel *selection)
{
    m_model = model;
    m_selection = selection;
    connect(model, &QAbstractItemModel::modelReset, this, &SectorRulerPanel::refresh);
    connect(model, &PartitionModel::verdictsChanged, this, &SectorRulerPanel::refresh);
    connect(selection, &QItemSelectionModel::currentRowChanged, this, &SectorRulerPanel::refresh);
    refresh();
}

QString SectorRulerPanel::caption() const
{
    return m_caption->text();
}

void SectorRulerPanel::showEnd(bool end)
{
    m_edge->setCurrentIndex(end ? 1 : 0);
}

void SectorRulerPanel::setBlockSize(qint64 bytes)
{
    const int index = m_blockSize->findData(bytes);
    if (index >= 0)
        m_blockSize->setCurrentIndex(index);
}

void SectorRulerPanel::refresh()
{
    const int row = m_selection && m_selection->currentIndex().isValid()
                        ? m_selection->currentIndex().row()
                        : -1;
    if (!m_model || !m_model->hasDisk() || row < 0 || row >= m_model->rowCount()) {
        const QString message = tr("Select a partition or free space to see its sectors.");
        m_ruler->clear(message);
        m_caption->setText(message);
        m_export->setEnabled(false);
        return;
    }
    const PartitionInfo &region = m_model->region(row);
    m_edge->setEnabled(!region.isFree());
    RulerRequest request;
    request.edge = region.isFree()               ? RulerEdge::Free
                   : m_edge->currentIndex() == 1 ? RulerEdge::End
                                                 : RulerEdge::Start;
    request.regionFirstSector = region.startSector;
    request.regionLastSector = region.endSector;
    request.blockSize = m_blockSize->currentData().toLongLong();
    request.windowBytes = SectorRulerWidget::windowForStep(m_ruler->zoomStep());
    const AlignmentGeometry &geometry = m_model->report().geometry;
    const SectorRuler ruler = buildSectorRuler(geometry, request);
    m_ruler->setRuler(ruler, RulerCaption::details(ruler, geometry),
                      RulerCaption::physicalSource(geometry.physicalSource));
    m_caption->setText(RulerCaption::caption(ruler, geometry));
    m_export->setEnabled(true);
}

bool SectorRulerPanel::exportTo(const QString &path, QString *error)
{
    return PictureExporter::exportPicture(m_ruler->picture(), path, error);
}

void SectorRulerPanel::chooseExportFile()
{
    const QString path = PictureExporter::choosePath(this, tr("Export Sector Ruler"),
                                                     QStringLiteral("sector-ruler.png"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, &error))
        QMessageBox::warning(this, tr("Export Sector Ruler"), error);
}

SectorRulerPanel *installSectorRuler(MainWindow *window)
{
    auto *panel = new SectorRulerPanel(window);
    panel->setModel(window->partitionModel(), window->regionSelection());
    window->addDockWidget(Qt::BottomDockWidgetArea, panel);
    window->viewMenu()->addAction(panel->toggleViewAction());
    // Below 900 px of height the ruler would leave the partition list a few rows: View → Sector
    // Ruler shows it when wanted.
    if (availableScreenArea(window).height() < 900)
        panel->hide();
    return panel;
}
