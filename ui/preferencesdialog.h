#pragma once

#include "align/alignmentpolicy.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

// Preferences: the grain partitions are checked against (1 MiB, 4 KiB or a custom size for
// RAID stripes and SSD erase blocks), whether to trust the drive's physical sector size, and
// where moves keep their journals (a live session needs a folder on a real disk).
class PreferencesDialog : public QDialog
{
    Q_OBJECT

public:
    explicit PreferencesDialog(const partwise::AlignmentPolicy &policy, QWidget *parent = nullptr);

    // The policy as edited; only valid when isValid().
    partwise::AlignmentPolicy policy() const;
    bool isValid() const;

    // The folder move journals of disks are kept in; empty: the default.
    void setJournalFolder(const QString &folder);
    QString journalFolder() const;

private:
    void updateState();
    void updateJournalHint();
    std::optional<qint64> grainBytes() const;

    QComboBox *m_grain = nullptr;
    QLineEdit *m_customGrain = nullptr;
    QLabel *m_grainHint = nullptr;
    QCheckBox *m_trustDrive = nullptr;
    QLineEdit *m_journalFolder = nullptr;
    QLabel *m_journalHint = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};
