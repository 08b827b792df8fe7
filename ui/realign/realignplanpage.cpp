#include "realign/realignpages.h"

#include "align/alignmentverdict.h"
#include "alignmentstyle.h"
#include "base/humansize.h"
#include "drivehealthtext.h"
#include "ops/tablebackup.h"
#include "realign/realignbackend.h"
#include "realign/realignpagetext.h"
#include "realign/realignwaychooser.h"
#include "ruler/rulercaption.h"
#include "ruler/sectorrulerwidget.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

using namespace partwise;

using namespace realigntext;

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

namespace {

// Neighbour -> the partition it makes room for, from the ways the plan took.
QMap<int, int> neighboursMakingRoom(const RealignPlan &plan)
{
    QMap<int, int> roomFor;
    for (const RealignChoice &c : plan.choices) {
        if (c.chosen < 0 || c.chosen >= c.options.size())
            continue;
        for (const PartitionMove &m : c.taken().moves)
            if (m.number != c.number && !roomFor.contains(m.number))
                roomFor.insert(m.number, c.number);
    }
    return roomFor;
}

} // namespace

RealignPlanPage::RealignPlanPage(RealignWizardState *state, RealignBackend *backend)
    : m_state(state), m_backend(backend)
{
    setObjectName(QStringLiteral("realignPlanPage"));
    setTitle(tr("The plan"));
    setSubTitle(tr("Nothing has been written yet. Check the plan, then start it with Realign."));
    setCommitPage(true);
    setButtonText(QWizard::CommitButton, tr("&Realign"));
    // A crowded disk offers several ways, many moves and long reasons: what does not fit the
    // wizard scrolls.
    QVBoxLayout *layout = scrollingBody(this);
    m_refusal = wrappingLabel();
    m_refusal->setObjectName(QStringLiteral("planRefusal"));
    m_refusal->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
    m_refusal->setVisible(false);
    layout->addWidget(m_refusal);
    // The ways come first: the status line below them introduces the table their pick makes.
    m_ways = new RealignWayChooser;
    layout->addWidget(m_ways);
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
    layout->addWidget(makeRulers());
    connect(m_moves, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem *item) { showRulers(m_moves->indexOfTopLevelItem(item)); });
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
    m_unmount = new QPushButton(tr("&Unmount and Continue"));
    m_unmount->setObjectName(QStringLiteral("planUnmount"));
    m_unmount->setVisible(false);
    busyRow->addWidget(m_unmount, 0, Qt::AlignTop);
    needsLayout->addLayout(busyRow);
    m_journalWarning = wrappingLabel();
    m_journalWarning->setObjectName(QStringLiteral("planJournalWarning"));
    m_journalWarning->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
    needsLayout->addWidget(m_journalWarning);
    m_advice = wrappingLabel();
    m_advice->setObjectName(QStringLiteral("planBackupAdvice"));
    needsLayout->addWidget(m_advice);
    m_bootBreaks = wrappingLabel();
    m_bootBreaks->setObjectName(QStringLiteral("planBootBreaks"));
    m_bootBreaks->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
    needsLayout->addWidget(m_bootBreaks);
    m_acceptBoot = new QCheckBox(tr("I will repair booting as shown and accept the &change"));
    m_acceptBoot->setObjectName(QStringLiteral("acceptBootChange"));
    m_acceptBoot->setVisible(false);
    m_backup = new QCheckBox(tr("&I have a backup or accept the risk"));
    m_backup->setObjectName(QStringLiteral("backupConfirm"));
    layout->addWidget(m_needs);
    layout->addStretch(1);
    // What Realign waits for stays below the scrolling plan, in sight however long it is.
    auto *outer = static_cast<QVBoxLayout *>(this->layout());
    outer->addWidget(m_acceptBoot);
    outer->addWidget(m_backup);

    connect(m_backup, &QCheckBox::toggled, this, &RealignPlanPage::completeChanged);
    connect(m_acceptBoot, &QCheckBox::toggled, this, &RealignPlanPage::completeChanged);
    connect(m_recheck, &QPushButton::clicked, this, &RealignPlanPage::startPlanning);
    connect(m_unmount, &QPushButton::clicked, this, [this] {
        if (!m_unmountHandler)
            return;
        m_unmount->setEnabled(false);
        QPointer<RealignPlanPage> self(this);
        m_unmountHandler([self](bool ok, const QString &message) {
            if (!self)
                return;
            self->m_unmount->setEnabled(true);
            if (!ok)
                QMessageBox::warning(self, tr("Unmount and Continue"), message);
            self->startPlanning(); // what is in use now, whatever was freed
        });
    });
    connect(m_backend, &RealignBackend::prepared, this, &RealignPlanPage::onPrepared);
    connect(m_backend, &RealignBackend::mapProgress, this, &RealignPlanPage::showMapProgress);
    connect(m_ways, &RealignWayChooser::wayPicked, this, &RealignPlanPage::planAgain);
    connect(m_state, &RealignWizardState::planChanged, this, &RealignPlanPage::showPlan);
}

