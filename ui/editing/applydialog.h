#pragma once

#include "backgroundjob.h"
#include "ops/applyrunner.h"

#include <QDialog>

#include <atomic>
#include <functional>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

// Applies a queue to one disk: applyOperations() runs as a BackgroundJob while this dialog
// shows its progress and its detailed log (which can be saved). Where the queue is written
// by a helper instead (another machine's disk), a subclass replaces runJob() and reports
// through the same protected calls. Apply stops at the first
// failure; the error it reports says what state the disk is in and where the backup is.
// A long operation shows its bytes, speed and time left; Cancel stops the job at its next safe
// point (before the next operation, or where a move's journal resumes it), and the dialog then
// says which operations were done and which were not.
// libparted's questions come back to the GUI thread (BlockingQueuedConnection) and are asked
// in a message box with libparted's own choices.
class ApplyDialog : public QDialog
{
    Q_OBJECT

public:
    ApplyDialog(const QString &target, const QList<partwise::Operation> &operations,
                const partwise::ApplyOptions &options, QWidget *parent = nullptr);
    ~ApplyDialog() override; // waits for the job: Apply cannot stop halfway

    // Starts the worker (once). exec() starts it too.
    void start();
    bool isRunning() const { return m_running; }
    bool isFinished() const { return m_finished; }
    partwise::ApplyResult result() const { return m_result; }
    QString logText() const;
    bool saveLog(const QString &path, QString *error) const;

    // Answers libparted's questions instead of the message box (tests, scripted use).
    // Called on the GUI thread.
    using QuestionHandler = std::function<QString(const partwise::PartedMessage &)>;
    void setQuestionHandler(QuestionHandler handler) { m_questionHandler = std::move(handler); }

    int exec() override;

signals:
    void applyFinished(bool ok);

protected:
    void closeEvent(QCloseEvent *event) override;
    void reject() override;

    // Starts writing; reports come back, on the GUI thread, through the calls below.
    virtual void runJob();
    const QString &target() const { return m_target; }
    const QList<partwise::Operation> &operations() const { return m_operations; }
    const partwise::ApplyOptions &options() const { return m_options; }
    // Asks the person (or the question handler); returns the choice, empty when cancelled.
    QString askUser(const partwise::PartedMessage &message);
    // A line of the job's own log; once one came, the result's log is not repeated.
    void appendJobLog(const QString &line);
    void onProgress(int done, int total);
    // A long operation's bytes (a Resize's move, a Paste's copy).
    void onBytes(const partwise::RealignProgress &progress);
    // Cancel asked for: the job stops at its next safe point. A helper's job is told there.
    virtual void requestCancel() { m_cancel = true; }
    void onWorkerDone(const partwise::ApplyResult &result);

private:
    void appendLog(const QString &line);
    void chooseLogFile();
    void cancelClicked();
    QString outcomeText() const;

    QString m_target;
    QList<partwise::Operation> m_operations;
    partwise::ApplyOptions m_options;
    QuestionHandler m_questionHandler;
    bool m_running = false;
    bool m_finished = false;
    bool m_sawLog = false;
    partwise::ApplyResult m_result;

    bool m_cancelAsked = false;
    std::atomic<bool> m_cancel{false};

    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_bytes = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QPushButton *m_saveLog = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    BackgroundJob m_job; // last: waited for before anything it reports to is gone
};
