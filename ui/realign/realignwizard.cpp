#include "realign/realignwizard.h"

#include "realign/realignpages.h"
#include "realign/realignworker.h"

#include <QCloseEvent>

RealignWizard::RealignWizard(const RealignSetup &setup, QWidget *parent)
    : QWizard(parent), m_setup(setup)
{
    setObjectName(QStringLiteral("realignWizard"));
    setWindowTitle(isResume() ? tr("Finish the Realignment — %1").arg(setup.target)
                              : tr("Realign Partitions — %1").arg(setup.target));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnStartPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    m_worker = new RealignWorker(this);
    m_intro = new RealignIntroPage(this);
    m_choose = new RealignChoosePage(this);
    m_plan = new RealignPlanPage(this);
    m_run = new RealignRunPage(this);
    m_result = new RealignResultPage(this);
    setPage(IntroPageId, m_intro);
    setPage(ChoosePageId, m_choose);
    setPage(PlanPageId, m_plan);
    setPage(RunPageId, m_run);
    setPage(ResultPageId, m_result);
    setStartId(isResume() ? RunPageId : IntroPageId);
    resize(900, 700);
}

RealignWizard::~RealignWizard() = default;

AlignmentPolicy RealignWizard::chosenPolicy() const
{
    AlignmentPolicy policy = m_setup.policy;
    if (!isResume())
        policy.grainBytes = m_choose->grainBytes();
    return policy;
}

RealignOptions RealignWizard::runOptions() const
{
    RealignOptions options = m_setup.options;
    options.policy = chosenPolicy();
    options.forcedSectorSize = m_setup.forcedSectorSize;
    options.verify = m_choose->verify();
    return options;
}

RealignRequest RealignWizard::request() const
{
    RealignRequest request;
    request.partitions = m_choose->checkedPartitions();
    request.includeSectorAligned = true; // the chosen partitions are exactly what is moved
    request.ways = m_plan->pickedWays(); // empty until a way is picked: the cheapest is taken
    return request;
}

bool RealignWizard::isRunning() const
{
    return m_run->isRunning();
}

void RealignWizard::onFinished(const RealignResult &result)
{
    m_hasRun = true;
    m_lastResult = result;
    emit realignmentFinished(m_setup.target, result.ok, result.resumable);
}

void RealignWizard::resumeNow()
{
    if (isRunning() || currentId() != ResultPageId)
        return;
    back();
    m_run->startResume();
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
