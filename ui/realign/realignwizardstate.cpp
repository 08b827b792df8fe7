#include "realign/realignwizardstate.h"

using namespace partwise;

RealignWizardState::RealignWizardState(const RealignSetup &setup, QObject *parent)
    : QObject(parent), m_setup(setup), m_grainBytes(setup.policy.grainBytes),
      m_verify(setup.options.verify)
{
}

void RealignWizardState::setChoice(const QList<int> &partitions, qint64 grainBytes, bool verify)
{
    if (partitions == m_partitions && grainBytes == m_grainBytes && verify == m_verify)
        return;
    m_partitions = partitions;
    m_grainBytes = grainBytes;
    m_verify = verify;
    emit choiceChanged();
}

void RealignWizardState::pickWay(int number, RealignWay way)
{
    m_ways.insert(number, way);
    emit waysChanged();
}

void RealignWizardState::clearWays()
{
    if (m_ways.isEmpty())
        return;
    m_ways.clear();
    emit waysChanged();
}

void RealignWizardState::planRequested()
{
    // The last plan stays readable (the page shows it greyed) but no longer counts.
    m_planReady = false;
    emit planChanged();
}

void RealignWizardState::setPlan(const PreparedRealign &prepared, const QStringList &busy)
{
    m_prepared = prepared;
    m_busy = busy;
    m_planReady = true;
    emit planChanged();
}

void RealignWizardState::setOutcome(const RealignResult &result, const DiskLayout &before,
                                    const DiskLayout &after, bool afterOk, bool cancelled)
{
    m_hasRun = true;
    m_result = result;
    m_before = before;
    m_after = after;
    m_afterOk = afterOk;
    m_cancelled = cancelled;
    emit outcomeChanged();
}

AlignmentPolicy RealignWizardState::chosenPolicy() const
{
    AlignmentPolicy policy = m_setup.policy;
    if (!isResume())
        policy.grainBytes = m_grainBytes;
    return policy;
}

RealignOptions RealignWizardState::runOptions() const
{
    RealignOptions options = m_setup.options;
    options.policy = chosenPolicy();
    options.forcedSectorSize = m_setup.forcedSectorSize;
    options.verify = m_verify;
    return options;
}

RealignRequest RealignWizardState::request() const
{
    RealignRequest request;
    request.partitions = m_partitions;
    request.includeSectorAligned = true; // the chosen partitions are exactly what is moved
    request.ways = m_ways;               // empty until a way is picked: the cheapest is taken
    return request;
}
