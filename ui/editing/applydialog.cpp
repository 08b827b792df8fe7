#include "editing/applydialog.h"

#include "alignmentstyle.h"
#include "base/humansize.h"
#include "durationtext.h"
#include "editing/editingtext.h"
#include "screenfit.h"

#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

using namespace partwise;

namespace {

QMessageBox::Icon iconFor(PartedMessage::Severity severity)
{
    switch (severity) {
    case PartedMessage::Severity::Information:
        return QMessageBox::Information;
    case PartedMessage::Severity::Warning:
        return QMessageBox::Warning;
    case PartedMessage::Severity::Error:
    case PartedMessage::Severity::Fatal:
        break;
    }
    return QMessageBox::Critical;
}

QMessageBox::ButtonRole roleFor(const QString &choice)
{
    const QString c = choice.toLower();
    if (c == QLatin1String("cancel") || c == QLatin1String("no"))
        return QMessageBox::RejectRole;
    if (c == QLatin1String("ignore"))
        return QMessageBox::DestructiveRole;
    return QMessageBox::AcceptRole;
}

} // namespace

ApplyDialog::ApplyDialog(const QString &target, const QList<Operation> &operations,
                         const ApplyOptions &options, QWidget *parent)
    : QDialog(parent), m_target(target), m_operations(operations), m_options(options)
{
    setWindowTitle(tr("Apply Pending Operations"));
    setObjectName(QStringLiteral("applyDialog"));
    auto *layout = new QVBoxLayout(this);
    m_status = new QLabel(
        tr("Ready to apply %1 to %2.").arg(operationCountText(int(operations.size())), target));
    m_status->setObjectName(QStringLiteral("applyStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("applyProgress"));
    m_progress->setRange(0, std::max<int>(1, int(operations.size())));
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m"));
    layout->addWidget(m_progress);
    m_bytes = new QLabel;
    m_bytes->setObjectName(QStringLiteral("applyBytes"));
    m_bytes->setVisible(false);
    layout->addWidget(m_bytes);
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("applyLog"));
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setAccessibleName(tr("Apply log"));
    m_log->setMinimumSize(560, 160);
    layout->addWidget(m_log, 1);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    // Not the reject role: Escape must not stop a write that is under way.
    m_cancelButton = m_buttons->addButton(tr("&Cancel"), QDialogButtonBox::ActionRole);
    m_cancelButton->setObjectName(QStringLiteral("applyCancelButton"));
    m_cancelButton->setToolTip(tr("Stops at the next safe point: before the next operation, or "
                                  "where a move's journal can finish it later."));
    m_cancelButton->setVisible(false);
    connect(m_cancelButton, &QPushButton::clicked, this, &ApplyDialog::cancelClicked);
    m_saveLog = m_buttons->addButton(tr("&Save Log…"), QDialogButtonBox::ActionRole);
    m_saveLog->setObjectName(QStringLiteral("saveLogButton"));
    connect(m_saveLog, &QPushButton::clicked, this, &ApplyDialog::chooseLogFile);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ApplyDialog::reject);
    layout->addWidget(m_buttons);
}

ApplyDialog::~ApplyDialog() = default;

void ApplyDialog::start()
{
    if (m_running || m_finished)
        return;
    m_running = true;
    m_buttons->button(QDialogButtonBox::Close)->setVisible(false);
    m_cancelButton->setVisible(true);
    m_status->setText(
        tr("Applying %1 to %2…").arg(operationCountText(int(m_operations.size())), m_target));
    appendLog(tr("Applying %1 to %2").arg(operationCountText(int(m_operations.size())), m_target));
    for (int i = 0; i < m_operations.size(); ++i)
        appendLog(QStringLiteral("  %1. %2").arg(i + 1).arg(m_operations.at(i).description()));

    runJob();
}

