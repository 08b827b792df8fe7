#include "realign/realignpages.h"

#include "align/misalignmentreport.h"
#include "diskmapwidget.h"
#include "partitionmodel.h"

#include <QCoreApplication>
#include <QItemSelectionModel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using namespace partwise;

RealignMap::RealignMap(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_model = new PartitionModel(this);
    m_map = new DiskMapWidget;
    m_map->setModel(m_model, new QItemSelectionModel(m_model, this));
    // Only to look at: the window's own map is where partitions are selected.
    m_map->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_map->setFocusPolicy(Qt::NoFocus);
    layout->addWidget(m_map);
}

void RealignMap::setDisk(const DiskLayout &layout, const AlignmentPolicy &policy)
{
    m_model->setDisk(layout, analyzeAlignment(layout, policy));
    m_map->setMessage(layout.regions.isEmpty() ? tr("Nothing to show") : QString());
}
