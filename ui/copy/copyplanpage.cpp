// The Copy Disk wizard's plan page: what the copy will do, from the backend's plan, and the
// person's yes.

#include "copy/copypages.h"
#include "copy/copywizard.h"
#include "screenfit.h"

#include "base/humansize.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace partwise;

namespace {

QString sectors(qint64 start, qint64 end)
{
    return CopyPlanPage::tr("%1–%2").arg(start).arg(end);
}

QString dataText(const CopyPartitionPlan &p)
{
    switch (p.data) {
    case CopyData::UsedBlocks:
        return CopyPlanPage::tr("used blocks");
    case CopyData::Whole:
        return CopyPlanPage::tr("every byte");
    case CopyData::Recreate:
        return CopyPlanPage::tr("made anew (swap)");
    case CopyData::Shrunk:
        return CopyPlanPage::tr("shrunk, then used blocks");
    case CopyData::None:
        break;
    }
    return CopyPlanPage::tr("its table entries only");
}

QString list(const QStringList &lines, const char *color = nullptr)
{
    QString html = QStringLiteral("<ul>");
    for (const QString &line : lines)
        html += color ? QStringLiteral("<li><span style=\"color:%1\">%2</span></li>")
                            .arg(QLatin1String(color), line.toHtmlEscaped())
                      : QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}

} // namespace

CopyPlanPage::CopyPlanPage(CopyWizard *wizard) : m_wizard(wizard)
{
    setObjectName(QStringLiteral("copyPlanPage"));
    setTitle(tr("The Plan"));
    setCommitPage(true);
    setButtonText(QWizard::CommitButton, tr("&Copy"));
    auto *layout = new QVBoxLayout(this);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("copyPlanStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_table = new QTreeWidget;
    m_table->setObjectName(QStringLiteral("copyPlanTable"));
    m_table->setRootIsDecorated(false);
    m_table->setHeaderLabels({tr("Partition"), tr("Filesystem"), tr("Now (sectors)"),
                              tr("On the copy (sectors)"), tr("Size"), tr("To copy"), tr("How")});
    m_table->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_table, 1);
    m_details = new QTextBrowser;
    m_details->setObjectName(QStringLiteral("copyPlanDetails"));
    layout->addWidget(m_details, 2);
    m_acceptBoot = new QCheckBox(tr("I will repair booting as shown and &accept the change"));
    m_acceptBoot->setObjectName(QStringLiteral("copyAcceptBoot"));
    layout->addWidget(m_acceptBoot);
    m_confirm = new QCheckBox;
    m_confirm->setObjectName(QStringLiteral("copyConfirm"));
    layout->addWidget(m_confirm);
    connect(m_acceptBoot, &QCheckBox::toggled, this, &CopyPlanPage::completeChanged);
    // The plan scrolls on a small screen; what Copy waits for stays in sight beside it.
    scrollPageContents(this, {m_acceptBoot, m_confirm});
    connect(m_confirm, &QCheckBox::toggled, this, &CopyPlanPage::completeChanged);
    connect(wizard->backend(), &CopyBackend::planned, this, &CopyPlanPage::showPlan);
    connect(wizard->backend(), &CopyBackend::imageCreated, this,
            [this](bool ok, const QString &error) {
                if (m_planAgain) {
                    m_planAgain = false;
                    return startPlanning();
                }
                if (!ok)
                    return showError(
                        tr("The image %1 could not be made: %2").arg(m_wizard->targetKey(), error));
                m_createdImage = m_wizard->targetKey();
                m_wizard->backend()->plan(m_wizard->request());
            });
}

void CopyPlanPage::initializePage()
{
    m_ready = false;
    m_table->clear();
    m_details->clear();
    m_acceptBoot->hide();
    m_acceptBoot->setChecked(false);
    m_confirm->setChecked(false);
    m_confirm->setEnabled(false);
    m_confirm->setText(
        tr("I understand that everything on %1 will be &lost").arg(m_wizard->targetName()));
    m_status->setText(tr("Reading both disks and planning…"));
    emit completeChanged();
    // A plan still under way for choices since changed is dropped, and planned again.
    if (m_wizard->backend()->isBusy())
        m_planAgain = true;
    else
        startPlanning();
}

void CopyPlanPage::startPlanning()
{
    const qint64 bytes = m_wizard->newImageBytes();
    if (bytes > 0 && m_createdImage != m_wizard->targetKey())
        m_wizard->backend()->createImage(m_wizard->targetKey(), bytes);
    else
        m_wizard->backend()->plan(m_wizard->request());
}