void ApplyDialog::runJob()
{
    const QString target = m_target;
    const QList<Operation> operations = m_operations;
    const ApplyOptions options = m_options;
    m_job.start(
        [this, target, operations, options] {
            ApplyCallbacks callbacks;
            callbacks.log = [this](const QString &line) {
                QMetaObject::invokeMethod(
                    this, [this, line] { appendJobLog(line); }, Qt::QueuedConnection);
            };
            callbacks.progress = [this](int done, int total) {
                QMetaObject::invokeMethod(
                    this, [this, done, total] { onProgress(done, total); }, Qt::QueuedConnection);
            };
            callbacks.bytes = [this](const RealignProgress &p) {
                QMetaObject::invokeMethod(
                    this, [this, p] { onBytes(p); }, Qt::QueuedConnection);
            };
            callbacks.cancel = &m_cancel;
            callbacks.ask = [this](const PartedMessage &message) {
                // The worker waits here until the person has answered on the GUI thread.
                QString answer;
                QMetaObject::invokeMethod(
                    this, [this, &message, &answer] { answer = askUser(message); },
                    Qt::BlockingQueuedConnection);
                return answer;
            };
            const ApplyResult result = applyOperations(target, operations, options, callbacks);
            return std::function<void()>([this, result] { onWorkerDone(result); });
        },
        QStringLiteral("partwise-apply"));
}

int ApplyDialog::exec()
{
    start();
    return QDialog::exec();
}

QString ApplyDialog::askUser(const PartedMessage &message)
{
    QString answer;
    if (m_questionHandler) {
        answer = m_questionHandler(message);
    } else {
        // Partwise's words first; the library's own below them, as it asked.
        QMessageBox box(iconFor(message.severity), tr("A Question While Writing"),
                        tr("libparted, the library that writes partition tables, stopped to ask "
                           "about %1. Its own words are below; Cancel (or No) changes nothing "
                           "more at this step.")
                            .arg(m_target),
                        QMessageBox::NoButton, this);
        box.setInformativeText(message.text);
        box.setObjectName(QStringLiteral("partedQuestion"));
        QList<QPair<QAbstractButton *, QString>> buttons;
        for (const QString &choice : message.choices)
            buttons.append({box.addButton(choice, roleFor(choice)), choice});
        if (buttons.isEmpty())
            box.addButton(QMessageBox::Ok);
        box.exec();
        for (const auto &[button, choice] : buttons)
            if (box.clickedButton() == button)
                answer = choice;
        if (answer.isEmpty() && message.choices.contains(QStringLiteral("Cancel")))
            answer = QStringLiteral("Cancel");
    }
    appendLog(
        tr("libparted: %1 → %2").arg(message.text, answer.isEmpty() ? tr("(cancelled)") : answer));
    return answer;
}

void ApplyDialog::appendJobLog(const QString &line)
{
    m_sawLog = true;
    appendLog(line);
}

void ApplyDialog::appendLog(const QString &line)
{
    m_log->appendPlainText(line);
}

void ApplyDialog::onProgress(int done, int total)
{
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
    if (done < total)
        m_status->setText(tr("Applying operation %1 of %2…").arg(done + 1).arg(total));
}

void ApplyDialog::onBytes(const RealignProgress &p)
{
    if (!m_running)
        return;
    const QString step = p.stepKind == RealignProgress::Step::Verifying ? tr("verifying")
                         : p.step == QLatin1String("copying")           ? tr("copying")
                                                                        : tr("moving");
    QString text = tr("Partition %1, %2: %3 of %4")
                       .arg(p.partition)
                       .arg(step, humanSize(qint64(p.bytesDone)), humanSize(qint64(p.bytesTotal)));
    if (p.bytesPerSecond > 0)
        text += tr(" · %1/s").arg(humanSize(qint64(p.bytesPerSecond)));
    if (p.bytesDone < p.bytesTotal && p.secondsLeft > 0)
        text += tr(" · %1 left").arg(durationText(p.secondsLeft));
    m_bytes->setText(text);
    m_bytes->setVisible(true);
}

void ApplyDialog::cancelClicked()
{
    if (!m_running || m_cancelAsked)
        return;
    m_cancelAsked = true;
    m_cancelButton->setEnabled(false);
    m_status->setText(tr("Cancelling: Partwise stops at the next safe point…"));
    appendLog(tr("Cancel asked for: stopping at the next safe point."));
    requestCancel();
}