void RealignPlanPage::initializePage()
{
    // Entered from the choose page: other partitions or another grain may offer other ways,
    // so the planner's cheapest pick comes first again.
    m_state->clearWays();
    m_refusal->clear();
    m_refusal->setVisible(false);
    startPlanning();
}

void RealignPlanPage::planAfterRefusal(const QString &why, int number, RealignWay way)
{
    m_refusal->setText(tr("The last plan stopped before writing anything: %1 Here is the next "
                          "plan; check it and start it with Realign.")
                           .arg(why));
    m_refusal->setVisible(true);
    m_backup->setChecked(false);
    planAgain(number, way);
}

QString RealignPlanPage::refusalText() const
{
    return m_refusal->isVisible() ? m_refusal->text() : QString();
}

void RealignPlanPage::startPlanning()
{
    m_state->planRequested();
    clearOutputs();
    showParts();
    m_status->setStyleSheet(QString());
    m_status->setText(tr("Reading %1 and planning…").arg(m_state->setup().shownName()));
    m_advice->setText(
        tr("Moving a partition rewrites its data in place. Partwise saves the partition table to "
           "%1 first and journals every step, but a failing drive or a bug can still lose data: "
           "back up what you cannot replace before you start.")
            .arg(m_state->setup().options.backupRoot.isEmpty()
                     ? defaultBackupRoot()
                     : m_state->setup().options.backupRoot));
    requestPlan();
}

void RealignPlanPage::clearOutputs()
{
    m_moves->clear();
    m_summary->clear();
    m_stays->clear();
    m_busyLabel->clear();
    m_journalWarning->clear();
    m_bootBreaks->clear();
    m_recheck->setVisible(false);
    m_unmount->setVisible(false);
}

void RealignPlanPage::planAgain(int number, RealignWay way)
{
    m_state->pickWay(number, way);
    // The old plan stays in view, greyed, until the new one is in: the page does not jump, and
    // Realign waits for the plan that matches the pick.
    m_state->planRequested();
    m_ways->setEnabled(false);
    m_moves->setEnabled(false);
    m_status->setStyleSheet(QString());
    m_status->setText(tr("Planning again with the way you picked…"));
    requestPlan();
}

void RealignPlanPage::requestPlan()
{
    if (m_backend->isBusy()) {
        m_planAgain = true; // an older plan is still being made; plan again when it is in
        return;
    }
    // The state's request carries the picked ways.
    m_backend->prepare(m_state->setup().target, m_state->runOptions(), m_state->request());
}

// Planning reads each moving filesystem's used blocks; on a large one that takes seconds.
void RealignPlanPage::showMapProgress(int partition, double fraction)
{
    if (m_state->isPlanReady())
        return;
    m_status->setStyleSheet(QString());
    m_status->setText(tr("Reading %1 and planning: finding the blocks partition %2 uses, %3%")
                          .arg(m_state->setup().shownName())
                          .arg(partition)
                          .arg(int(fraction * 100)));
}

