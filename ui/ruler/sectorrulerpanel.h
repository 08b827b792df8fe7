#pragma once

#include <QDockWidget>
#include <QPointer>

class MainWindow;
class PartitionModel;
class QComboBox;
class QItemSelectionModel;
class QLabel;
class QPushButton;
class QSlider;
class SectorRulerWidget;

// View → Sector Ruler: the ruler of the selected region (its start or end; for free space, where
// a new partition would start), the filesystem block size to lay over it, the zoom, the caption
// in words, and Export… (PNG or SVG, for course notes). It reads the same PartitionModel and
// selection as the map, the list and the info panel.
class SectorRulerPanel : public QDockWidget
{
    Q_OBJECT

public:
    explicit SectorRulerPanel(QWidget *parent = nullptr);

    void setModel(PartitionModel *model, QItemSelectionModel *selection);

    SectorRulerWidget *ruler() const { return m_ruler; }
    QString caption() const;
    // Start or end of a partition; free space always shows where a new one would start.
    void showEnd(bool end);
    void setBlockSize(qint64 bytes);
    bool exportTo(const QString &path, QString *error);

private:
    void refresh();
    void chooseExportFile();

    QPointer<PartitionModel> m_model;
    QPointer<QItemSelectionModel> m_selection;
    SectorRulerWidget *m_ruler = nullptr;
    QComboBox *m_edge = nullptr;
    QComboBox *m_blockSize = nullptr;
    QSlider *m_zoom = nullptr;
    QPushButton *m_export = nullptr;
    QLabel *m_caption = nullptr;
};

// Adds the panel to the window (below the map, its toggle in the View menu), reading the
// window's partitions and selection; composed from app/.
SectorRulerPanel *installSectorRuler(MainWindow *window);
