#include "realign/realignpages.h"

#include "align/alignmentgeometry.h"
#include "align/misalignmentreport.h"
#include "alignmentstyle.h"
#include "diskmapwidget.h"
#include "ops/realigncommand.h"
#include "ops/tablebackup.h"
#include "partitionmodel.h"
#include "realign/realignwizard.h"
#include "realign/realignworker.h"
#include "report/humansize.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QCoreApplication>
#include <QFile>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

constexpr qint64 kMiB = qint64(1) << 20;
constexpr qint64 kFourK = 4096;
constexpr int kBarSteps = 1000;

QLabel *wrappingLabel(const QString &text = QString())
{
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString filesystemText(const QString &filesystem)
{
    return filesystem.isEmpty() ? QCoreApplication::translate("RealignWizard", "no filesystem")
                                : filesystem;
}

QString partitionTitle(int number, const QString &filesystem, const QString &label)
{
    const QString fs = filesystemText(filesystem);
    return label.isEmpty() ? QCoreApplication::translate("RealignWizard", "Partition %1 (%2)")
                                 .arg(number)
                                 .arg(fs)
                           : QCoreApplication::translate("RealignWizard", "Partition %1 (%2 “%3”)")
                                 .arg(number)
                                 .arg(fs, label);
}

QString grainName(qint64 bytes)
{
    return humanSize(bytes);
}

AlignmentPolicy withGrain(AlignmentPolicy policy, qint64 grain)
{
    policy.grainBytes = grain;
    return policy;
}

} // namespace

QString realignDurationText(double seconds)
{
    const qint64 s = std::max<qint64>(1, qint64(std::ceil(seconds)));
    if (s < 60)
        return QCoreApplication::translate("RealignWizard", "%1 s").arg(s);
    if (s < 3600)
        return QCoreApplication::translate("RealignWizard", "%1 min %2 s").arg(s / 60).arg(s % 60);
    return QCoreApplication::translate("RealignWizard", "%1 h %2 min")
        .arg(s / 3600)
        .arg((s % 3600) / 60);
}

// --- RealignMap -----------------------------------------------------------------------------

RealignMap::RealignMap(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_model = new PartitionModel(this);
    m_map = new DiskMapWidget;
    m_map->setModel(m_model, new QItemSelectionModel(m_model, this));
    // Only to look at: the window's own map is where partitions are selected.
    m_map->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_map->setFocusPolicy(Qt::NoFocus);
    layout->addWidget(m_map);
}

void RealignMap::setDisk(const DiskLayout &layout, const AlignmentPolicy &policy)
{
    m_model->setDisk(layout, analyzeAlignment(layout, policy));
    m_map->setMessage(layout.regions.isEmpty() ? tr("Nothing to show") : QString());
}

// --- RealignIntroPage -----------------------------------------------------------------------

RealignIntroPage::RealignIntroPage(RealignWizard *wizard) : m_wizard(wizard)
{
    setObjectName(QStringLiteral("realignIntroPage"));
    setTitle(tr("Partitions out of step with the drive"));
    auto *layout = new QVBoxLayout(this);
    m_summary = wrappingLabel();
    m_summary->setObjectName(QStringLiteral("realignSummary"));
    layout->addWidget(m_summary);
    m_map = new RealignMap;
    m_map->setObjectName(QStringLiteral("realignIntroMap"));
    layout->addWidget(m_map);
    m_details = wrappingLabel();
    m_details->setObjectName(QStringLiteral("realignDetails"));
    m_details->setTextFormat(Qt::RichText);
    layout->addWidget(m_details);
    auto *how = wrappingLabel(
        tr("Realigning moves each partition's data to the next boundary that suits the drive, "
           "keeping its size and its contents. A journal kept outside the partition records every "
           "step, so a crash or a power cut in the middle loses nothing: Partwise finishes the "
           "move the next time the disk is opened."));
    layout->addWidget(how);
    layout->addStretch(1);
}

void RealignIntroPage::initializePage()
{
    const RealignSetup &setup = m_wizard->setup();
    m_map->setDisk(setup.layout, setup.policy);
    const MisalignmentReport report = analyzeAlignment(setup.layout, setup.policy);
    const AlignmentGeometry &g = report.geometry;
    setSubTitle(tr("%1 — %2, %3-byte sectors, checked against %4 physical sectors.")
                    .arg(setup.target, humanSize(setup.layout.device.sizeBytes))
                    .arg(g.logicalSectorSize)
                    .arg(humanSize(g.physicalAssumed)));
    const int misaligned = report.misalignedCount();
    if (misaligned > 0)
        m_summary->setText(
            (misaligned == 1
                 ? tr("1 partition on this disk starts part-way into a physical sector (outlined "
                      "in red).")
                 : tr("%1 partitions on this disk start part-way into a physical sector "
                      "(outlined in red).")
                       .arg(misaligned)) +
            QLatin1Char(' ') +
            tr("Every 4 KiB the system writes there straddles two of the drive's sectors, so the "
               "drive has to read, change and write both: writes can become several times "
               "slower, and flash wears faster."));
    else if (report.sectorAlignedCount() == 1)
        m_summary->setText(tr("No partition on this disk is misaligned. 1 partition starts on a "
                              "physical sector but not on the %1 grain (outlined in amber); "
                              "moving it is optional.")
                               .arg(grainName(g.grainBytes)));
    else
        m_summary->setText(tr("No partition on this disk is misaligned. %1 partitions start on a "
                              "physical sector but not on the %2 grain (outlined in amber); "
                              "moving them is optional.")
                               .arg(report.sectorAlignedCount())
                               .arg(grainName(g.grainBytes)));

    QStringList lines;
    for (int i = 0; i < setup.layout.regions.size() && i < report.verdicts.size(); ++i) {
        const PartitionInfo &p = setup.layout.regions.at(i);
        const AlignmentVerdict &v = report.verdicts.at(i);
        if (v.status != AlignmentStatus::Misaligned && v.status != AlignmentStatus::SectorAligned)
            continue;
        lines << tr("<b>%1</b>, at sector %2, %3.")
                     .arg(partitionTitle(p.number, p.filesystem, p.label).toHtmlEscaped())
                     .arg(p.startSector)
                     .arg(v.explanation(g).toHtmlEscaped());
    }
    m_details->setText(lines.join(QStringLiteral("<br>")));
}

