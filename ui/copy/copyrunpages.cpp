// The Copy Disk wizard's last pages: the copy under way, and what came of it.

#include "copy/copypages.h"
#include "copy/copywizard.h"

#include "base/humansize.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QVBoxLayout>
#include <QWizard>

using namespace partwise;

CopyRunPage::CopyRunPage(CopyWizard *wizard) : m_wizard(wizard)
{
    setObjectName(QStringLiteral("copyRunPage"));
    setTitle(tr("Copying"));
    // Once the copy ran there is no way back to its plan; the page moves on by itself.
    setCommitPage(true);
    setButtonText(QWizard::CommitButton, tr("&Next"));
    auto *layout = new QVBoxLayout(this);
    m_step = new QLabel;
    m_step->setObjectName(QStringLiteral("copyStep"));
    m_step->setWordWrap(true);
    layout->addWidget(m_step);
    m_bar = new QProgressBar;
    m_bar->setObjectName(QStringLiteral("copyProgress"));
    m_bar->setRange(0, 1000);
    layout->addWidget(m_bar);
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("copyLog"));
    m_log->setReadOnly(true);
    layout->addWidget(m_log, 1);
    layout->addWidget(new QLabel(tr("Cancel stops the copy at a safe point; it can be finished "
                                    "later with Drive → Finish Interrupted Copy.")));
    CopyBackend *backend = wizard->backend();
    connect(backend, &CopyBackend::logLine, m_log, &QPlainTextEdit::appendPlainText);
    connect(backend, &CopyBackend::progress, this, &CopyRunPage::onProgress);
    connect(backend, &CopyBackend::finished, this, &CopyRunPage::onFinished);
}

void CopyRunPage::initializePage()
{
    if (m_running || m_done)
        return;
    m_running = true;
    if (m_wizard->isResume()) {
        m_step->setText(tr("Finishing the interrupted copy onto %1…").arg(m_wizard->targetName()));
        m_wizard->backend()->resume(m_wizard->request().target);
        return;
    }
    m_step->setText(tr("Reading both disks again and starting the copy…"));
    m_wizard->backend()->run(m_wizard->request(), m_wizard->plan(),
                             m_wizard->planPage()->acceptsBootChange());
}

void CopyRunPage::onProgress(const CopyProgress &p)
{
    if (!m_running)
        return;
    const double fraction =
        p.bytesTotal ? std::min(1.0, double(p.bytesDone) / double(p.bytesTotal)) : 0.0;
    m_bar->setValue(int(fraction * 1000));
    const QString step = p.stepKind == CopyProgress::Step::Verifying   ? tr("verifying")
                         : p.stepKind == CopyProgress::Step::Preparing ? tr("preparing")
                         : p.stepKind == CopyProgress::Step::Finishing ? tr("finishing")
                                                                       : tr("copying");
    m_step->setText(tr("Partition %1 (%2 of %3): %4, %5/s, about %6 s left")
                        .arg(p.partition)
                        .arg(p.partitionIndex + 1)
                        .arg(p.partitionCount)
                        .arg(step, humanSize(qint64(p.bytesPerSecond)))
                        .arg(qint64(p.secondsLeft)));
}

void CopyRunPage::requestCancel()
{
    if (!m_running)
        return;
    m_step->setText(tr("Stopping at the next safe point…"));
    m_wizard->backend()->cancel();
}

void CopyRunPage::onFinished(const CopyResult &result)
{
    if (!m_running)
        return;
    m_running = false;
    m_done = true;
    m_bar->setValue(result.ok ? 1000 : m_bar->value());
    m_step->setText(result.ok ? tr("The copy is finished.") : tr("The copy stopped."));
    m_wizard->setResult(result);
    emit completeChanged();
    m_wizard->next();
}

CopyResultPage::CopyResultPage(CopyWizard *wizard) : m_wizard(wizard)
{
    setObjectName(QStringLiteral("copyResultPage"));
    setTitle(tr("Result"));
    setFinalPage(true);
    auto *layout = new QVBoxLayout(this);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("copySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    layout->addWidget(new QLabel(tr("Each copied filesystem's check:")));
    m_checks = new QPlainTextEdit;
    m_checks->setObjectName(QStringLiteral("copyChecks"));
    m_checks->setReadOnly(true);
    layout->addWidget(m_checks, 1);
}

void CopyResultPage::initializePage()
{
    const CopyResult &r = m_wizard->result();
    QString text;
    if (r.ok && m_wizard->isResume())
        text = tr("The interrupted copy onto %1 is finished, every partition on the grain.")
                   .arg(m_wizard->targetName());
    else if (r.ok)
        text = tr("%1 is now a copy of %2, every partition on the grain.")
                   .arg(m_wizard->targetName(), m_wizard->setup().sourceName);
    else if (r.resumable)
        text = tr("The copy stopped: %1\nIts journal (%2) lets it be finished: Drive → Finish "
                  "Interrupted Copy, or “partwise-cli resume %3”. Until then %4 holds no "
                  "partition table.")
                   .arg(r.error, r.journalPath, m_wizard->request().target, m_wizard->targetName());
    else
        text = tr("The copy failed: %1").arg(r.error);
    if (!r.backupFolder.isEmpty())
        text += QLatin1Char('\n') +
                tr("The target's former table was saved in %1.").arg(r.backupFolder);
    m_summary->setText(text);
    m_summary->setStyleSheet(r.ok ? QString() : QStringLiteral("color: #c00000"));
    m_checks->setPlainText(r.checks.join(QLatin1Char('\n')));
}

QString CopyResultPage::summary() const
{
    return m_summary->text();
}
