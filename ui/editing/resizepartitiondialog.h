#pragma once

#include "align/alignmentpolicy.h"
#include "align/resizeplacement.h"
#include "backgroundjob.h"
#include "fs/sessionabilities.h"
#include "ops/operation.h"
#include "table/disklayout.h"

#include <QDialog>
#include <QList>
#include <QTimer>

#include <functional>
#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QSpinBox;

// Resize/Move of one partition, as in GParted: free space before, new size and free space
// after in MiB, bounded by the free space next to it on the preview of the queue
// (resizeRange()); the size no smaller than the filesystem allows. "Align to" defaults to MiB
// (the preferences' grain). The resulting sectors and their verdict come from
// previewOperations() on the disk as read plus the queue plus this operation: the dialog
// converts units and nothing else. What the session that will resize the filesystem cannot do
// (fs/sessionabilities.h: a helper's answer, or this session's) is not offered: the size stays
// within it, with the reason shown, and moving stays available.
class ResizePartitionDialog : public QDialog
{
    Q_OBJECT

public:
    // Measures how far the filesystem of partition `number` (on the disk as read) may shrink,
    // and what the session that resizes it cannot do, and calls `done` on the GUI thread. A
    // helper's disk is measured by its helper; without one, the dialog measures here, off the
    // GUI thread.
    using Measurer =
        std::function<void(int number, std::function<void(partwise::FilesystemLimits)> done)>;

    // `base`: the disk as read; `pending`: the queue before this operation; `shown`: their
    // preview, which `partition` belongs to.
    ResizePartitionDialog(const partwise::DiskLayout &base,
                          const QList<partwise::Operation> &pending,
                          const partwise::DiskLayout &shown,
                          const partwise::PartitionInfo &partition,
                          const partwise::AlignmentPolicy &policy, QWidget *parent = nullptr,
                          Measurer measure = {});
    ~ResizePartitionDialog() override;

    partwise::Operation operation() const;
    // The partition as libparted would place it, when the preview succeeds.
    std::optional<partwise::PartitionInfo> previewedPartition() const { return m_previewed; }
    QString previewText() const;
    // Where the partition may go, and the smallest size its filesystem allows.
    const partwise::ResizeRange &range() const { return m_range; }
    // The filesystem's own minimum is measured off the GUI thread; until then it is the
    // current size (grow and move only).
    qint64 minimumBytes() const { return m_minimumBytes; }
    bool minimumFromFilesystem() const { return m_minimumMeasured; }
    bool isMinimumKnown() const { return m_minimumKnown; }
    // Why the filesystem cannot shrink / grow in the session that will resize it; empty when
    // it can, or while that is not known.
    QString cannotShrinkReason() const;
    QString cannotGrowReason() const;

signals:
    void minimumKnown();

public:
    // In MiB, as the spin boxes show them; each keeps the other two within the range.
    void setFreeBeforeMiB(int mib);
    void setSizeMiB(int mib);
    void setFreeAfterMiB(int mib);
    void setAlignTo(partwise::AlignTo mode);

private:
    void findMinimum(const partwise::DiskLayout &base);
    void takeMinimum(const partwise::FilesystemLimits &limits, qint64 current);
    void applyMinimum(); // to the label and the spin boxes' ranges
    partwise::FilesystemPlace place() const;
    bool filesystemShrinks() const;
    QString filesystemNote() const;
    QString limitText() const; // what is not offered here, and why
    int totalMiB() const;
    int currentMiB() const; // the size box's first value
    QString ebrShiftText(const partwise::Operation &op,
                         const partwise::PartitionInfo &placed) const;
    // Whole MiB left of the range once `first` and `second` MiB are taken.
    int remainingMiB(int first, int second) const;
    bool changed() const;
    void followBefore();
    void followSize();
    void followAfter();
    void schedulePreview();
    void runPreview();

    partwise::DiskLayout m_base;
    QList<partwise::Operation> m_pending;
    partwise::PartitionInfo m_partition;
    partwise::AlignmentPolicy m_policy;
    qint64 m_sectorSize = 512;
    partwise::ResizeRange m_range;
    qint64 m_minimumBytes = 0;
    bool m_minimumMeasured = false;
    bool m_minimumKnown = false;
    QLabel *m_minimumLabel = nullptr;
    std::optional<partwise::ResizeAbilities> m_here; // unknown: a helper's answer not yet come
    QLabel *m_limitLabel = nullptr;
    QLabel *m_note = nullptr;
    int m_initialBefore = 0; // the spin boxes' first values: unchanged means "keep"
    int m_initialSize = 0;
    QTimer m_previewTimer;
    std::optional<partwise::PartitionInfo> m_previewed;

    QSpinBox *m_before = nullptr;
    QSpinBox *m_size = nullptr;
    QSpinBox *m_after = nullptr;
    QComboBox *m_align = nullptr;
    QLabel *m_result = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    Measurer m_measure;
    BackgroundJob m_measuring; // last: waited for before anything its result goes to is gone
};
