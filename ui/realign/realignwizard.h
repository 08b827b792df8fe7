#pragma once

#include "realign/realignwizardstate.h"

#include <QWizard>

class RealignChoosePage;
class RealignIntroPage;
class RealignPlanPage;
class RealignResultPage;
class RealignRunPage;
class RealignBackend;

// The guided realignment: explain the problem on the map, choose partitions and the target,
// show the plan and what it needs, run it on a worker thread with per-partition progress and a
// cooperative Cancel, and end with before/after maps and the checks. With a resume journal it
// starts at the run page and finishes the interrupted work instead.
class RealignWizard : public QWizard
{
    Q_OBJECT

public:
    enum PageId { IntroPageId, ChoosePageId, PlanPageId, RunPageId, ResultPageId };

    // The work is done by `backend` (the wizard takes it), or by a RealignWorker in this process.
    RealignWizard(const RealignSetup &setup, RealignBackend *backend, QWidget *parent = nullptr);
    explicit RealignWizard(const RealignSetup &setup, QWidget *parent = nullptr);
    ~RealignWizard() override;

    const RealignSetup &setup() const { return m_state->setup(); }
    bool isResume() const { return m_state->isResume(); }
    // What the pages chose and what came of it; the pages share it.
    RealignWizardState *state() const { return m_state; }

    RealignBackend *backend() const { return m_backend; }
    RealignIntroPage *introPage() const { return m_intro; }
    RealignChoosePage *choosePage() const { return m_choose; }
    RealignPlanPage *planPage() const { return m_plan; }
    RealignRunPage *runPage() const { return m_run; }
    RealignResultPage *resultPage() const { return m_result; }

    bool isRunning() const;
    partwise::RealignResult result() const { return m_state->result(); }

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
    void planAgainIfRefused(bool ok);

    RealignWizardState *m_state = nullptr;
    RealignBackend *m_backend = nullptr;
    RealignIntroPage *m_intro = nullptr;
    RealignChoosePage *m_choose = nullptr;
    RealignPlanPage *m_plan = nullptr;
    RealignRunPage *m_run = nullptr;
    RealignResultPage *m_result = nullptr;
};
