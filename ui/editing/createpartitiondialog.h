#pragma once

#include "align/alignmentpolicy.h"
#include "ops/operation.h"
#include "ops/operationpreview.h"
#include "table/disklayout.h"

#include <QDialog>
#include <QList>
#include <QTimer>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class PassphraseFields;

// New partition in one free region: size and free space before it in MiB or GiB, bounded by
// the region; "Align to" (MiB by default: the preferences' grain); kind on MBR, name on GPT;
// filesystem, label and flags. The resulting sectors shown are libparted's, from
// previewOperations() on the disk as read plus the pending queue plus this operation: the
// dialog converts units and nothing else.
// Given a Paste (`paste`: its source set, ops/pastesource.h), the same dialog places a copy of
// that partition instead: no filesystem, label, name or flags of its own, the size at least
// what the source's filesystem fills and the source's size to begin with.
class CreatePartitionDialog : public QDialog
{
    Q_OBJECT

public:
    // `base`: the disk as read; `pending`: the queue before this operation; `shown`: their
    // preview, which `freeRegion` belongs to.
    CreatePartitionDialog(const partwise::DiskLayout &base,
                          const QList<partwise::Operation> &pending,
                          const partwise::DiskLayout &shown,
                          const partwise::PartitionInfo &freeRegion,
                          const partwise::AlignmentPolicy &policy, QWidget *parent = nullptr,
                          const std::optional<partwise::Operation> &paste = std::nullopt);

    partwise::Operation operation() const;
    // The partition as libparted would place it, when the preview succeeds.
    std::optional<partwise::PartitionInfo> previewedPartition() const { return m_previewed; }
    QString previewText() const;

    // Units of the spin boxes.
    enum class Unit { MiB, GiB };
    void setUnit(Unit unit);
    void setSizeBytes(qint64 bytes);   // clamped to the region; the region's end means "the rest"
    void setBeforeBytes(qint64 bytes); // free space left before the partition
    void setAlignTo(partwise::AlignTo mode);
    void setKind(partwise::PartitionInfo::Kind kind);
    void setFilesystem(const QString &filesystem); // empty: unformatted
    void setLabel(const QString &label);
    void setName(const QString &name);
    void setFlags(const QStringList &flags);

private:
    qint64 unitBytes() const;
    qint64 regionBytes() const;
    qint64 beforeBytes() const;
    bool sizeIsRest() const;
    void updateLimits();
    void schedulePreview();
    void runPreview();
    void setUpPaste(class QFormLayout *form);

    partwise::DiskLayout m_base;
    QList<partwise::Operation> m_pending;
    partwise::DiskLayout m_shown;
    partwise::PartitionInfo m_free;
    partwise::AlignmentPolicy m_policy;
    std::optional<partwise::Operation> m_paste;
    qint64 m_sectorSize = 512;
    QTimer m_previewTimer;
    std::optional<partwise::PartitionInfo> m_previewed;

    QComboBox *m_unit = nullptr;
    QDoubleSpinBox *m_before = nullptr;
    QDoubleSpinBox *m_size = nullptr;
    QLabel *m_after = nullptr;
    QComboBox *m_align = nullptr;
    QComboBox *m_kind = nullptr;
    QLineEdit *m_name = nullptr;
    QComboBox *m_filesystem = nullptr;
    QLineEdit *m_label = nullptr;
    PassphraseFields *m_passphrase = nullptr;
    QListWidget *m_flags = nullptr;
    QLabel *m_result = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};
