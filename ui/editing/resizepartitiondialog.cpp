#include "editing/resizepartitiondialog.h"

#include "align/alignmentgeometry.h"
#include "alignmentstyle.h"
#include "base/humansize.h"
#include "editing/placementcontrols.h"
#include "fs/filesystemminimum.h"
#include "fs/filesystemsize.h"
#include "fs/sessionabilities.h"
#include "ops/operationpreview.h"
#include "ops/partitionaccess.h"
#include "ops/physicalvolumestep.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

using namespace partwise;

namespace {

// The grain the summary and the boxes differ by on a logical partition, said where it is seen.
QLabel *ebrNote(qint64 grainBytes)
{
    auto *note = new QLabel(ResizePartitionDialog::tr(
                                "A logical partition needs room for its EBR before it (the sector "
                                "that links it into the extended partition): %1 on the grain "
                                "stays free in front of it, so it cannot start right at the free "
                                "space's first sector.")
                                .arg(humanSize(grainBytes)));
    note->setObjectName(QStringLiteral("ebrNote"));
    note->setWordWrap(true);
    return note;
}

constexpr qint64 kMiB = qint64(1) << 20;

int floorMiB(qint64 bytes)
{
    return int(std::max<qint64>(0, bytes) / kMiB);
}

int ceilMiB(qint64 bytes)
{
    return int((std::max<qint64>(0, bytes) + kMiB - 1) / kMiB);
}

// A partition's own size as the window names it ("100.0 MiB" for 100 MiB less an old fdisk's
// 63 sectors): the nearest whole MiB, never 0. Left as it is, the box keeps the exact size.
int nearestMiB(qint64 bytes)
{
    return std::max(1, int((std::max<qint64>(0, bytes) + kMiB / 2) / kMiB));
}

// The queue creates, deletes, moves or formats partitions: what is on the disk now need not be
// what this partition will hold, so its filesystem is not measured.
bool queueReshapes(const QList<Operation> &pending)
{
    return std::any_of(pending.cbegin(), pending.cend(), [](const Operation &op) {
        return op.type == Operation::Type::NewTable || op.type == Operation::Type::Create ||
               op.type == Operation::Type::Delete || op.type == Operation::Type::Format ||
               op.type == Operation::Type::Resize;
    });
}

} // namespace

