#pragma once

#include "ops/practicedisk.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

// File → New Practice Disk…: which historical layout to lay out (a misaligned one at first),
// how big the sparse image is, its logical sector size, and where it goes: a folder in full
// view and a file name, both editable.
class PracticeDiskDialog : public QDialog
{
    Q_OBJECT

public:
    explicit PracticeDiskDialog(const QString &folder, QWidget *parent = nullptr);

    partwise::PracticeDiskSpec spec() const;

private:
    void browse();
    void suggestName();
    void updateState();
    QString path() const;

    QLineEdit *m_folder = nullptr;
    QLineEdit *m_name = nullptr;
    QLabel *m_where = nullptr; // the whole path, or why it cannot be created
    QSpinBox *m_sizeMiB = nullptr;
    QComboBox *m_sectorSize = nullptr;
    QComboBox *m_preset = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    bool m_nameEdited = false; // once the user types a name, stop suggesting one
};
