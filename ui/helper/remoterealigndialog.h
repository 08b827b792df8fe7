#pragma once

// Realigning a disk of another machine, through the helper there: the partitions to move (the
// misaligned ones checked), the plan the helper makes (realign-plan: its text, the moves and
// the warnings), then the run (realign) with its progress and log as notifications, and
// Cancel, which stops the move at a chunk boundary its journal records. A realignment that
// stopped part-way, whether cancelled, failed or cut off with the connection, is finished with
// resume; the dialog offers it whenever the disk's journal is there (read-disk says so).
//
// The moving, journaling and verifying all happen on the other machine, by the same core as
// `partwise-cli realign` there: this dialog only asks and shows.

#include "align/alignmentpolicy.h"
#include "helperconnection.h"
#include "table/disklayout.h"

#include <QDialog>
#include <QPointer>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

struct RemoteDisk
{
    QString devicePath;          // on the other machine
    partwise::DiskLayout layout; // as its helper read it
    QString interruptedJournal;
};

class RemoteRealignDialog : public QDialog
{
    Q_OBJECT

public:
    RemoteRealignDialog(HelperConnection *helper, const RemoteDisk &disk,
                        const partwise::AlignmentPolicy &policy, QWidget *parent = nullptr);

    QPushButton *planButton() const { return m_planButton; }
    QPushButton *runButton() const { return m_runButton; }
    QPushButton *resumeButton() const { return m_resumeButton; }
    QPushButton *cancelButton() const { return m_cancelButton; }
    QComboBox *grainChoice() const { return m_grain; }
    QString planText() const;
    QString outcomeText() const;

signals:
    // A plan arrived, or a run or resume ended (however): tests and the window follow these.
    void planned(bool ok);
    // The disk changed (or may have): the window reads it again.
    void finished(bool ok);

private:
    void fillPartitions(const partwise::DiskLayout &layout);
    QJsonObject requestParams() const;
    void plan();
    void run();
    void resume();
    void cancel();
    void startJob(const QString &method, const QJsonObject &params);
    void onNotification(const QString &method, const QJsonObject &params);
    void onJobEnded(const HelperReply &reply);
    void setRunning(bool running);

    QPointer<HelperConnection> m_helper;
    RemoteDisk m_disk;
    partwise::AlignmentPolicy m_policy;
    int m_jobId = 0;
    int m_moveCount = 0;

    QListWidget *m_partitions = nullptr;
    QCheckBox *m_verify = nullptr;
    QComboBox *m_prefer = nullptr;
    QComboBox *m_grain = nullptr;
    QPlainTextEdit *m_plan = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_step = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QLabel *m_outcome = nullptr;
    QPushButton *m_planButton = nullptr;
    QPushButton *m_runButton = nullptr;
    QPushButton *m_resumeButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
};