QString RealignIntroPage::explanation() const
{
    return m_summary->text() + QLatin1Char('\n') + m_details->text();
}

// --- RealignChoosePage ----------------------------------------------------------------------

enum ChooseColumn { NumberColumn, FsColumn, StartColumn, StatusColumn };

RealignChoosePage::RealignChoosePage(RealignWizard *wizard) : m_wizard(wizard)
{
    setObjectName(QStringLiteral("realignChoosePage"));
    setTitle(tr("Choose the partitions and the target"));
    setSubTitle(tr("Misaligned partitions are chosen for you; the others are optional."));
    auto *layout = new QVBoxLayout(this);

    auto *target = new QGroupBox(tr("Move the partitions to"));
    auto *targetLayout = new QVBoxLayout(target);
    auto *group = new QButtonGroup(this);
    m_mib = new QRadioButton(tr("1 MiB grain (recommended)"));
    m_mib->setObjectName(QStringLiteral("grainMiB"));
    m_mib->setChecked(true);
    targetLayout->addWidget(m_mib);
    auto *mibHint = wrappingLabel(tr("Suits every drive, SSD and RAID; each partition moves by up "
                                     "to 1 MiB. What partitioning tools use today."));
    mibHint->setIndent(24);
    targetLayout->addWidget(mibHint);
    m_fourK = new QRadioButton(tr("4 KiB (smallest move)"));
    m_fourK->setObjectName(QStringLiteral("grain4K"));
    targetLayout->addWidget(m_fourK);
    auto *fourKHint =
        wrappingLabel(tr("The next physical sector: the least data to rewrite, enough "
                         "for Advanced Format drives, but not on an SSD's or a RAID "
                         "array's larger blocks."));
    fourKHint->setIndent(24);
    targetLayout->addWidget(fourKHint);
    group->addButton(m_mib);
    group->addButton(m_fourK);
    const qint64 preferred = m_wizard->setup().policy.grainBytes;
    if (preferred != kMiB && preferred != kFourK) {
        m_preferred =
            new QRadioButton(tr("%1 grain, as in the preferences").arg(grainName(preferred)));
        m_preferred->setObjectName(QStringLiteral("grainPreferred"));
        targetLayout->addWidget(m_preferred);
        group->addButton(m_preferred);
    }
    layout->addWidget(target);

    auto *parts = new QGroupBox(tr("Partitions"));
    auto *partsLayout = new QVBoxLayout(parts);
    m_list = new QTreeWidget;
    m_list->setObjectName(QStringLiteral("realignPartitions"));
    m_list->setAccessibleName(tr("Partitions to realign"));
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("Partition"), tr("Filesystem"), tr("Start sector"), tr("Status")});
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(true);
    partsLayout->addWidget(m_list);
    layout->addWidget(parts, 1);

    m_verify = new QCheckBox(tr("&Verify the moved data (read it back and compare; slower)"));
    m_verify->setObjectName(QStringLiteral("verifyData"));
    m_verify->setChecked(m_wizard->setup().options.verify);
    layout->addWidget(m_verify);

    connect(group, &QButtonGroup::buttonToggled, this, [this](QAbstractButton *, bool on) {
        if (on)
            refreshStatuses();
    });
    connect(m_list, &QTreeWidget::itemChanged, this, &RealignChoosePage::completeChanged);
}

void RealignChoosePage::initializePage()
{
    if (m_filled)
        return; // coming back from the plan: keep the choices
    m_filled = true;
    const RealignSetup &setup = m_wizard->setup();
    const MisalignmentReport report = analyzeAlignment(setup.layout, setup.policy);
    QSignalBlocker block(m_list);
    for (int i = 0; i < setup.layout.regions.size(); ++i) {
        const PartitionInfo &p = setup.layout.regions.at(i);
        if (p.isFree() || p.isContainer())
            continue;
        auto *item = new QTreeWidgetItem(m_list);
        item->setData(NumberColumn, Qt::UserRole, p.number);
        item->setText(NumberColumn, p.label.isEmpty()
                                        ? tr("Partition %1").arg(p.number)
                                        : tr("Partition %1 “%2”").arg(p.number).arg(p.label));
        item->setText(FsColumn, filesystemText(p.filesystem));
        item->setText(StartColumn, QString::number(p.startSector));
        item->setTextAlignment(StartColumn, Qt::AlignRight | Qt::AlignVCenter);
        const bool misaligned = i < report.verdicts.size() &&
                                report.verdicts.at(i).status == AlignmentStatus::Misaligned;
        item->setCheckState(NumberColumn, misaligned || setup.preselect.contains(p.number)
                                              ? Qt::Checked
                                              : Qt::Unchecked);
    }
    refreshStatuses();
}

