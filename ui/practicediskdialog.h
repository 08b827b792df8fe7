#pragma once

#include "ops/practicedisk.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QSpinBox;

// File → New Practice Disk…: where the sparse image goes, how big it is, its logical sector
// size, and which historical layout to lay out on it.
class PracticeDiskDialog : public QDialog
{
    Q_OBJECT

public:
    explicit PracticeDiskDialog(const QString &folder, QWidget *parent = nullptr);

    partwise::PracticeDiskSpec spec() const;

private:
    void browse();
    void suggestPath();
    void updateState();

    QString m_folder;
    QLineEdit *m_path = nullptr;
    QSpinBox *m_sizeMiB = nullptr;
    QComboBox *m_sectorSize = nullptr;
    QComboBox *m_preset = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    bool m_pathEdited = false; // once the user types a path, stop suggesting one
};
