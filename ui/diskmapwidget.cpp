#include "diskmapwidget.h"

#include "diskmappainter.h"
#include "logicalvolumestrip.h"
#include "partitionmodel.h"
#include "regionnames.h"

#include <QHelpEvent>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPixmap>
#include <QToolTip>

#include <cmath>

using namespace partwise;

DiskMapWidget::DiskMapWidget(QWidget *parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAccessibleName(tr("Disk map"));
    setMouseTracking(false);
}

void DiskMapWidget::setModel(PartitionModel *model, QItemSelectionModel *selection)
{
    if (m_model)
        m_model->disconnect(this);
    if (m_selection)
        m_selection->disconnect(this);
    m_model = model;
    m_selection = selection;
    connect(model, &QAbstractItemModel::modelReset, this, &DiskMapWidget::relayout);
    connect(model, &PartitionModel::verdictsChanged, this, [this] {
        updateAccessibleDescription();
        update();
    });
    connect(selection, &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                update();
                emit currentRowChanged(current.isValid() ? current.row() : -1);
            });
    relayout();
}

void DiskMapWidget::setMessage(const QString &message)
{
    m_message = message;
    updateAccessibleDescription();
    update();
}

int DiskMapWidget::currentRow() const
{
    if (!m_selection)
        return -1;
    const QModelIndex current = m_selection->currentIndex();
    return current.isValid() ? current.row() : -1;
}

DiskMapWidget::Highlight DiskMapWidget::highlight(int row) const
{
    if (!m_model || row < 0 || row >= m_model->rowCount())
        return Highlight::None;
    switch (m_model->verdict(row).status) {
    case AlignmentStatus::Misaligned:
        return Highlight::Warning;
    case AlignmentStatus::SectorAligned:
        return Highlight::Notice;
    default:
        break;
    }
    return Highlight::None;
}

QList<int> DiskMapWidget::rowsWithHighlight(Highlight wanted) const
{
    QList<int> rows;
    for (int row = 0; m_model && row < m_model->rowCount(); ++row) {
        if (highlight(row) == wanted)
            rows << row;
    }
    return rows;
}

void DiskMapWidget::render(QPainter &painter, const QRectF &bounds) const
{
    if (!m_model)
        return;
    const DiskMapGeometry geometry(m_model->layout(), DiskMapPainter::barRect(bounds),
                                   labelWidths());
    DiskMapPainter mapPainter(palette());
    mapPainter.setFullLabels(true); // a picture is read later, with no tooltip to ask
    mapPainter.paint(painter, bounds, *m_model, geometry, -1, false, m_message);
}

QSize DiskMapWidget::sizeHint() const
{
    return QSize(720, 150);
}

QSize DiskMapWidget::minimumSizeHint() const
{
    return QSize(240, 130);
}

bool DiskMapWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_model) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int row = regionAt(help->pos());
        if (row < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const PartitionInfo &region = m_model->region(row);
        QString text = QStringLiteral("<b>%1</b>").arg(regionTitle(region).toHtmlEscaped());
        const QString why = m_model->verdict(row).explanation(m_model->report().geometry);
        if (!why.isEmpty())
            text += QStringLiteral("<br>") + why.toHtmlEscaped();
        if (const QString volumes = LogicalVolumeStrip::summary(*m_model, row); !volumes.isEmpty())
            text += QStringLiteral("<br>") +
                    volumes.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
        QToolTip::showText(help->globalPos(), text, this, regionRect(row));
        return true;
    }
    return QWidget::event(event);
}

void DiskMapWidget::paintEvent(QPaintEvent *)
{
    if (!m_model)
        return;
    QPainter painter(this);
    DiskMapPainter(palette()).paint(painter, rect(), *m_model, m_geometry, currentRow(), hasFocus(),
                                    m_message);
}

void DiskMapWidget::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void DiskMapWidget::mousePressEvent(QMouseEvent *event)
{
    const int row = regionAt(event->position().toPoint());
    if (row >= 0)
        selectRow(row);
    QWidget::mousePressEvent(event);
}

void DiskMapWidget::keyPressEvent(QKeyEvent *event)
{
    if (!m_model || m_model->rowCount() == 0) {
        QWidget::keyPressEvent(event);
        return;
    }
    const int last = m_model->rowCount() - 1;
    const int row = currentRow();
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Up:
        selectRow(row < 0 ? 0 : qMax(0, row - 1));
        break;
    case Qt::Key_Right:
    case Qt::Key_Down:
        selectRow(row < 0 ? 0 : qMin(last, row + 1));
        break;
    case Qt::Key_Home:
        selectRow(0);
        break;
    case Qt::Key_End:
        selectRow(last);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void DiskMapWidget::focusInEvent(QFocusEvent *event)
{
    QWidget::focusInEvent(event);
    update();
}

void DiskMapWidget::focusOutEvent(QFocusEvent *event)
{
    QWidget::focusOutEvent(event);
    update();
}

void DiskMapWidget::relayout()
{
    if (!m_model)
        return;
    m_geometry = DiskMapGeometry(m_model->layout(), DiskMapPainter::barRect(rect()));
    updateAccessibleDescription();
    update();
}

void DiskMapWidget::selectRow(int row)
{
    if (!m_model || !m_selection)
        return;
    m_selection->setCurrentIndex(m_model->index(row, 0),
                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void DiskMapWidget::updateAccessibleDescription()
{
    if (!m_model || !m_model->hasDisk()) {
        setAccessibleDescription(m_message);
        return;
    }
    QStringList misaligned;
    for (int row : rowsWithHighlight(Highlight::Warning))
        misaligned << regionTitle(m_model->region(row));
    const QString disk = m_model->layout().device.path;
    setAccessibleDescription(
        misaligned.isEmpty()
            ? tr("%1: no misaligned partitions").arg(disk)
            : tr("%1: misaligned partitions: %2").arg(disk, misaligned.join(QStringLiteral(", "))));
}

QList<qreal> DiskMapWidget::labelWidths() const
{
    QList<qreal> widths;
    for (int row = 0; m_model && row < m_model->rowCount(); ++row)
        widths << (m_model->region(row).isContainer()
                       ? 0
                       : DiskMapPainter::fullLabelWidth(font(), *m_model, row));
    return widths;
}

qreal DiskMapWidget::exportWidth() const
{
    // As wide as the window, or as every region's labels in full side by side need.
    qreal needed = 0;
    for (const qreal w : labelWidths())
        needed += w;
    const qreal margins = width() - DiskMapPainter::barRect(rect()).width();
    // The caption and the legend too: a picture has no tooltip to read them whole.
    needed = qMax(needed + 4 * DiskMapGeometry::kExtendedPadding,
                  m_model ? DiskMapPainter::captionAndLegendWidth(font(), *m_model) : 0);
    return qMax<qreal>(width(), std::ceil(needed + margins));
}

PictureExporter::Picture DiskMapWidget::picture()
{
    PictureExporter::Picture picture = PictureExporter::widgetPicture(
        this, [this](QPainter &painter, const QRectF &bounds) { render(painter, bounds); },
        tr("Partwise disk map"));
    picture.size.setWidth(int(exportWidth()));
    picture.grab = [this, size = picture.size] {
        QPixmap pixmap(size);
        pixmap.fill(palette().color(QPalette::Window));
        QPainter painter(&pixmap);
        painter.setFont(font());
        render(painter, QRectF(QPointF(0, 0), size));
        return pixmap;
    };
    return picture;
}