void RealignChoosePage::refreshStatuses()
{
    const RealignSetup &setup = m_wizard->setup();
    const AlignmentGeometry g = resolveAlignmentGeometry(setup.layout.device.topology,
                                                         withGrain(setup.policy, grainBytes()));
    QSignalBlocker block(m_list);
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        const PartitionInfo *p =
            setup.layout.partitionByNumber(item->data(NumberColumn, Qt::UserRole).toInt());
        if (!p)
            continue;
        const AlignmentVerdict v = judgePartition(*p, g);
        const bool wasSelectable = item->flags().testFlag(Qt::ItemIsUserCheckable);
        switch (v.status) {
        case AlignmentStatus::Misaligned:
            item->setText(StatusColumn, tr("misaligned: %1 bytes past a %2 boundary")
                                            .arg(groupedNumber(v.misalignmentBytes))
                                            .arg(grainName(g.physicalAssumed)));
            break;
        case AlignmentStatus::SectorAligned:
            item->setText(StatusColumn, tr("on a physical sector, not on the %1 grain (optional)")
                                            .arg(grainName(g.grainBytes)));
            break;
        default:
            item->setText(StatusColumn, tr("already on the %1 grain").arg(grainName(g.grainBytes)));
            break;
        }
        item->setIcon(StatusColumn, AlignmentStyle::icon(v.status));
        const bool selectable =
            v.status == AlignmentStatus::Misaligned || v.status == AlignmentStatus::SectorAligned;
        Qt::ItemFlags flags = Qt::ItemIsSelectable;
        if (selectable)
            flags |= Qt::ItemIsEnabled | Qt::ItemIsUserCheckable;
        item->setFlags(flags);
        if (!selectable)
            item->setCheckState(NumberColumn, Qt::Unchecked);
        else if (!wasSelectable)
            item->setCheckState(NumberColumn, v.status == AlignmentStatus::Misaligned
                                                  ? Qt::Checked
                                                  : Qt::Unchecked);
    }
    emit completeChanged();
}

bool RealignChoosePage::isComplete() const
{
    return !checkedPartitions().isEmpty();
}

qint64 RealignChoosePage::grainBytes() const
{
    if (m_fourK->isChecked())
        return kFourK;
    if (m_preferred && m_preferred->isChecked())
        return m_wizard->setup().policy.grainBytes;
    return kMiB;
}

void RealignChoosePage::setGrainBytes(qint64 bytes)
{
    if (bytes == kFourK)
        m_fourK->setChecked(true);
    else if (m_preferred && bytes == m_wizard->setup().policy.grainBytes)
        m_preferred->setChecked(true);
    else
        m_mib->setChecked(true);
}

QList<int> RealignChoosePage::checkedPartitions() const
{
    QList<int> numbers;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->checkState(NumberColumn) == Qt::Checked &&
            item->flags().testFlag(Qt::ItemIsUserCheckable))
            numbers << item->data(NumberColumn, Qt::UserRole).toInt();
    }
    return numbers;
}

void RealignChoosePage::setPartitionChecked(int number, bool checked)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->data(NumberColumn, Qt::UserRole).toInt() == number &&
            item->flags().testFlag(Qt::ItemIsUserCheckable))
            item->setCheckState(NumberColumn, checked ? Qt::Checked : Qt::Unchecked);
    }
}

bool RealignChoosePage::isPartitionSelectable(int number) const
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->data(NumberColumn, Qt::UserRole).toInt() == number)
            return item->flags().testFlag(Qt::ItemIsUserCheckable);
    }
    return false;
}

bool RealignChoosePage::verify() const
{
    return m_verify->isChecked();
}

// --- RealignPlanPage ------------------------------------------------------------------------

enum PlanColumn {
    PlanPartition,
    PlanOldStart,
    PlanOldEnd,
    PlanNewStart,
    PlanNewEnd,
    PlanBytes,
    PlanNote,
    PlanColumnCount
};

