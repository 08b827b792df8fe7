#pragma once

#include "ops/operation.h"
#include "table/disklayout.h"

#include <QDialog>
#include <QList>

#include <optional>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;
class PassphraseFields;

// The small dialogs of the Edit menu. Each returns the operations to queue; none touches a disk.

// New partition table: GPT or MBR, with a warning that every partition on the disk goes.
class NewTableDialog : public QDialog
{
    Q_OBJECT
public:
    NewTableDialog(const partwise::DiskLayout &shown, QWidget *parent = nullptr);
    partwise::Operation operation() const;

private:
    QComboBox *m_type = nullptr;
};

// Format: one of the filesystems Partwise can create, and a label.
class FormatDialog : public QDialog
{
    Q_OBJECT
public:
    FormatDialog(const partwise::PartitionInfo &partition, QWidget *parent = nullptr);
    partwise::Operation operation() const;

private:
    int m_number = 0;
    QComboBox *m_filesystem = nullptr;
    QLineEdit *m_label = nullptr;
    PassphraseFields *m_passphrase = nullptr;
};

// Flags: one check box per flag the table type knows; returns a SetFlag per change.
class FlagsDialog : public QDialog
{
    Q_OBJECT
public:
    FlagsDialog(const partwise::PartitionInfo &partition, const QString &tableType,
                QWidget *parent = nullptr);
    QList<partwise::Operation> operations() const;

private:
    partwise::PartitionInfo m_partition;
    QListWidget *m_flags = nullptr;
};

// Check: read-only, or repair on request.
class CheckDialog : public QDialog
{
    Q_OBJECT
public:
    CheckDialog(const partwise::PartitionInfo &partition, QWidget *parent = nullptr);
    partwise::Operation operation() const;

private:
    int m_number = 0;
    QCheckBox *m_repair = nullptr;
};

namespace OperationPrompts {

// Text prompts (QInputDialog) for a filesystem label and a GPT partition name.
std::optional<partwise::Operation> askLabel(const partwise::PartitionInfo &partition,
                                            QWidget *parent);
std::optional<partwise::Operation> askName(const partwise::PartitionInfo &partition,
                                           QWidget *parent);
partwise::Operation deletion(const partwise::PartitionInfo &partition);

} // namespace OperationPrompts
