#include "realign/realignpages.h"

#include "alignmentstyle.h"
#include "base/humansize.h"
#include "ops/realignplantext.h"
#include "realign/realignbackend.h"
#include "realign/realignpagetext.h"

#include <QAbstractButton>
#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScrollArea>
#include <QSet>
#include <QVBoxLayout>
#include <QWizard>

#include <algorithm>

using namespace partwise;

using namespace realigntext;

RealignRunPage::RealignRunPage(RealignWizardState *state, RealignBackend *backend)
    : m_state(state), m_backend(backend)
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
    m_rowsScroll = new QScrollArea;
    m_rowsScroll->setWidget(m_rowsHost);
    m_rowsScroll->setWidgetResizable(true);
    m_rowsScroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(m_rowsScroll);
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
    connect(m_backend, &RealignBackend::logLine, this, &RealignRunPage::appendLog);
    connect(m_backend, &RealignBackend::progress, this, &RealignRunPage::onProgress);
    connect(m_backend, &RealignBackend::finished, this, &RealignRunPage::onFinished);
}

void RealignRunPage::initializePage()
{
    if (m_started)
        return; // back from the result page: resumeNow() decides what runs
    m_started = true;
    m_resumeNext = m_state->isResume();
    begin();
}

void RealignRunPage::cleanupPage()
{
    // Back to the plan page after a refused shrink (nothing was written): Realign there runs
    // the new plan from the start.
    m_started = false;
    m_finished = false;
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
    int shown = 0;
    for (int i = 0; i < moves.size(); ++i) {
        const PartitionMove &m = moves.at(i);
        // An extended partition that shifts is widened first and moved last: one partition, one
        // row. The widening step (table only, quick) keeps its index but no row of its own.
        bool widening = false;
        for (int later = i + 1; later < moves.size() && m.tableOnly() && m.number > 0; ++later)
            widening = widening || moves.at(later).number == m.number;
        Row row;
        row.move = m;
        // A resume through a helper learns only the moves whose data it reports moving: the
        // steps between them keep their indexes but show no row, never an unnamed one (the log
        // names them).
        const bool hidden = widening || m.number <= 0;
        row.name = new QLabel(m.number > 0 ? moveTitle(m) : QString());
        row.bar = new QProgressBar;
        row.bar->setObjectName(QStringLiteral("moveProgress%1").arg(i));
        row.bar->setRange(0, kBarSteps);
        row.bar->setValue(0);
        row.bar->setAccessibleName(row.name->text());
        row.detail = new QLabel(m.tableOnly()    ? tableOnlyText(m)
                                : m.recreateSwap ? tr("nothing to copy: swap is recreated")
                                                 : tr("waiting"));
        row.detail->setObjectName(QStringLiteral("moveDetail%1").arg(i));
        row.detail->setMinimumWidth(row.detail->fontMetrics().horizontalAdvance(
            QStringLiteral("000.0 MiB of 000.0 MiB · 000.0 MiB/s · 00 min 00 s left")));
        if (hidden) {
            for (QWidget *w : {static_cast<QWidget *>(row.name), static_cast<QWidget *>(row.bar),
                               static_cast<QWidget *>(row.detail)}) {
                w->setParent(m_rowsHost);
                w->hide();
            }
        } else {
            m_rowsLayout->addWidget(row.name, shown, 0);
            m_rowsLayout->addWidget(row.bar, shown, 1);
            m_rowsLayout->addWidget(row.detail, shown, 2);
            ++shown;
        }
        m_rows << row;
    }
    fitRows();
}

void RealignRunPage::fitRows()
{
    // As tall as its rows, up to six: the log below would otherwise take the height and leave
    // a few rows in a scroll area that hides the rest.
    int visible = 0;
    for (const Row &row : std::as_const(m_rows))
        visible += row.name->isHidden() ? 0 : 1;
    const int shown = std::clamp(visible, 1, 6);
    const int rowHeight = m_rows.isEmpty() ? fontMetrics().height()
                                           : std::max(m_rows.first().bar->sizeHint().height(),
                                                      m_rows.first().name->sizeHint().height());
    m_rowsScroll->setFixedHeight(shown * rowHeight + (shown - 1) * m_rowsLayout->verticalSpacing());
}

void RealignRunPage::begin()
{
    m_lastProgress = -1;
    m_finished = false;
    m_running = true;
    cancelButton()->setEnabled(true);
    m_hint->setVisible(true);
    m_status->setStyleSheet(QString());
    emit completeChanged();
    const RealignSetup &setup = m_state->setup();
    QString journalPath = setup.resumeJournal;
    if (journalPath.isEmpty())
        journalPath = m_state->result().journalPath;
    if (journalPath.isEmpty())
        journalPath = m_state->runOptions().journalPathFor(setup.target);
    if (m_resumeNext) {
        WriteJournal journal;
        if (m_backend->loadJournal(journalPath, &journal)) {
            buildRows(journal.moves, journal.sectorSize);
            for (int i = 0; i < m_rows.size() && i < journal.phases.size(); ++i)
                if (journal.phases.at(i) == WriteJournal::Phase::Done)
                    setRowState(i, tr("done"), true);
        }
        setTitle(tr("Finishing the interrupted realignment"));
        m_status->setText(tr("Finishing the realignment of %1 recorded in %2…")
                              .arg(setup.shownName(), journalPath));
        m_backend->resume(setup.target, journalPath, setup.forcedSectorSize);
        return;
    }
    const PreparedRealign &prepared = m_state->prepared();
    const qint64 ss = prepared.layout.device.topology.logicalSectorSize;
    buildRows(prepared.plan.moves, ss);
    QSet<int> partitions; // an extended partition moves in two steps
    for (const PartitionMove &m : prepared.plan.moves)
        partitions.insert(m.number);
    m_status->setText(
        (partitions.size() == 1
             ? tr("Moving 1 partition on %1.").arg(setup.shownName())
             : tr("Moving %1 partitions on %2.").arg(partitions.size()).arg(setup.shownName())) +
        QLatin1Char(' ') +
        tr("Keep the computer on; if it stops anyway, Partwise finishes the move when the disk "
           "is opened again."));
    appendLog(tr("Plan for %1 (grain %2):")
                  .arg(setup.shownName(), grainName(prepared.plan.geometry.grainBytes)));
    for (const QString &line : realignPlanText(prepared).split(QLatin1Char('\n')))
        if (!line.isEmpty())
            appendLog(line);
    m_backend->run(setup.target, prepared, m_state->runOptions());
}