RealignPlanPage::RealignPlanPage(RealignWizard *wizard) : m_wizard(wizard)
{
    setObjectName(QStringLiteral("realignPlanPage"));
    setTitle(tr("The plan"));
    setSubTitle(tr("Nothing has been written yet. Check the plan, then start it with Realign."));
    setCommitPage(true);
    setButtonText(QWizard::CommitButton, tr("&Realign"));
    auto *layout = new QVBoxLayout(this);
    m_status = wrappingLabel();
    m_status->setObjectName(QStringLiteral("planStatus"));
    layout->addWidget(m_status);
    m_moves = new QTreeWidget;
    m_moves->setObjectName(QStringLiteral("planTable"));
    m_moves->setAccessibleName(tr("Planned moves"));
    m_moves->setRootIsDecorated(false);
    m_moves->setColumnCount(PlanColumnCount);
    m_moves->setHeaderLabels({tr("Partition"), tr("Old start"), tr("Old end"), tr("New start"),
                              tr("New end"), tr("To move"), tr("Note")});
    m_moves->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_moves->header()->setStretchLastSection(true);
    layout->addWidget(m_moves);
    m_summary = wrappingLabel();
    m_summary->setObjectName(QStringLiteral("planSummary"));
    layout->addWidget(m_summary);
    m_stays = wrappingLabel();
    m_stays->setObjectName(QStringLiteral("planStays"));
    layout->addWidget(m_stays);

    m_needs = new QGroupBox(tr("Before you start"));
    auto *needsLayout = new QVBoxLayout(m_needs);
    auto *busyRow = new QHBoxLayout;
    m_busyLabel = wrappingLabel();
    m_busyLabel->setObjectName(QStringLiteral("planBusy"));
    busyRow->addWidget(m_busyLabel, 1);
    m_recheck = new QPushButton(tr("Check &Again"));
    m_recheck->setObjectName(QStringLiteral("planRecheck"));
    m_recheck->setVisible(false);
    busyRow->addWidget(m_recheck, 0, Qt::AlignTop);
    needsLayout->addLayout(busyRow);
    m_advice = wrappingLabel();
    m_advice->setObjectName(QStringLiteral("planBackupAdvice"));
    needsLayout->addWidget(m_advice);
    m_backup = new QCheckBox(tr("I have a &backup or accept the risk"));
    m_backup->setObjectName(QStringLiteral("backupConfirm"));
    needsLayout->addWidget(m_backup);
    layout->addWidget(m_needs);
    layout->addStretch(1);

    connect(m_backup, &QCheckBox::toggled, this, &RealignPlanPage::completeChanged);
    connect(m_recheck, &QPushButton::clicked, this, &RealignPlanPage::startPlanning);
    connect(m_wizard->worker(), &RealignWorker::prepared, this, &RealignPlanPage::onPrepared);
}

void RealignPlanPage::initializePage()
{
    startPlanning();
}

void RealignPlanPage::startPlanning()
{
    m_ready = false;
    m_moves->clear();
    m_summary->clear();
    m_stays->clear();
    m_busyLabel->clear();
    m_recheck->setVisible(false);
    showParts();
    m_status->setStyleSheet(QString());
    m_status->setText(tr("Reading %1 and planning…").arg(m_wizard->setup().target));
    m_advice->setText(
        tr("Moving a partition rewrites its data in place. Partwise saves the partition table to "
           "%1 first and journals every step, but a failing drive or a bug can still lose data: "
           "back up what you cannot replace before you start.")
            .arg(m_wizard->setup().options.backupRoot.isEmpty()
                     ? defaultBackupRoot()
                     : m_wizard->setup().options.backupRoot));
    emit completeChanged();
    if (m_wizard->worker()->isBusy()) {
        m_planAgain = true; // an older plan is still being made; plan again when it is in
        return;
    }
    m_wizard->worker()->prepare(m_wizard->setup().target, m_wizard->runOptions(),
                                m_wizard->request());
}