// What was done and what was not, by operation, after a stop.
QString ApplyDialog::outcomeText() const
{
    QStringList done, partway, notDone;
    for (int i = 0; i < m_operations.size(); ++i) {
        // Stopped inside it with a journal: begun, not finished, and not undone either.
        QStringList &list = i < m_result.completed                          ? done
                            : i == m_result.completed && m_result.resumable ? partway
                                                                            : notDone;
        list << QStringLiteral("%1. %2").arg(i + 1).arg(m_operations.at(i).description());
    }
    QString text = m_cancelAsked ? tr("Cancelled after %1 of %2 operations.")
                                 : tr("Stopped after %1 of %2 operations.");
    text = text.arg(m_result.completed).arg(m_operations.size());
    if (!done.isEmpty())
        text += QLatin1Char(' ') + tr("Done: %1.").arg(done.join(QStringLiteral("; ")));
    if (!partway.isEmpty())
        text += QLatin1Char(' ') + tr("Stopped partway: %1.").arg(partway.join(QString()));
    if (!notDone.isEmpty())
        text += QLatin1Char(' ') + tr("Not done: %1.").arg(notDone.join(QStringLiteral("; ")));
    if (!m_result.error.isEmpty())
        text += QLatin1Char(' ') + m_result.error;
    if (m_result.resumable && !m_result.journalPath.isEmpty() &&
        !m_result.error.contains(QStringLiteral("partwise-cli resume")))
        text += QLatin1Char(' ') + tr("Its journal (%1) lets Resume finish the rest, or "
                                      "partwise-cli resume %2.")
                                       .arg(m_result.journalPath, m_target);
    return text;
}

void ApplyDialog::onWorkerDone(const ApplyResult &result)
{
    m_result = result;
    m_running = false;
    m_finished = true;
    if (!m_sawLog)
        for (const QString &line : std::as_const(m_result.log))
            appendLog(line);
    if (m_result.ok) {
        m_progress->setValue(m_progress->maximum());
        QString done = tr("Done: %1 applied to %2.")
                           .arg(operationCountText(int(m_operations.size())), m_target);
        if (!m_result.backupFolder.isEmpty())
            done += QLatin1Char(' ') +
                    tr("The previous partition table is saved in %1.").arg(m_result.backupFolder);
        m_status->setText(done);
        m_status->setStyleSheet(QString());
        appendLog(tr("Done."));
    } else {
        m_progress->setValue(m_result.completed);
        m_status->setText(outcomeText());
        m_status->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
        appendLog(tr("Failed: %1").arg(m_result.error));
    }
    if (!m_result.backupFolder.isEmpty() && !logText().contains(m_result.backupFolder))
        appendLog(tr("Partition table backup: %1").arg(m_result.backupFolder));
    m_cancelButton->setVisible(false);
    m_buttons->button(QDialogButtonBox::Close)->setVisible(true);
    m_buttons->button(QDialogButtonBox::Close)->setDefault(true);
    m_bytes->setVisible(false); // its speed and time left were of a job no longer running
    // The longer status must push the log, never have the buttons drawn over it: the
    // dialog grows to what its layout needs, as far as the screen allows.
    layout()->activate();
    resize(sizeWithinScreen(this, size().expandedTo(sizeHint())));
    emit applyFinished(m_result.ok);
}

QString ApplyDialog::logText() const
{
    return m_log->toPlainText();
}

bool ApplyDialog::saveLog(const QString &path, QString *error) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text) ||
        file.write(logText().toUtf8() + '\n') < 0) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void ApplyDialog::chooseLogFile()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Apply Log"), QDir::home().filePath(QStringLiteral("partwise-apply.log")),
        tr("Log files (*.log *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveLog(path, &error))
        QMessageBox::warning(this, tr("Save Apply Log"),
                             tr("Cannot write %1: %2").arg(path, error));
}

void ApplyDialog::closeEvent(QCloseEvent *event)
{
    if (m_running) {
        event->ignore(); // the disk is being written: there is no safe way to stop halfway
        return;
    }
    QDialog::closeEvent(event);
}

void ApplyDialog::reject()
{
    if (m_running)
        return;
    QDialog::reject();
}