void RealignPlanPage::onPrepared(const PreparedRealign &prepared, const QStringList &busy)
{
    if (m_planAgain) {
        m_planAgain = false;
        requestPlan();
        return;
    }
    m_state->setPlan(prepared, busy);
}

void RealignPlanPage::showPlan()
{
    emit completeChanged();
    if (!m_state->isPlanReady())
        return; // the last plan stays in view until the new one is in
    const PreparedRealign &prepared = m_state->prepared();
    clearOutputs(); // a re-plan left the last plan's outputs in place
    m_ways->setEnabled(true);
    m_moves->setEnabled(true);
    if (!prepared.ok) {
        m_status->setText(tr("Cannot plan the realignment: %1").arg(prepared.error));
        m_status->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
        m_ways->setChoices({});
        showParts();
        emit planReady();
        return;
    }
    const RealignPlan &plan = prepared.plan;
    const qint64 ss = prepared.layout.device.topology.logicalSectorSize;
    // Said before anything moves: a drive SMART calls failing, then a journal kept in memory.
    QStringList warnings;
    if (prepared.driveHealth.risky())
        warnings << riskyDriveSentence(prepared.driveHealth);
    if (!prepared.journal.survivesPowerCut)
        warnings
            << tr("The journal of this move would be kept in memory (%1, as in a live session): a "
                  "power cut during the move would lose it, and with it the record of where the "
                  "data is. Choose a folder for move journals on another disk in Preferences (a "
                  "USB "
                  "stick will do), or keep the computer on mains power.")
                   .arg(prepared.journal.filesystem);
    m_journalWarning->setText(warnings.join(QStringLiteral("\n\n")));
    showBoot(prepared);
    m_status->setText(statusText(plan));
    m_ways->setChoices(plan.choices);
    fillMoves(plan, ss);
    if (!plan.moves.isEmpty())
        m_summary->setText(
            tr("%1 to move in all; it takes roughly %2 at 100 MiB/s (the drive "
               "decides: a USB stick is slower, an SSD faster).")
                .arg(humanSize(plan.totalBytes()), durationText(estimateRealignSeconds(plan))));
    fitMovesTable(plan.moves.size());
    if (m_moves->topLevelItemCount() > 0)
        m_moves->setCurrentItem(m_moves->topLevelItem(0));
    // LUKS and LVM inside: what moving can and cannot do for them (core's words, as for the
    // reasons a partition stays).
    QStringList stays{staysText(prepared)};
    stays.removeAll(QString());
    stays += prepared.layerNotes;
    if (!m_bootFixes.isEmpty())
        stays << m_bootFixes;
    m_stays->setText(stays.join(QStringLiteral("\n")));
    showBusy(plan, m_state->busy());
    showParts();
    emit planReady();
}

QString RealignPlanPage::statusText(const RealignPlan &plan) const
{
    // Partitions, not steps: an extended partition takes two steps in the table.
    QList<int> moving;
    for (const PartitionMove &m : plan.moves)
        if (!moving.contains(m.number))
            moving << m.number;
    return moving.isEmpty() ? tr("Nothing can be moved: see why below.")
           : moving.size() == 1
               ? tr("1 partition moves to the %1 grain:").arg(grainName(plan.geometry.grainBytes))
               : tr("%1 partitions move to the %2 grain, in this order:")
                     .arg(moving.size())
                     .arg(grainName(plan.geometry.grainBytes));
}

void RealignPlanPage::fitMovesTable(int moves)
{
    // As tall as its rows (up to a dozen), so the rest of the page stays in view.
    const int rows = std::clamp(moves, 1, 12);
    const int rowHeight = std::max(m_moves->sizeHintForRow(0), fontMetrics().height() + 4);
    m_moves->setFixedHeight(m_moves->header()->sizeHint().height() + rows * rowHeight +
                            2 * m_moves->frameWidth() + 4);
}