void RealignPlanPage::onPrepared(const PreparedRealign &prepared, const QStringList &busy)
{
    if (m_planAgain) {
        m_planAgain = false;
        m_wizard->worker()->prepare(m_wizard->setup().target, m_wizard->runOptions(),
                                    m_wizard->request());
        return;
    }
    m_prepared = prepared;
    m_busy = busy;
    m_ready = true;
    if (!prepared.ok) {
        m_status->setText(tr("Cannot plan the realignment: %1").arg(prepared.error));
        m_status->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
        showParts();
        emit completeChanged();
        emit planReady();
        return;
    }
    const RealignPlan &plan = prepared.plan;
    const qint64 ss = prepared.layout.device.topology.logicalSectorSize;
    m_status->setText(
        plan.moves.isEmpty() ? tr("Nothing can be moved: see why below.")
        : plan.moves.size() == 1
            ? tr("1 partition moves to the %1 grain:").arg(grainName(plan.geometry.grainBytes))
            : tr("%1 partitions move to the %2 grain, in this order:")
                  .arg(plan.moves.size())
                  .arg(grainName(plan.geometry.grainBytes)));
    for (const PartitionMove &m : plan.moves) {
        auto *item = new QTreeWidgetItem(m_moves);
        item->setText(PlanPartition, partitionTitle(m.number, m.filesystem, m.label));
        item->setData(PlanPartition, Qt::UserRole, m.number);
        item->setText(PlanOldStart, QString::number(m.oldStart));
        item->setText(PlanOldEnd, QString::number(m.oldEnd));
        item->setText(PlanNewStart, QString::number(m.newStart));
        item->setText(PlanNewEnd, QString::number(m.newEnd));
        item->setText(PlanBytes, humanSize(m.bytesToMove(ss)));
        for (int c = PlanOldStart; c <= PlanBytes; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        QStringList notes;
        if (m.recreateSwap)
            notes << tr("swap: recreated with the same UUID and label, nothing copied");
        if (m.shrinkSectors > 0)
            notes << (m.shrinkSectors == 1
                          ? tr("the filesystem is first shrunk by 1 sector to fit")
                          : tr("the filesystem is first shrunk by %1 sectors to fit")
                                .arg(m.shrinkSectors));
        notes << (m.newStart > m.oldStart
                      ? tr("moves up %1").arg(humanSize((m.newStart - m.oldStart) * ss))
                      : tr("moves down %1").arg(humanSize((m.oldStart - m.newStart) * ss)));
        item->setText(PlanNote, notes.join(QStringLiteral("; ")));
    }
    if (!plan.moves.isEmpty())
        m_summary->setText(tr("%1 to move in all; it takes roughly %2 at 100 MiB/s (the drive "
                              "decides: a USB stick is slower, an SSD faster).")
                               .arg(humanSize(plan.totalBytes()),
                                    realignDurationText(estimateRealignSeconds(plan))));
    // As tall as its rows (up to a dozen), so the rest of the page stays in view.
    const int rows = std::clamp(int(plan.moves.size()), 1, 12);
    const int rowHeight = std::max(m_moves->sizeHintForRow(0), fontMetrics().height() + 4);
    m_moves->setFixedHeight(m_moves->header()->sizeHint().height() + rows * rowHeight +
                            2 * m_moves->frameWidth() + 4);

    // What stays, and why: the planner's reasons, then every partition not chosen.
    QStringList stays;
    QList<int> accounted;
    for (const PartitionMove &m : plan.moves)
        accounted << m.number;
    for (const RealignSkip &skip : plan.skipped) {
        stays << tr("Partition %1 stays where it is: %2.").arg(skip.number).arg(skip.reason);
        accounted << skip.number;
    }
    for (const PartitionInfo &p : prepared.layout.partitions()) {
        if (accounted.contains(p.number))
            continue;
        const AlignmentStatus status = judgePartition(p, plan.geometry).status;
        stays << (status == AlignmentStatus::Container
                      ? tr("Partition %1 stays: an extended partition only holds the logical "
                           "ones.")
                            .arg(p.number)
                  : status == AlignmentStatus::Aligned
                      ? tr("Partition %1 stays: it already starts on the grain.").arg(p.number)
                      : tr("Partition %1 stays: not chosen.").arg(p.number));
    }
    m_stays->setText(stays.join(QLatin1Char('\n')));

    if (!busy.isEmpty()) {
        m_busyLabel->setText(tr("These partitions are in use and must be unmounted (or swapped "
                                "off) first:\n%1")
                                 .arg(busy.join(QLatin1Char('\n'))));
        m_busyLabel->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
        m_recheck->setVisible(true);
    } else if (!plan.moves.isEmpty()) {
        m_busyLabel->setText(tr("None of these partitions is mounted or otherwise in use."));
        m_busyLabel->setStyleSheet(QString());
    }
    const QString journal = m_wizard->runOptions().journalPath.isEmpty()
                                ? RealignJournal::defaultPath(m_wizard->setup().target)
                                : m_wizard->runOptions().journalPath;
    if (QFile::exists(journal)) {
        m_busyLabel->setText(tr("An interrupted realignment of this disk is recorded in %1: "
                                "finish it first (close this wizard and open the disk again).")
                                 .arg(journal));
        m_busyLabel->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
        m_busy << journal;
    }
    showParts();
    emit completeChanged();
    emit planReady();
}

void RealignPlanPage::showParts()
{
    // Only what has something to say: no empty table or blank lines while planning, and
    // nothing to prepare for when nothing will move.
    const bool moves = m_ready && m_prepared.ok && !m_prepared.plan.moves.isEmpty();
    m_moves->setVisible(moves);
    m_summary->setVisible(!m_summary->text().isEmpty());
    m_stays->setVisible(!m_stays->text().isEmpty());
    m_busyLabel->setVisible(!m_busyLabel->text().isEmpty());
    m_needs->setVisible(moves);
}

bool RealignPlanPage::isComplete() const
{
    return m_ready && m_prepared.ok && !m_prepared.plan.moves.isEmpty() && m_busy.isEmpty() &&
           m_backup->isChecked();
}

// --- RealignRunPage -------------------------------------------------------------------------

RealignRunPage::RealignRunPage(RealignWizard *wizard) : m_wizard(wizard)
{
    setObjectName(QStringLiteral("realignRunPage"));
    setTitle(tr("Realigning"));
    auto *layout = new QVBoxLayout(this);
    m_status = wrappingLabel();
    m_status->setObjectName(QStringLiteral("runStatus"));
    layout->addWidget(m_status);
    m_rowsHost = new QWidget;
    m_rowsLayout = new QGridLayout(m_rowsHost);
    m_rowsLayout->setContentsMargins(0, 0, 0, 0);
    m_rowsLayout->setColumnStretch(1, 1);
    auto *scroll = new QScrollArea;
    scroll->setWidget(m_rowsHost);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMaximumHeight(170);
    layout->addWidget(scroll);
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("runLog"));
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setAccessibleName(tr("Realignment log"));
    m_log->setMaximumBlockCount(5000);
    layout->addWidget(m_log, 1);
    m_hint = wrappingLabel(tr("Cancel stops after the chunk being copied; the journal keeps the "
                              "disk in a state Partwise can finish later."));
    layout->addWidget(m_hint);
    // Leaving this page means the work has run: Back on the result page would only confuse.
    setCommitPage(true);
    setButtonText(QWizard::CommitButton, tr("&Next >"));
    RealignWorker *worker = m_wizard->worker();
    connect(worker, &RealignWorker::logLine, this, &RealignRunPage::appendLog);
    connect(worker, &RealignWorker::progress, this, &RealignRunPage::onProgress);
    connect(worker, &RealignWorker::finished, this, &RealignRunPage::onFinished);
}