ResizePartitionDialog::ResizePartitionDialog(const DiskLayout &base,
                                             const QList<Operation> &pending,
                                             const DiskLayout &shown,
                                             const PartitionInfo &partition,
                                             const AlignmentPolicy &policy, QWidget *parent,
                                             Measurer measure)
    : QDialog(parent), m_base(base), m_pending(pending), m_partition(partition), m_policy(policy),
      m_sectorSize(shown.device.topology.logicalSectorSize),
      m_range(resizeRange(shown, partition.number)), m_measure(std::move(measure))
{
    // Every change asks for a preview; the ones made in one go are previewed once.
    m_previewTimer.setSingleShot(true);
    m_previewTimer.setInterval(0);
    connect(&m_previewTimer, &QTimer::timeout, this, &ResizePartitionDialog::runPreview);
    setWindowTitle(tr("Resize/Move Partition %1").arg(partition.number));
    setObjectName(QStringLiteral("resizePartitionDialog"));
    findMinimum(base);

    const QString fs = partition.filesystem.isEmpty() ? tr("unformatted") : partition.filesystem;
    auto *header = new QLabel(tr("Partition %1 (%2): sectors %3 – %4, %5 (%6-byte sectors)")
                                  .arg(partition.number)
                                  .arg(fs)
                                  .arg(partition.startSector)
                                  .arg(partition.endSector)
                                  .arg(humanSize(partition.lengthSectors() * m_sectorSize))
                                  .arg(m_sectorSize));
    header->setObjectName(QStringLiteral("partitionSummary"));
    header->setWordWrap(true);

    m_note = new QLabel(filesystemNote());
    m_note->setObjectName(QStringLiteral("filesystemNote"));
    m_note->setWordWrap(true);

    const auto spin = [this](const char *name, const QString &accessible) {
        auto *box = new QSpinBox;
        box->setObjectName(QString::fromLatin1(name));
        box->setAccessibleName(accessible);
        box->setSuffix(tr(" MiB"));
        box->setAlignment(Qt::AlignRight);
        // Typing "150" must not pass through 1 and 15, each moving the other two boxes.
        box->setKeyboardTracking(false);
        box->setMinimumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("0000000 MiB")) +
                             40);
        return box;
    };
    m_before = spin("freeBefore", tr("Free space before"));
    m_before->setToolTip(tr("Changing this moves the start of the partition and all its data."));
    m_size = spin("size", tr("New size"));
    m_after = spin("freeAfter", tr("Free space after"));
    m_align = PlacementControls::createAlignToCombo(policy);

    m_minimumLabel = new QLabel;
    m_minimumLabel->setObjectName(QStringLiteral("minimumSize"));
    m_limitLabel = new QLabel;
    m_limitLabel->setObjectName(QStringLiteral("resizeLimit"));
    m_limitLabel->setWordWrap(true);
    m_limitLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_limitLabel->setVisible(false);

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
    form->addRow(header);
    form->addRow(m_note);
    form->addRow(m_limitLabel);
    if (m_range.logical)
        form->addRow(ebrNote(resolveAlignmentGeometry(shown.device.topology, policy).grainBytes));
    form->addRow(tr("Free space &before:"), m_before);
    form->addRow(tr("New &size:"), m_size);
    form->addRow(tr("Free space a&fter:"), m_after);
    form->addRow(PlacementControls::alignToLabel(), m_align);
    form->addRow(tr("Minimum size:"), m_minimumLabel);

    auto *moveNote = new QLabel(
        tr("Moving the start copies all the data of the partition to its new place. The copy is "
           "journaled and survives a power cut, but it is slow: back up what matters first."));
    moveNote->setObjectName(QStringLiteral("moveNote"));
    moveNote->setWordWrap(true);
    moveNote->setFrameShape(QFrame::StyledPanel);
    moveNote->setMargin(6);

    m_result = new QLabel;
    m_result->setObjectName(QStringLiteral("previewResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setMinimumHeight(m_result->fontMetrics().height() * 4);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Add to Queue"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(moveNote);
    layout->addWidget(m_result);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    setMinimumWidth(560);

    // Whole MiB, as GParted shows them: the free space next to it rounded down, each on its
    // own (so the three need not add up to the whole range), the partition's size to the
    // nearest MiB, as the map and the list say it.
    applyMinimum();
    m_size->setValue(currentMiB());
    m_before->setValue(floorMiB(m_range.freeBeforeSectors() * m_sectorSize));
    m_after->setValue(floorMiB(m_range.freeAfterSectors() * m_sectorSize));
    m_initialBefore = m_before->value();
    m_initialSize = m_size->value();

    connect(m_before, &QSpinBox::valueChanged, this, &ResizePartitionDialog::followBefore);
    connect(m_size, &QSpinBox::valueChanged, this, &ResizePartitionDialog::followSize);
    connect(m_after, &QSpinBox::valueChanged, this, &ResizePartitionDialog::followAfter);
    connect(m_align, &QComboBox::currentIndexChanged, this,
            &ResizePartitionDialog::schedulePreview);
    runPreview();
}

// The tool cannot be interrupted: m_measuring waits for it, and its result goes nowhere.
ResizePartitionDialog::~ResizePartitionDialog() = default;

void ResizePartitionDialog::findMinimum(const DiskLayout &base)
{
    const qint64 current = m_partition.lengthSectors() * m_sectorSize;
    const QString fs = m_partition.filesystem;
    // This session resizes a disk it reads itself; a helper's says what it can with the
    // minimum, or, when its filesystem is not measured, Apply's preview there refuses.
    if (!m_measure)
        m_here = resizeAbilitiesHere(fs, base.device.isImage ? FilesystemPlace::Image
                                                             : FilesystemPlace::Disk);
    // Until the filesystem says otherwise, it keeps the size it has.
    m_minimumBytes = filesystemShrinks() ? kMiB : current;
    const PartitionInfo *asRead = base.partitionByNumber(m_partition.number);
    const bool onDisk = asRead && !queueReshapes(m_pending) &&
                        asRead->startSector == m_partition.startSector &&
                        asRead->endSector == m_partition.endSector && asRead->filesystem == fs;
    if (!onDisk || fs.isEmpty()) {
        m_minimumBytes = std::clamp(m_minimumBytes, std::min(kMiB, current), current);
        m_minimumKnown = true;
        return;
    }
    m_minimumBytes = current;
    if (m_measure) {
        // Queued: an answer that comes at once must not reach widgets not yet made.
        QPointer<ResizePartitionDialog> self(this);
        m_measure(m_partition.number, [self, current](const FilesystemLimits &limits) {
            if (self)
                QMetaObject::invokeMethod(
                    self, [self, limits, current] { self->takeMinimum(limits, current); },
                    Qt::QueuedConnection);
        });
        return;
    }
    if (!cannotShrinkReason().isEmpty()) { // it keeps its size: nothing to measure
        m_minimumKnown = true;
        return;
    }
    // resize2fs -P reads every block group: seconds on a large disk, so not on the GUI thread.
    const FilesystemLocation where =
        partitionLocation(base, asRead->startSector, m_partition.number);
    m_measuring.start(
        [this, where, fs, current, base, part = *asRead]() -> std::function<void()> {
            const FilesystemLimits limits{isPhysicalVolume(fs)
                                              ? physicalVolumeMinimumBytes(base, part)
                                              : filesystemShrinkLimitBytes(where, fs),
                                          std::nullopt};
            return [this, limits, current] { takeMinimum(limits, current); };
        },
        QStringLiteral("partwise-measure-fs"));
}

void ResizePartitionDialog::takeMinimum(const FilesystemLimits &limits, qint64 current)
{
    if (limits.here)
        m_here = limits.here;
    // A filesystem that cannot shrink, or not here, keeps at least the size it has.
    const std::optional<qint64> measured =
        cannotShrinkReason().isEmpty() ? limits.minimumBytes : std::nullopt;
    m_minimumMeasured = measured.has_value();
    m_minimumBytes = measured ? *measured : filesystemShrinks() ? kMiB : current;
    m_minimumBytes = std::clamp(m_minimumBytes, std::min(kMiB, current), current);
    m_minimumKnown = true;
    applyMinimum();
    schedulePreview();
    emit minimumKnown();
}

void ResizePartitionDialog::applyMinimum()
{
    if (!m_minimumKnown)
        m_minimumLabel->setText(tr("measuring… (until then the partition can only grow or move)"));
    else if (m_minimumMeasured)
        m_minimumLabel->setText(
            tr("%1 (what the filesystem needs)").arg(humanSize(m_minimumBytes)));
    else if (!cannotShrinkReason().isEmpty())
        m_minimumLabel->setText(
            tr("%1 (the size it has: it cannot shrink here)").arg(humanSize(m_minimumBytes)));
    else
        m_minimumLabel->setText(humanSize(m_minimumBytes));
    const QString limit = limitText();
    m_limitLabel->setText(limit);
    m_limitLabel->setVisible(!limit.isEmpty());
    m_size->setToolTip(limit);
    if (isVisible()) // the helper answered after the dialog was laid out: room for the reason
        resize(size().expandedTo(sizeHint()));
    // Whole MiB; the spin boxes re-balance each other as the ranges change.
    const QSignalBlocker b1(m_before), b2(m_size), b3(m_after);
    const int total = totalMiB();
    const int current = currentMiB();
    const int minSize = std::max(1, std::min(ceilMiB(m_minimumBytes), current));
    m_size->setMinimum(minSize);
    // A filesystem that cannot grow here keeps its size: the partition can only move.
    m_size->setMaximum(cannotGrowReason().isEmpty() ? total : std::max(minSize, current));
    m_before->setMaximum(total - minSize);
    m_after->setMaximum(total - minSize);
}

FilesystemPlace ResizePartitionDialog::place() const
{
    return m_base.device.isImage ? FilesystemPlace::Image : FilesystemPlace::Disk;
}

// Whether the filesystem shrinks in the session that resizes it: a helper's answer, else this
// session's own (fs/sessionabilities.h, the answer the preview and Apply give too).
bool ResizePartitionDialog::filesystemShrinks() const
{
    return m_here
               ? m_here->cannotShrink.isEmpty()
               : whyCannotShrinkHere(m_partition.filesystem, kBtrfsMinimumBytes, place()).isEmpty();
}

// How the filesystem follows the partition; what cannot be done here is limitText()'s.
QString ResizePartitionDialog::filesystemNote() const
{
    const QString &fs = m_partition.filesystem;
    if (fs.isEmpty())
        return tr("No filesystem was found: only the partition changes.");
    if (fs == QLatin1String("swap"))
        return tr("Swap is created anew at the new size, with its UUID and label.");
    const bool shrinks = filesystemShrinks();
    const AbilityHere grow = filesystemAbilityHere(fs, FilesystemAction::Grow, place());
    if (fs == QLatin1String("LVM2_member") && shrinks && grow.can)
        return tr("The LVM physical volume follows the partition through pvresize: before the "
                  "partition shrinks (only while its logical volumes' extents fit), after it "
                  "grows.");
    if (shrinks && grow.can)
        return tr("The %1 filesystem shrinks before the partition does and grows after it.")
            .arg(fs);
    if (shrinks)
        return tr("The %1 filesystem shrinks before the partition does. When the partition "
                  "grows, the filesystem keeps its size: %2.")
            .arg(fs, grow.why);
    if (grow.can)
        return tr("The %1 filesystem grows after the partition does.").arg(fs);
    return tr("When the partition grows, the %1 filesystem keeps its size: %2.").arg(fs, grow.why);
}

QString ResizePartitionDialog::cannotShrinkReason() const
{
    return m_here ? m_here->cannotShrink : QString();
}

QString ResizePartitionDialog::cannotGrowReason() const
{
    return m_here ? m_here->cannotGrow : QString();
}

QString ResizePartitionDialog::limitText() const
{
    const QString shrink = cannotShrinkReason();
    const QString grow = cannotGrowReason();
    if (!shrink.isEmpty() && !grow.isEmpty())
        return shrink == grow
                   ? tr("Not available here: the partition keeps its size and can only move. %1")
                         .arg(shrink)
                   : tr("Not available here: the partition keeps its size and can only move. "
                        "%1 %2")
                         .arg(shrink, grow);
    if (!shrink.isEmpty())
        return tr("Not available here: shrinking. The partition can grow or move. %1").arg(shrink);
    if (!grow.isEmpty())
        return tr("Not available here: growing. The partition can shrink or move. %1").arg(grow);
    return QString();
}

int ResizePartitionDialog::currentMiB() const
{
    return std::min(nearestMiB(m_partition.lengthSectors() * m_sectorSize), totalMiB());
}

int ResizePartitionDialog::totalMiB() const
{
    return floorMiB(m_range.lengthSectors() * m_sectorSize);
}

int ResizePartitionDialog::remainingMiB(int first, int second) const
{
    return floorMiB(m_range.lengthSectors() * m_sectorSize - (qint64(first) + second) * kMiB);
}

bool ResizePartitionDialog::changed() const
{
    return m_before->value() != m_initialBefore || m_size->value() != m_initialSize;
}

void ResizePartitionDialog::followBefore()
{
    const QSignalBlocker b1(m_size), b2(m_after);
    m_size->setValue(std::min(m_size->value(), remainingMiB(m_before->value(), 0)));
    m_after->setValue(remainingMiB(m_before->value(), m_size->value()));
    schedulePreview();
}

void ResizePartitionDialog::followSize()
{
    const QSignalBlocker b1(m_before), b2(m_after);
    m_before->setValue(std::min(m_before->value(), remainingMiB(m_size->value(), 0)));
    m_after->setValue(remainingMiB(m_before->value(), m_size->value()));
    schedulePreview();
}

void ResizePartitionDialog::followAfter()
{
    const QSignalBlocker b1(m_before), b2(m_size);
    const int size = remainingMiB(m_before->value(), m_after->value());
    if (size >= m_size->minimum()) {
        m_size->setValue(size);
    } else {
        m_size->setValue(m_size->minimum());
        m_before->setValue(remainingMiB(m_after->value(), m_size->value()));
    }
    schedulePreview();
}

void ResizePartitionDialog::setFreeBeforeMiB(int mib)
{
    m_before->setValue(mib);
}

void ResizePartitionDialog::setSizeMiB(int mib)
{
    m_size->setValue(mib);
}

void ResizePartitionDialog::setFreeAfterMiB(int mib)
{
    m_after->setValue(mib);
}

void ResizePartitionDialog::setAlignTo(AlignTo mode)
{
    m_align->setCurrentIndex(m_align->findData(int(mode)));
}

Operation ResizePartitionDialog::operation() const
{
    Operation op;
    op.type = Operation::Type::Resize;
    op.number = m_partition.number;
    op.alignTo = AlignTo(m_align->currentData().toInt());
    // Untouched fields keep what is there: the start, and the exact size (not its MiB).
    if (m_before->value() != m_initialBefore)
        op.startBytes = m_range.lowestStart * m_sectorSize + qint64(m_before->value()) * kMiB;
    if (m_size->value() == m_initialSize)
        op.sizeBytes = m_partition.lengthSectors() * m_sectorSize;
    else
        op.sizeBytes = m_after->value() == 0 ? -1 : qint64(m_size->value()) * kMiB;
    return op;
}

// A logical partition asked to start where its EBR must go starts a grain later: said where
// the boxes and the summary would otherwise disagree (0 MiB asked, 1 MiB given).
QString ResizePartitionDialog::ebrShiftText(const Operation &op, const PartitionInfo &placed) const
{
    if (!m_range.logical || op.startBytes < 0 || placed.startSector * m_sectorSize <= op.startBytes)
        return QString();
    return tr("It starts %1 later than the free space before asks: a logical partition's EBR (the "
              "sector that links it into the extended partition) needs the grain in front of it.")
        .arg(humanSize(placed.startSector * m_sectorSize - op.startBytes));
}

QString ResizePartitionDialog::previewText() const
{
    return m_result->text();
}

void ResizePartitionDialog::schedulePreview()
{
    m_previewTimer.start(); // a pending preview is not started twice
}

void ResizePartitionDialog::runPreview()
{
    m_previewTimer.stop();
    QPushButton *ok = m_buttons->button(QDialogButtonBox::Ok);
    m_previewed.reset();
    if (!changed()) {
        m_result->setText(tr("Nothing changes yet: choose a new size, or free space before to "
                             "move the partition."));
        m_result->setStyleSheet(QString());
        ok->setEnabled(false);
        return;
    }
    const Operation op = operation();
    QList<Operation> ops = m_pending;
    ops << op;
    const PreviewResult result = previewOperations(m_base, ops, m_policy);
    int row = -1;
    for (int i = 0; result.ok && i < result.layout.regions.size() && row < 0; ++i)
        if (!result.layout.regions[i].isFree() && result.layout.regions[i].number == op.number)
            row = i;
    if (row < 0) {
        m_result->setText(result.ok ? tr("libparted did not keep the partition.") : result.error);
        m_result->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
        ok->setEnabled(false);
        return;
    }
    const PartitionInfo &p = result.layout.regions.at(row);
    const qint64 current = m_partition.lengthSectors() * m_sectorSize;
    const qint64 wanted = p.lengthSectors() * m_sectorSize;
    // What the session that resizes it cannot do (a helper's answer; this session's own
    // refusals come from the preview above).
    const QString refused =
        wanted < current && !cannotShrinkReason().isEmpty()
            ? tr("Shrinking is not available here: %1").arg(cannotShrinkReason())
        : wanted > current && m_size->value() != m_initialSize && !cannotGrowReason().isEmpty()
            ? tr("Growing is not available here: %1").arg(cannotGrowReason())
            : QString();
    if (!refused.isEmpty()) {
        m_result->setText(refused);
        m_result->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
        ok->setEnabled(false);
        return;
    }
    if (filesystemShrinks() && p.lengthSectors() * m_sectorSize < m_minimumBytes) {
        m_result->setText(tr("That is smaller than the %1 filesystem needs (%2).")
                              .arg(m_partition.filesystem, humanSize(m_minimumBytes)));
        m_result->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
        ok->setEnabled(false);
        return;
    }
    m_previewed = p;
    AlignmentStatus status = AlignmentStatus::NotApplicable;
    QStringList lines{PlacementControls::resultText(result.layout, row, m_policy, &status)};
    lines << tr("Free space before: %1, after: %2")
                 .arg(humanSize((p.startSector - m_range.lowestStart) * m_sectorSize),
                      humanSize((m_range.highestEnd - p.endSector) * m_sectorSize));
    if (const QString ebr = ebrShiftText(op, p); !ebr.isEmpty())
        lines << ebr;
    if (p.startSector != m_partition.startSector)
        lines << tr("The start moves by %1 %2: the data is copied there.")
                     .arg(humanSize(std::abs(p.startSector - m_partition.startSector) *
                                    m_sectorSize),
                          p.startSector > m_partition.startSector ? tr("towards the end")
                                                                  : tr("towards the start"));
    m_result->setText(lines.join(QLatin1Char('\n')));
    m_result->setStyleSheet(status == AlignmentStatus::Misaligned
                                ? AlignmentStyle::errorStyleSheet(palette())
                                : QString());
    ok->setEnabled(true);
}