QString RealignPlanPage::staysText(const PreparedRealign &prepared) const
{
    // What stays, and why: the planner's reasons, then every partition not chosen.
    const RealignPlan &plan = prepared.plan;
    QStringList stays;
    QList<int> accounted;
    for (const PartitionMove &m : plan.moves)
        accounted << m.number;
    for (const RealignSkip &skip : plan.skipped) {
        // The planner's reasons may be whole sentences already: one full stop, not two.
        QString reason = skip.reason;
        while (reason.endsWith(QLatin1Char('.')))
            reason.chop(1);
        stays << tr("Partition %1 stays where it is: %2.").arg(skip.number).arg(reason);
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
    return stays.join(QLatin1Char('\n'));
}

// What must be settled before the run: partitions in use, or an interrupted run of this disk
// (which the backend added to the blockers).
void RealignPlanPage::showBusy(const RealignPlan &plan, const QStringList &busy)
{
    const QString journal = m_backend->interruptedJournal();
    const bool interrupted = !journal.isEmpty() && busy.contains(journal);
    QStringList inUse = busy;
    inUse.removeAll(journal);
    if (!inUse.isEmpty()) {
        m_busyLabel->setText(tr("These partitions are in use and must be unmounted (or swapped "
                                "off) first:\n%1")
                                 .arg(inUse.join(QLatin1Char('\n'))));
        m_busyLabel->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
        m_recheck->setVisible(true);
        m_unmount->setVisible(bool(m_unmountHandler));
    } else if (!plan.moves.isEmpty()) {
        m_busyLabel->setText(tr("None of these partitions is mounted or otherwise in use."));
        m_busyLabel->setStyleSheet(QString());
    }
    if (interrupted) {
        m_busyLabel->setText(tr("An interrupted realignment of this disk is recorded in %1: "
                                "finish it first (close this wizard and open the disk again).")
                                 .arg(journal));
        m_busyLabel->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
    }
}

void RealignPlanPage::fillMoves(const RealignPlan &plan, qint64 ss)
{
    const QMap<int, int> roomFor = neighboursMakingRoom(plan);
    for (const PartitionMove &m : plan.moves) {
        auto *item = new QTreeWidgetItem(m_moves);
        item->setText(PlanPartition, moveTitle(m));
        item->setData(PlanPartition, Qt::UserRole, m.number);
        item->setText(PlanOldStart, QString::number(m.oldStart));
        item->setText(PlanOldEnd, QString::number(m.oldEnd));
        item->setText(PlanNewStart, QString::number(m.newStart));
        item->setText(PlanNewEnd, QString::number(m.newEnd));
        for (int c = PlanOldStart; c <= PlanBytes; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        if (m.tableOnly()) {
            // A container holds no data: "0 B" would read as an empty partition.
            item->setText(PlanBytes, tr("table only"));
            item->setText(PlanNote, tableOnlyText(m));
            continue;
        }
        const qint64 copied = plan.bytesToCopy(m);
        item->setText(PlanBytes, humanSize(copied));
        if (copied < m.bytesToMove(ss))
            item->setToolTip(
                PlanBytes,
                tr("The blocks its filesystem uses, of %1").arg(humanSize(m.bytesToMove(ss))));
        QStringList notes;
        if (roomFor.contains(m.number))
            notes << tr("makes room for partition %1").arg(roomFor.value(m.number));
        if (m.recreateSwap)
            notes << tr("swap: recreated with the same UUID and label, nothing copied");
        notes << (m.newStart > m.oldStart
                      ? tr("moves up %1").arg(humanSize((m.newStart - m.oldStart) * ss))
                      : tr("moves down %1").arg(humanSize((m.oldStart - m.newStart) * ss)));
        if (m.shrinkSectors > 0)
            notes << tr("shrunk by %1 first").arg(humanSize(m.shrinkSectors * ss));
        item->setText(PlanNote, notes.join(QStringLiteral("; ")));
        item->setToolTip(PlanNote, item->text(PlanNote)); // the column may cut it short
    }
}

void RealignPlanPage::showParts()
{
    // Only what has something to say: no empty table or blank lines while planning, and
    // nothing to prepare for when nothing will move.
    const PreparedRealign &prepared = m_state->prepared();
    const bool moves = m_state->isPlanReady() && prepared.ok && !prepared.plan.moves.isEmpty();
    m_moves->setVisible(moves);
    m_rulers->setVisible(moves);
    m_ways->setVisible(moves && m_ways->hasChoices());
    m_summary->setVisible(!m_summary->text().isEmpty());
    m_stays->setVisible(!m_stays->text().isEmpty());
    m_busyLabel->setVisible(!m_busyLabel->text().isEmpty());
    m_journalWarning->setVisible(!m_journalWarning->text().isEmpty());
    m_needs->setVisible(moves);
    m_backup->setVisible(moves);
}

bool RealignPlanPage::isComplete() const
{
    const PreparedRealign &prepared = m_state->prepared();
    return m_state->isPlanReady() && prepared.ok && !prepared.plan.moves.isEmpty() &&
           m_state->busy().isEmpty() && m_backup->isChecked() &&
           (prepared.bootBreaks.isEmpty() || m_acceptBoot->isChecked());
}

void RealignPlanPage::showBoot(const PreparedRealign &prepared)
{
    // What Partwise fixes is said with the plan; what breaks needs the person's yes (the
    // command line's --accept-boot-change), with the commands that repair it.
    QStringList lines;
    for (const QString &fix : prepared.bootFixes)
        lines << tr("Booting: %1").arg(fix);
    m_bootFixes = lines.join(QLatin1Char('\n'));
    m_bootBreaks->setText(prepared.bootBreaks.isEmpty()
                              ? QString()
                              : tr("This plan stops a boot loader working:\n%1")
                                    .arg(prepared.bootBreaks.join(QLatin1Char('\n'))));
    m_acceptBoot->setVisible(!prepared.bootBreaks.isEmpty());
    m_acceptBoot->setChecked(false);
}

QWidget *RealignPlanPage::makeRulers()
{
    // The selected move's first byte where it is and where it will be: the same sector ruler as
    // the main window's, so the straddling blocks are seen to become whole.
    m_rulers = new QGroupBox(tr("Its first blocks, now and after the move"));
    m_rulers->setObjectName(QStringLiteral("planRulers"));
    auto *grid = new QGridLayout(m_rulers);
    m_before = new SectorRulerWidget;
    m_before->setObjectName(QStringLiteral("planRulerBefore"));
    m_before->setAccessibleName(tr("Sector ruler where the partition is now"));
    m_after = new SectorRulerWidget;
    m_after->setObjectName(QStringLiteral("planRulerAfter"));
    m_after->setAccessibleName(tr("Sector ruler where the partition will be"));
    grid->addWidget(new QLabel(tr("Now:")), 0, 0, Qt::AlignTop);
    grid->addWidget(m_before, 0, 1);
    grid->addWidget(new QLabel(tr("After:")), 1, 0, Qt::AlignTop);
    grid->addWidget(m_after, 1, 1);
    grid->setColumnStretch(1, 1);
    return m_rulers;
}

void RealignPlanPage::showRulers(int index)
{
    const RealignPlan &plan = m_state->prepared().plan;
    if (index < 0 || index >= plan.moves.size()) {
        m_before->clear(QString());
        m_after->clear(QString());
        return;
    }
    const PartitionMove &move = plan.moves.at(index);
    auto show = [&plan](SectorRulerWidget *widget, qint64 first, qint64 last) {
        RulerRequest request;
        request.regionFirstSector = first;
        request.regionLastSector = last;
        request.windowBytes = SectorRulerWidget::windowForStep(widget->zoomStep());
        const SectorRuler ruler = buildSectorRuler(plan.geometry, request);
        widget->setRuler(ruler, RulerCaption::details(ruler, plan.geometry),
                         RulerCaption::physicalSource(plan.geometry.physicalSource));
    };
    show(m_before, move.oldStart, move.oldEnd);
    show(m_after, move.newStart, move.newEnd);
}
