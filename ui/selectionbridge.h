#pragma once

#include <QObject>
#include <QPointer>

class QItemSelectionModel;
class QSortFilterProxyModel;

// Keeps a view's selection on a sort proxy in step with the shared selection on the source
// model, both ways, so the sorted list and the disk map always select the same region.
class SelectionBridge : public QObject
{
    Q_OBJECT

public:
    SelectionBridge(QSortFilterProxyModel *proxy, QItemSelectionModel *proxySelection,
                    QItemSelectionModel *sourceSelection, QObject *parent = nullptr);

private:
    void sourceCurrentChanged();
    void proxyCurrentChanged();

    QPointer<QSortFilterProxyModel> m_proxy;
    QPointer<QItemSelectionModel> m_proxySelection;
    QPointer<QItemSelectionModel> m_sourceSelection;
    bool m_syncing = false; // guards against the echo of our own change
};