void RealignRunPage::initializePage()
{
    if (m_started)
        return; // back from the result page: resumeNow() decides what runs
    m_started = true;
    m_resumeNext = m_wizard->isResume();
    begin();
}

void RealignRunPage::startResume()
{
    m_resumeNext = true;
    begin();
}

void RealignRunPage::buildRows(const QList<PartitionMove> &moves, qint64 sectorSize)
{
    for (const Row &row : std::as_const(m_rows)) {
        delete row.name;
        delete row.bar;
        delete row.detail;
    }
    m_rows.clear();
    m_sectorSize = sectorSize;
    for (int i = 0; i < moves.size(); ++i) {
        const PartitionMove &m = moves.at(i);
        Row row;
        row.move = m;
        row.name = new QLabel(partitionTitle(m.number, m.filesystem, m.label));
        row.bar = new QProgressBar;
        row.bar->setObjectName(QStringLiteral("moveProgress%1").arg(i));
        row.bar->setRange(0, kBarSteps);
        row.bar->setValue(0);
        row.bar->setAccessibleName(row.name->text());
        row.detail =
            new QLabel(m.recreateSwap ? tr("nothing to copy: swap is recreated") : tr("waiting"));
        row.detail->setObjectName(QStringLiteral("moveDetail%1").arg(i));
        row.detail->setMinimumWidth(row.detail->fontMetrics().horizontalAdvance(
            QStringLiteral("000.0 MiB of 000.0 MiB · 000.0 MiB/s · 00 min 00 s left")));
        m_rowsLayout->addWidget(row.name, i, 0);
        m_rowsLayout->addWidget(row.bar, i, 1);
        m_rowsLayout->addWidget(row.detail, i, 2);
        m_rows << row;
    }
}

void RealignRunPage::begin()
{
    m_finished = false;
    m_running = true;
    cancelButton()->setEnabled(true);
    m_hint->setVisible(true);
    m_status->setStyleSheet(QString());
    emit completeChanged();
    const RealignSetup &setup = m_wizard->setup();
    QString journalPath = setup.resumeJournal;
    if (journalPath.isEmpty())
        journalPath = m_wizard->result().journalPath;
    if (journalPath.isEmpty())
        journalPath = m_wizard->runOptions().journalPath;
    if (journalPath.isEmpty())
        journalPath = RealignJournal::defaultPath(setup.target);
    if (m_resumeNext) {
        RealignJournal journal;
        QString error;
        if (RealignJournal::load(journalPath, &journal, &error)) {
            buildRows(journal.moves, journal.sectorSize);
            for (int i = 0; i < m_rows.size() && i < journal.phases.size(); ++i)
                if (journal.phases.at(i) == RealignJournal::Phase::Done)
                    setRowState(i, tr("done"), true);
        }
        setTitle(tr("Finishing the interrupted realignment"));
        m_status->setText(
            tr("Finishing the realignment of %1 recorded in %2…").arg(setup.target, journalPath));
        m_wizard->worker()->resume(setup.target, journalPath, setup.forcedSectorSize);
        return;
    }
    const PreparedRealign &prepared = m_wizard->planPage()->prepared();
    const qint64 ss = prepared.layout.device.topology.logicalSectorSize;
    buildRows(prepared.plan.moves, ss);
    m_status->setText(
        (prepared.plan.moves.size() == 1 ? tr("Moving 1 partition on %1.").arg(setup.target)
                                         : tr("Moving %1 partitions on %2.")
                                               .arg(prepared.plan.moves.size())
                                               .arg(setup.target)) +
        QLatin1Char(' ') +
        tr("Keep the computer on; if it stops anyway, Partwise finishes the move when the disk "
           "is opened again."));
    appendLog(tr("Plan for %1 (grain %2):")
                  .arg(setup.target, grainName(prepared.plan.geometry.grainBytes)));
    for (const QString &line : realignPlanText(prepared.plan, ss).split(QLatin1Char('\n')))
        if (!line.isEmpty())
            appendLog(line);
    m_wizard->worker()->run(setup.target, prepared, m_wizard->runOptions());
}

void RealignRunPage::setRowState(int index, const QString &text, bool done)
{
    if (index < 0 || index >= m_rows.size())
        return;
    if (done)
        m_rows[index].bar->setValue(kBarSteps);
    m_rows[index].detail->setText(text);
}

