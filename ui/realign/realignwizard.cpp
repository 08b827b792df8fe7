#include "realign/realignwizard.h"

#include "realign/realignpages.h"
#include "realign/realignworker.h"
#include "screenfit.h"

#include <QCloseEvent>

using namespace partwise;

RealignWizard::RealignWizard(const RealignSetup &setup, QWidget *parent)
    : RealignWizard(setup, new RealignWorker, parent)
{
}

RealignWizard::RealignWizard(const RealignSetup &setup, RealignBackend *backend, QWidget *parent)
    : QWizard(parent), m_backend(backend)
{
    m_backend->setParent(this);
    setObjectName(QStringLiteral("realignWizard"));
    m_state = new RealignWizardState(setup, this);
    setWindowTitle(isResume() ? tr("Finish the Realignment — %1").arg(setup.shownName())
                              : tr("Realign Partitions — %1").arg(setup.shownName()));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnStartPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    m_intro = new RealignIntroPage(m_state);
    m_choose = new RealignChoosePage(m_state);
    m_plan = new RealignPlanPage(m_state, m_backend);
    m_run = new RealignRunPage(m_state, m_backend);
    m_result = new RealignResultPage(m_state, m_backend);
    setPage(IntroPageId, m_intro);
    setPage(ChoosePageId, m_choose);
    setPage(PlanPageId, m_plan);
    setPage(RunPageId, m_run);
    setPage(ResultPageId, m_result);
    // What does not fit a small screen scrolls inside its page (the plan and result pages do
    // so themselves), so the wizard's buttons stay on the screen.
    for (QWidget *page : std::initializer_list<QWidget *>{m_intro, m_choose, m_run})
        scrollPageContents(page);
    setStartId(isResume() ? RunPageId : IntroPageId);
    connect(m_state, &RealignWizardState::outcomeChanged, this, [this] {
        const RealignResult &result = m_state->result();
        emit realignmentFinished(m_state->setup().target, result.ok, result.resumable);
    });
    connect(m_result, &RealignResultPage::resumeRequested, this, &RealignWizard::resumeNow);
    connect(m_run, &RealignRunPage::runFinished, this, &RealignWizard::planAgainIfRefused);
    resize(sizeWithinScreen(this, QSize(900, 700)));
}

RealignWizard::~RealignWizard() = default;

bool RealignWizard::isRunning() const
{
    return m_run->isRunning();
}

void RealignWizard::resumeNow()
{
    if (isRunning() || currentId() != ResultPageId)
        return;
    back();
    m_run->startResume();
}

void RealignWizard::planAgainIfRefused(bool ok)
{
    // A shrink its tool refused before anything was written: the person approves the next plan
    // on the plan page rather than the wizard running one they have not seen.
    const RealignResult &result = m_state->result();
    if (ok || result.shrinkRefused <= 0 || currentId() != RunPageId)
        return;
    const std::optional<NextWay> next =
        nextWayWithoutShrink(m_state->prepared().plan, result.shrinkRefused);
    if (!next)
        return;
    back();
    m_plan->planAfterRefusal(result.error, next->number, next->way);
}

void RealignWizard::reject()
{
    if (isRunning()) {
        m_run->requestCancel(); // the work stops at a safe point; the page then says so
        return;
    }
    QWizard::reject();
}

void RealignWizard::closeEvent(QCloseEvent *event)
{
    if (isRunning()) {
        m_run->requestCancel();
        event->ignore();
        return;
    }
    QWizard::closeEvent(event);
}
