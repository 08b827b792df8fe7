#pragma once

#include "align/alignmentpolicy.h"
#include "ops/realignrunner.h"
#include "table/disklayout.h"

#include <QWizard>

class RealignChoosePage;
class RealignIntroPage;
class RealignPlanPage;
class RealignResultPage;
class RealignRunPage;
class RealignWorker;

// What the wizard works on: one disk as read, the policy from the preferences, and the options
// that say where the journal and the table backup go.
struct RealignSetup
{
    QString target;
    qint64 forcedSectorSize = 0;
    DiskLayout layout;      // the disk as read (not a preview of pending edits)
    AlignmentPolicy policy; // from the preferences; the wizard chooses the grain
    QList<int> preselect;   // partitions checked at first besides the misaligned ones
    RealignOptions options; // journalPath, backupRoot, verify; policy is filled in
    QString resumeJournal;  // set: finish the interrupted realignment it records
};

// The guided realignment: explain the problem on the map, choose partitions and the target,
// show the plan and what it needs, run it on a worker thread with per-partition progress and a
// cooperative Cancel, and end with before/after maps and the checks. With a resume journal it
// starts at the run page and finishes the interrupted work instead.
class RealignWizard : public QWizard
{
    Q_OBJECT

public:
    enum PageId { IntroPageId, ChoosePageId, PlanPageId, RunPageId, ResultPageId };

    explicit RealignWizard(const RealignSetup &setup, QWidget *parent = nullptr);
    ~RealignWizard() override;

    const RealignSetup &setup() const { return m_setup; }
    bool isResume() const { return !m_setup.resumeJournal.isEmpty(); }
    // The options the run uses: the setup's, with the chosen grain and verification.
    RealignOptions runOptions() const;
    RealignRequest request() const;
    AlignmentPolicy chosenPolicy() const;

    RealignWorker *worker() const { return m_worker; }
    RealignIntroPage *introPage() const { return m_intro; }
    RealignChoosePage *choosePage() const { return m_choose; }
    RealignPlanPage *planPage() const { return m_plan; }
    RealignRunPage *runPage() const { return m_run; }
    RealignResultPage *resultPage() const { return m_result; }

    bool isRunning() const;
    bool hasRun() const { return m_hasRun; }
    RealignResult result() const { return m_lastResult; }

    // From the result page: back to the run page, finishing the stopped work.
    void resumeNow();

signals:
    // A run or resume ended (the disk was written to): the window reads it again.
    void realignmentFinished(const QString &target, bool ok, bool resumable);

public slots:
    // While the work runs, Cancel (and Esc) ask it to stop at a safe point instead of closing.
    void reject() override;

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    friend class RealignRunPage;
    void onFinished(const RealignResult &result);

    RealignSetup m_setup;
    RealignWorker *m_worker = nullptr;
    RealignIntroPage *m_intro = nullptr;
    RealignChoosePage *m_choose = nullptr;
    RealignPlanPage *m_plan = nullptr;
    RealignRunPage *m_run = nullptr;
    RealignResultPage *m_result = nullptr;
    bool m_hasRun = false;
    RealignResult m_lastResult;
};