void RealignRunPage::onProgress(const RealignProgress &p)
{
    for (int i = 0; i < p.moveIndex && i < m_rows.size(); ++i)
        if (m_rows[i].bar->value() < kBarSteps)
            setRowState(i, tr("done"), true);
    if (p.moveIndex < 0 || p.moveIndex >= m_rows.size())
        return;
    Row &row = m_rows[p.moveIndex];
    const int value =
        p.bytesTotal ? int(qint64(kBarSteps) * qint64(p.bytesDone) / qint64(p.bytesTotal)) : 0;
    row.bar->setValue(std::clamp(value, 0, kBarSteps));
    const QString step = p.step == QLatin1String("verifying") ? tr("verifying") : tr("moving");
    QString detail =
        tr("%1: %2 of %3")
            .arg(step, humanSize(qint64(p.bytesDone)), humanSize(qint64(p.bytesTotal)));
    if (p.bytesPerSecond > 0)
        detail += tr(" · %1/s").arg(humanSize(qint64(p.bytesPerSecond)));
    if (p.bytesDone < p.bytesTotal && p.secondsLeft > 0)
        detail += tr(" · %1 left").arg(realignDurationText(p.secondsLeft));
    row.detail->setText(detail);
    m_status->setText((p.step == QLatin1String("verifying")
                           ? tr("Verifying partition %1 (%2 of %3)…")
                           : tr("Moving partition %1 (%2 of %3)…"))
                          .arg(p.partition)
                          .arg(p.moveIndex + 1)
                          .arg(p.moveCount));
}

void RealignRunPage::onFinished(const RealignResult &result, const DiskLayout &before,
                                const DiskLayout &after, bool afterOk)
{
    m_running = false;
    m_finished = true;
    cancelButton()->setEnabled(true); // now it closes the wizard
    m_hint->setVisible(false);
    m_before = before;
    m_after = after;
    m_afterOk = afterOk;
    // Where each partition got to: the journal says, while it exists.
    RealignJournal journal;
    QString error;
    if (!result.ok && RealignJournal::load(result.journalPath, &journal, &error)) {
        for (int i = 0; i < m_rows.size() && i < journal.phases.size(); ++i) {
            const RealignJournal::Phase phase = journal.phases.at(i);
            if (phase == RealignJournal::Phase::Done)
                setRowState(i, tr("done"), true);
            else if (phase == RealignJournal::Phase::Pending)
                setRowState(i, tr("not started"), false);
            else
                setRowState(i, tr("stopped (%1)").arg(realignPhaseName(phase)), false);
        }
    } else if (result.ok) {
        for (int i = 0; i < m_rows.size(); ++i)
            setRowState(i, tr("done"), true);
    }
    if (result.ok) {
        m_status->setText(tr("Finished. Press Next to see the disk as it is now."));
        appendLog(tr("Done."));
    } else {
        m_status->setText(result.resumable
                              ? tr("Stopped at a safe point; nothing is lost. Press Next for "
                                   "how to finish.")
                              : tr("Stopped: %1").arg(result.error));
        m_status->setStyleSheet(result.resumable ? QString()
                                                 : AlignmentStyle::errorStyleSheet(palette()));
        appendLog(tr("Stopped: %1").arg(result.error));
    }
    m_wizard->onFinished(result);
    emit completeChanged();
    emit runFinished(result.ok);
}

void RealignRunPage::requestCancel()
{
    if (!m_running || m_wizard->worker()->cancelRequested())
        return;
    m_wizard->worker()->cancel();
    cancelButton()->setEnabled(false);
    m_status->setText(tr("Stopping after the current chunk…"));
    appendLog(tr("Cancel requested: stopping at the next safe point."));
}

bool RealignRunPage::isComplete() const
{
    return m_finished && !m_running;
}

QAbstractButton *RealignRunPage::cancelButton() const
{
    // The wizard's own Cancel: while the work runs, it asks the work to stop (see reject()).
    return m_wizard->button(QWizard::CancelButton);
}

QString RealignRunPage::logText() const
{
    return m_log->toPlainText();
}

QProgressBar *RealignRunPage::progressBar(int moveIndex) const
{
    return moveIndex >= 0 && moveIndex < m_rows.size() ? m_rows.at(moveIndex).bar : nullptr;
}

void RealignRunPage::appendLog(const QString &line)
{
    m_log->appendPlainText(line);
}

// --- RealignResultPage ----------------------------------------------------------------------

RealignResultPage::RealignResultPage(RealignWizard *wizard) : m_wizard(wizard)
{
    setObjectName(QStringLiteral("realignResultPage"));
    setFinalPage(true);
    // Scrolls rather than squeezes when the text is long (errors, other languages).
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto *body = new QWidget;
    scroll->setWidget(body);
    auto *layout = new QVBoxLayout(body);
    m_outcome = wrappingLabel();
    m_outcome->setObjectName(QStringLiteral("resultOutcome"));
    layout->addWidget(m_outcome);
    m_details = new QPlainTextEdit;
    m_details->setObjectName(QStringLiteral("resultDetails"));
    m_details->setReadOnly(true);
    m_details->setAccessibleName(tr("Details"));
    m_details->setMaximumHeight(m_details->fontMetrics().lineSpacing() * 5);
    layout->addWidget(m_details);
    m_resume = new QPushButton(tr("&Resume Now"));
    m_resume->setObjectName(QStringLiteral("resumeNowButton"));
    layout->addWidget(m_resume, 0, Qt::AlignLeft);
    m_beforeCaption = new QLabel;
    layout->addWidget(m_beforeCaption);
    m_before = new RealignMap;
    m_before->setObjectName(QStringLiteral("beforeMap"));
    layout->addWidget(m_before);
    m_afterCaption = new QLabel;
    layout->addWidget(m_afterCaption);
    m_after = new RealignMap;
    m_after->setObjectName(QStringLiteral("afterMap"));
    layout->addWidget(m_after);
    m_checksTitle = new QLabel(tr("<b>Checks</b>"));
    layout->addWidget(m_checksTitle);
    m_checks = new QTreeWidget;
    m_checks->setObjectName(QStringLiteral("resultChecks"));
    m_checks->setAccessibleName(tr("Check results"));
    m_checks->setRootIsDecorated(false);
    m_checks->setHeaderHidden(true);
    m_checks->setMaximumHeight(m_checks->fontMetrics().lineSpacing() * 6);
    layout->addWidget(m_checks);
    layout->addStretch(1);
    connect(m_resume, &QPushButton::clicked, m_wizard, &RealignWizard::resumeNow);
}

