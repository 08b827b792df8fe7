#include "selectionbridge.h"

#include <QItemSelectionModel>
#include <QSortFilterProxyModel>

namespace {

constexpr QItemSelectionModel::SelectionFlags kSelectRow =
    QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows;

} // namespace

SelectionBridge::SelectionBridge(QSortFilterProxyModel *proxy, QItemSelectionModel *proxySelection,
                                 QItemSelectionModel *sourceSelection, QObject *parent)
    : QObject(parent), m_proxy(proxy), m_proxySelection(proxySelection),
      m_sourceSelection(sourceSelection)
{
    connect(sourceSelection, &QItemSelectionModel::currentRowChanged, this,
            &SelectionBridge::sourceCurrentChanged);
    connect(proxySelection, &QItemSelectionModel::currentRowChanged, this,
            &SelectionBridge::proxyCurrentChanged);
}

void SelectionBridge::sourceCurrentChanged()
{
    if (m_syncing || !m_proxy || !m_proxySelection || !m_sourceSelection)
        return;
    m_syncing = true;
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_sourceSelection->currentIndex());
    if (proxyIndex.isValid())
        m_proxySelection->setCurrentIndex(proxyIndex, kSelectRow);
    else
        m_proxySelection->clear();
    m_syncing = false;
}

void SelectionBridge::proxyCurrentChanged()
{
    if (m_syncing || !m_proxy || !m_proxySelection || !m_sourceSelection)
        return;
    m_syncing = true;
    const QModelIndex sourceIndex = m_proxy->mapToSource(m_proxySelection->currentIndex());
    if (sourceIndex.isValid())
        m_sourceSelection->setCurrentIndex(sourceIndex, kSelectRow);
    else
        m_sourceSelection->clear();
    m_syncing = false;
}