void RealignRunPage::setRowState(int index, const QString &text, bool done)
{
    if (index < 0 || index >= m_rows.size())
        return;
    if (done)
        m_rows[index].bar->setValue(kBarSteps);
    m_rows[index].detail->setText(text);
}

void RealignRunPage::addRowsUpTo(const RealignProgress &p)
{
    // A helper's journal is on its machine: the rows of a resume come with its progress, the
    // moves before the first one reported being done already.
    QList<PartitionMove> moves;
    for (const Row &row : std::as_const(m_rows))
        moves << row.move;
    const int done = int(moves.size());
    while (moves.size() <= p.moveIndex) {
        PartitionMove move;
        move.number = moves.size() == p.moveIndex ? p.partition : 0;
        if (const PartitionInfo *partition =
                m_state->setup().layout.partitionByNumber(move.number)) {
            move.filesystem = partition->filesystem;
            move.label = partition->label;
        }
        moves << move;
    }
    buildRows(moves, m_sectorSize);
    for (int i = done; i < p.moveIndex; ++i)
        setRowState(i, tr("done"), true);
}

void RealignRunPage::onProgress(const RealignProgress &p)
{
    if (p.moveIndex >= m_rows.size() && p.moveIndex < p.moveCount)
        addRowsUpTo(p);
    // Steps run in order: those before this one are done, even where their last report was a
    // full bar still saying "verifying".
    for (int i = 0; i < p.moveIndex && i < m_rows.size(); ++i)
        if (m_rows[i].detail->text() != tr("done"))
            setRowState(i, tr("done"), true);
    if (p.moveIndex < 0 || p.moveIndex >= m_rows.size())
        return;
    m_lastProgress = p.moveIndex;
    Row &row = m_rows[p.moveIndex];
    const int value =
        p.bytesTotal ? int(qint64(kBarSteps) * qint64(p.bytesDone) / qint64(p.bytesTotal)) : 0;
    row.bar->setValue(std::clamp(value, 0, kBarSteps));
    const bool verifying = p.stepKind == RealignProgress::Step::Verifying;
    const QString step = verifying ? tr("verifying") : tr("moving");
    QString detail =
        tr("%1: %2 of %3")
            .arg(step, humanSize(qint64(p.bytesDone)), humanSize(qint64(p.bytesTotal)));
    if (p.bytesPerSecond > 0)
        detail += tr(" · %1/s").arg(humanSize(qint64(p.bytesPerSecond)));
    if (p.bytesDone < p.bytesTotal && p.secondsLeft > 0)
        detail += tr(" · %1 left").arg(durationText(p.secondsLeft));
    row.detail->setText(detail);
    m_status->setText((verifying ? tr("Verifying partition %1 (%2 of %3)…")
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
    // Nothing is left to cancel: the disk has been written to, and Cancel would read as "undo".
    // Next shows the outcome, whose page offers Finish only.
    cancelButton()->setEnabled(false);
    m_hint->setVisible(false);
    // Where each partition got to: the journal says, while it exists.
    WriteJournal journal;
    if (!result.ok && m_backend->loadJournal(result.journalPath, &journal)) {
        for (int i = 0; i < m_rows.size() && i < journal.phases.size(); ++i) {
            const WriteJournal::Phase phase = journal.phases.at(i);
            if (phase == WriteJournal::Phase::Done)
                setRowState(i, tr("done"), true);
            else if (phase == WriteJournal::Phase::Pending)
                setRowState(i, tr("not started"), false);
            else
                setRowState(i, tr("stopped (%1)").arg(journalPhaseName(phase)), false);
        }
    } else if (result.ok) {
        for (int i = 0; i < m_rows.size(); ++i)
            setRowState(i, tr("done"), true);
    } else {
        // No journal to ask (a helper keeps it). A refused shrink wrote nothing: no row ran.
        // Otherwise the rows progress marked done stay so, the copy under way stopped, and a
        // row still waiting never started.
        for (int i = 0; i < m_rows.size(); ++i) {
            Row &row = m_rows[i];
            if (result.shrinkRefused > 0) {
                row.bar->setValue(0);
                setRowState(i, tr("not started"), false);
            } else if (i == m_lastProgress && row.bar->value() < kBarSteps) {
                setRowState(i, tr("stopped"), false);
            } else if (i > m_lastProgress && row.detail->text() == tr("waiting")) {
                setRowState(i, tr("not started"), false);
            }
        }
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
    m_state->setOutcome(result, before, after, afterOk, m_backend->cancelRequested());
    emit completeChanged();
    emit runFinished(result.ok);
}

void RealignRunPage::requestCancel()
{
    if (!m_running || m_backend->cancelRequested())
        return;
    m_backend->cancel();
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
    return wizard()->button(QWizard::CancelButton);
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