void RealignResultPage::initializePage()
{
    const RealignResult result = m_wizard->result();
    const RealignRunPage *run = m_wizard->runPage();
    const AlignmentPolicy policy = m_wizard->chosenPolicy();
    const QString target = m_wizard->setup().target;
    setTitle(result.ok ? tr("Realignment finished") : tr("Realignment stopped"));
    m_beforeCaption->setText(m_wizard->isResume()
                                 ? tr("<b>Before</b> (as the interrupted run left it)")
                                 : tr("<b>Before</b>"));
    m_before->setDisk(run->before(), policy);
    m_afterCaption->setText(result.ok ? tr("<b>After</b>") : tr("<b>Now</b>"));
    m_after->setDisk(run->after(), policy);
    if (!run->afterRead())
        m_after->map()->setMessage(tr("The disk could not be read again."));

    QString text;
    if (result.ok) {
        const MisalignmentReport report = analyzeAlignment(run->after(), policy);
        const int left = report.misalignedCount();
        text = left == 0 ? tr("No partition on %1 is misaligned any more.").arg(target)
               : left == 1
                   ? tr("1 partition on %1 is still misaligned: it was not chosen or could not "
                        "move.")
                         .arg(target)
                   : tr("%1 partitions on %2 are still misaligned: they were not chosen or could "
                        "not move.")
                         .arg(left)
                         .arg(target);
        setSubTitle(tr("The data was copied, the table updated and each filesystem checked."));
    } else if (result.resumable) {
        RealignJournal journal;
        QString error;
        int partition = 0;
        if (RealignJournal::load(result.journalPath, &journal, &error) &&
            journal.nextUnfinished() >= 0)
            partition = journal.moves.at(journal.nextUnfinished()).number;
        text = m_wizard->worker()->cancelRequested()
                   ? tr("You cancelled the realignment. It stopped at a safe point: nothing is "
                        "lost.")
                   : tr("The realignment stopped at a safe point: nothing is lost.");
        text += QLatin1Char(' ');
        text += partition > 0 ? tr("Until it is finished, partition %1 should not be used: part "
                                   "of its data may already be at its new place.")
                                    .arg(partition)
                              : tr("Until it is finished, the partition being moved should not "
                                   "be used.");
        text += QStringLiteral("\n\n");
        text += tr("Finish it now with Resume Now, or later: Partwise offers to finish it "
                   "whenever this disk is opened. From a terminal:\n    partwise-cli resume "
                   "--journal %1 %2")
                    .arg(result.journalPath, target);
        setSubTitle(tr("The realignment can be finished."));
    } else {
        text = tr("The realignment failed, and it cannot simply be resumed. The partition table "
                  "as it was before is saved under %1 (the log on the previous page names the "
                  "folder); the details say what went wrong.")
                   .arg(m_wizard->setup().options.backupRoot.isEmpty()
                            ? defaultBackupRoot()
                            : m_wizard->setup().options.backupRoot);
        setSubTitle(tr("The realignment failed."));
    }
    m_outcome->setText(text);
    m_outcome->setStyleSheet(
        result.ok || result.resumable ? QString() : AlignmentStyle::errorStyleSheet(palette()));
    m_details->setPlainText(result.error);
    m_details->setVisible(!result.error.isEmpty());
    m_checks->clear();
    for (const QString &check : result.checks) {
        auto *item = new QTreeWidgetItem(m_checks, {check});
        const bool clean =
            check.endsWith(QLatin1String(": clean")) || check.contains(QLatin1String("recreated"));
        item->setIcon(0, AlignmentStyle::icon(clean ? AlignmentStatus::Aligned
                                                    : AlignmentStatus::Misaligned));
    }
    if (result.checks.isEmpty())
        new QTreeWidgetItem(m_checks, {result.ok ? tr("No filesystem needed checking.")
                                                 : tr("No filesystem has been checked yet.")});
    m_resume->setVisible(!result.ok && result.resumable);
}

QStringList RealignResultPage::checkLines() const
{
    QStringList lines;
    for (int i = 0; i < m_checks->topLevelItemCount(); ++i)
        lines << m_checks->topLevelItem(i)->text(0);
    return lines;
}

QString RealignResultPage::outcomeText() const
{
    return m_outcome->text();
}