void CopyPlanPage::showError(const QString &text)
{
    m_status->setText(
        QStringLiteral("<span style=\"color:#c00000\">%1</span>").arg(text.toHtmlEscaped()));
}

void CopyPlanPage::showPlan(const CopyPlan &plan, const QString &error, const QString &journal)
{
    if (m_planAgain) {
        m_planAgain = false;
        return startPlanning();
    }
    if (m_wizard->currentPage() != this)
        return; // left for an earlier page: planned again when it is entered
    if (!error.isEmpty())
        return showError(error);
    m_wizard->setPlan(plan);
    for (const CopyPartitionPlan &p : plan.partitions) {
        const qint64 oldBytes = (p.oldEnd - p.oldStart + 1) * plan.sourceSectorSize;
        const qint64 newBytes = (p.newEnd - p.newStart + 1) * plan.targetSectorSize;
        auto *row = new QTreeWidgetItem(
            m_table,
            {tr("%1 → %2").arg(p.sourceNumber).arg(p.targetNumber),
             p.label.isEmpty() ? p.filesystem : tr("%1 (%2)").arg(p.filesystem, p.label),
             sectors(p.oldStart, p.oldEnd), sectors(p.newStart, p.newEnd),
             oldBytes == newBytes ? humanSize(newBytes)
                                  : tr("%1 → %2").arg(humanSize(oldBytes), humanSize(newBytes)),
             humanSize(qint64(p.bytesToCopy)), dataText(p)});
        row->setData(3, Qt::UserRole, p.newStart);
    }
    QString html;
    html += QStringLiteral("<p>%1</p>")
                .arg(tr("%1 to copy, about %2 s; the new table: %3, grain %4.")
                         .arg(humanSize(qint64(plan.bytesToCopy)))
                         .arg(qint64(plan.estimatedSeconds + 0.999))
                         .arg(plan.targetTable.toUpper(), humanSize(plan.grainBytes))
                         .toHtmlEscaped());
    html += QStringLiteral("<p>%1</p>")
                .arg((plan.newIds ? tr("The copy gets new filesystem UUIDs and disk ids.")
                                  : tr("The copy keeps every UUID, label and disk id."))
                         .toHtmlEscaped());
    QStringList refused = plan.refused;
    if (!journal.isEmpty())
        refused << tr("A copy onto this target was interrupted (%1): finish it first with "
                      "Drive → Finish Interrupted Copy, or “partwise-cli resume”.")
                       .arg(journal);
    if (!refused.isEmpty())
        html += QStringLiteral("<p><b style=\"color:#c00000\">%1</b></p>")
                    .arg(tr("This copy cannot run:").toHtmlEscaped()) +
                list(refused, "#c00000");
    if (!plan.bootFixes.isEmpty())
        html += QStringLiteral("<p><b>%1</b></p>").arg(tr("Booting:").toHtmlEscaped()) +
                list(plan.bootFixes);
    if (!plan.bootBreaks.isEmpty())
        html += QStringLiteral("<p><b style=\"color:#c00000\">%1</b></p>")
                    .arg(tr("What will not boot from the copy, and its repair:").toHtmlEscaped()) +
                list(plan.bootBreaks, "#c00000");
    if (!plan.notes.isEmpty())
        html += list(plan.notes);
    html += QStringLiteral("<p>%1</p><pre style=\"white-space: pre-wrap\">%2</pre>")
                .arg(tr("As partwise-cli copy says it:").toHtmlEscaped(),
                     copyPlanText(plan).join(QLatin1Char('\n')).toHtmlEscaped());
    m_details->setHtml(html);
    m_acceptBoot->setVisible(!plan.bootBreaks.isEmpty());
    m_ready = refused.isEmpty();
    m_confirm->setEnabled(m_ready);
    m_status->setText(m_ready ? tr("Partwise will copy %1 onto %2 as below.")
                                    .arg(m_wizard->setup().sourceName, m_wizard->targetName())
                              : QString());
    if (!m_ready)
        showError(tr("Nothing can be started: see why below."));
    emit completeChanged();
}

bool CopyPlanPage::isComplete() const
{
    return m_ready && m_confirm->isChecked() &&
           (m_wizard->plan().bootBreaks.isEmpty() || m_acceptBoot->isChecked());
}

bool CopyPlanPage::acceptsBootChange() const
{
    return m_acceptBoot->isChecked();
}

QString CopyPlanPage::planText() const
{
    return m_details->toPlainText();
}
