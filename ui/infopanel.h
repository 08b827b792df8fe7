#pragma once

#include <QDockWidget>
#include <QHash>
#include <QPointer>

#include "table/storagelayer.h"

namespace partwise {
struct AlignmentGeometry;
struct DriveHealth;
struct DeviceInfo;
} // namespace partwise
class PartitionModel;
class QFormLayout;
class QItemSelectionModel;
class QLabel;

// The numbers behind the selected region: sectors, byte offsets, where the start falls
// against 4 KiB and the grain, and the disk's physical sector as the kernel, the drive itself
// and a timing probe give it, next to the one alignment is checked against; then what the drive
// says about itself (model, serial, firmware, rotation, SMART health) or why it could not be
// asked; then what boots from the disk and from the selected partition (hidden when nothing
// does), as read with the disk.
// Every value is a selectable label, and "Copy all" puts the lot on the clipboard.
class InfoPanel : public QDockWidget
{
    Q_OBJECT

public:
    explicit InfoPanel(QWidget *parent = nullptr);

    void setModel(PartitionModel *model, QItemSelectionModel *selection);

    // The text of one value by key ("firstSector", "sizeBytes", ...); tests read it.
    QString value(const QString &key) const;
    QStringList keys() const { return m_order; }
    QString toPlainText() const; // "First sector: 2048" lines, for the clipboard

private:
    QString layersText(const partwise::StorageLayers &layers) const;
    QStringList volumeGroupLines(const partwise::StorageLayer &pv) const;
    QString healthText(const partwise::DriveHealth &health) const;
    QLabel *addGroup(const QString &title);
    QLabel *makeValue(const QString &key, const QString &title, const QString &toolTip);
    void addRow(const QString &key, const QString &title, const QString &toolTip = QString());
    void addPhysicalGrid();
    void showPhysical(const partwise::DeviceInfo &device, const partwise::AlignmentGeometry &g);
    void setValue(const QString &key, const QString &text);
    void refresh();
    void showRegion(int row);
    void showDisk();
    void showBoot(int row);
    void clearValues();

    QPointer<PartitionModel> m_model;
    QPointer<QItemSelectionModel> m_selection;
    QFormLayout *m_form = nullptr;
    QLabel *m_heading = nullptr;
    QLabel *m_explanation = nullptr;
    QLabel *m_bootTitle = nullptr;
    QHash<QString, QLabel *> m_values;
    QHash<QString, QString> m_titles;
    QStringList m_order;
};
