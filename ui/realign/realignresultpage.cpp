#include "realign/realignpages.h"

#include "align/misalignmentreport.h"
#include "alignmentstyle.h"
#include "base/humansize.h"
#include "diskmapwidget.h"
#include "ops/tablebackup.h"
#include "realign/realignbackend.h"
#include "realign/realignpagetext.h"

#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

using namespace partwise;

using namespace realigntext;

RealignResultPage::RealignResultPage(RealignWizardState *state, RealignBackend *backend)
    : m_state(state), m_backend(backend)
{
    setObjectName(QStringLiteral("realignResultPage"));
    setFinalPage(true);
    // Scrolls rather than squeezes when the text is long (errors, other languages).
    QVBoxLayout *layout = scrollingBody(this);
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
    // One wrapping line per check, as tall as its text: a warning is read whole, and the page
    // scrolls when there are many.
    m_checks = new QWidget;
    m_checks->setObjectName(QStringLiteral("resultChecks"));
    m_checks->setAccessibleName(tr("Check results"));
    m_checksLayout = new QGridLayout(m_checks);
    m_checksLayout->setContentsMargins(0, 0, 0, 0);
    m_checksLayout->setColumnStretch(1, 1);
    layout->addWidget(m_checks);
    layout->addStretch(1);
    connect(m_resume, &QPushButton::clicked, this, &RealignResultPage::resumeRequested);
}

void RealignResultPage::initializePage()
{
    const RealignResult &result = m_state->result();
    const AlignmentPolicy policy = m_state->chosenPolicy();
    const QString target = m_state->setup().shownName();
    setTitle(result.ok ? tr("Realignment finished") : tr("Realignment stopped"));
    m_beforeCaption->setText(m_state->isResume()
                                 ? tr("<b>Before</b> (as the interrupted run left it)")
                                 : tr("<b>Before</b>"));
    m_before->setDisk(m_state->before(), policy);
    m_afterCaption->setText(result.ok ? tr("<b>After</b>") : tr("<b>Now</b>"));
    m_after->setDisk(m_state->after(), policy);
    if (!m_state->afterRead())
        m_after->map()->setMessage(tr("The disk could not be read again."));

    QString text;
    if (result.ok) {
        const MisalignmentReport report = analyzeAlignment(m_state->after(), policy);
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
        WriteJournal journal;
        int partition = 0;
        if (m_backend->loadJournal(result.journalPath, &journal) && journal.nextUnfinished() >= 0)
            partition = journal.moves.at(journal.nextUnfinished()).number;
        text = m_state->wasCancelled()
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
        const QString command =
            result.journalPath.isEmpty()
                ? QStringLiteral("partwise-cli resume %1").arg(m_state->setup().pathThere())
                : QStringLiteral("partwise-cli resume --journal %1 %2")
                      .arg(result.journalPath, m_state->setup().pathThere());
        text += tr("Finish it now with Resume Now, or later: Partwise offers to finish it "
                   "whenever this disk is opened. From a terminal:\n    %1")
                    .arg(command);
        setSubTitle(tr("The realignment can be finished."));
    } else if (result.journalPath.isEmpty()) {
        // Refused before its journal was begun (the disk changed since the plan, it is locked
        // by another job, a helper went away before starting): nothing was written.
        text = tr("The realignment did not start: nothing on %1 was changed. The details say "
                  "why; close the wizard and open it again to plan anew.")
                   .arg(target);
        setSubTitle(tr("The realignment did not start."));
    } else {
        // A helper keeps the table's backup where it runs, in its own folder.
        const RealignSetup &setup = m_state->setup();
        const bool helper = !setup.devicePath.isEmpty();
        const QString where =
            helper ? tr("by the helper, in its backup folder")
                   : tr("under %1")
                         .arg(setup.options.backupRoot.isEmpty() ? defaultBackupRoot()
                                                                 : setup.options.backupRoot);
        text = tr("The realignment failed, and it cannot simply be resumed. The partition table "
                  "as it was before is saved %1 (the log on the previous page names the "
                  "folder); the details say what went wrong.")
                   .arg(where);
        setSubTitle(tr("The realignment failed."));
    }
    m_outcome->setText(text);
    m_outcome->setStyleSheet(
        result.ok || result.resumable ? QString() : AlignmentStyle::errorStyleSheet(palette()));
    m_details->setPlainText(result.error);
    m_details->setVisible(!result.error.isEmpty());
    QStringList checks = result.checks;
    if (checks.isEmpty())
        checks << (result.ok ? tr("No filesystem needed checking.")
                             : tr("No filesystem has been checked yet."));
    showChecks(checks, !result.checks.isEmpty());
    m_resume->setVisible(!result.ok && result.resumable);
}

void RealignResultPage::showChecks(const QStringList &checks, bool withVerdicts)
{
    while (QLayoutItem *item = m_checksLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_checkLabels.clear();
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    for (int row = 0; row < checks.size(); ++row) {
        const QString &check = checks.at(row);
        if (withVerdicts) {
            const bool clean = check.endsWith(QLatin1String(": clean")) ||
                               check.contains(QLatin1String("recreated"));
            auto *icon = new QLabel;
            icon->setPixmap(
                AlignmentStyle::icon(clean ? AlignmentStatus::Aligned : AlignmentStatus::Misaligned)
                    .pixmap(iconSize, iconSize));
            m_checksLayout->addWidget(icon, row, 0, Qt::AlignTop);
        }
        auto *line = wrappingLabel(check);
        line->setTextFormat(Qt::PlainText);
        m_checksLayout->addWidget(line, row, 1);
        m_checkLabels << line;
    }
}

QStringList RealignResultPage::checkLines() const
{
    QStringList lines;
    for (const QLabel *line : m_checkLabels)
        lines << line->text();
    return lines;
}

QString RealignResultPage::outcomeText() const
{
    return m_outcome->text();
}
