#pragma once

#include "align/alignmentpolicy.h"
#include "ops/realignrunner.h"
#include "table/disklayout.h"

#include <QMap>
#include <QObject>

// What the wizard works on: one disk as read, the policy from the preferences, and the options
// that say where the journal and the table backup go.
struct RealignSetup
{
    QString target;
    qint64 forcedSectorSize = 0;
    partwise::DiskLayout layout;      // the disk as read (not a preview of pending edits)
    partwise::AlignmentPolicy policy; // from the preferences; the wizard chooses the grain
    QList<int> preselect;             // partitions checked at first besides the misaligned ones
    partwise::RealignOptions options; // journalPath, backupRoot, verify; policy is filled in
    QString resumeJournal;            // set: finish the interrupted realignment it records
    // A disk a helper moves: how the window names it ("/dev/loop6 on vm") and its path there.
    // Empty for a disk this process moves itself: both are `target`.
    QString name;
    QString devicePath;

    QString shownName() const { return name.isEmpty() ? target : name; }
    QString pathThere() const { return devicePath.isEmpty() ? target : devicePath; }
};

// Everything the realignment wizard's pages decide and learn, in one place they all see: the
// choose page writes the partitions, the grain and verification; the plan page the ways picked
// and the plan; the run page the outcome. A page reads what earlier pages decided from here,
// never from the other pages, and the wizard follows the outcome through outcomeChanged().
class RealignWizardState : public QObject
{
    Q_OBJECT

public:
    explicit RealignWizardState(const RealignSetup &setup, QObject *parent = nullptr);

    const RealignSetup &setup() const { return m_setup; }
    bool isResume() const { return !m_setup.resumeJournal.isEmpty(); }

    // Chosen on the choose page.
    QList<int> partitions() const { return m_partitions; }
    qint64 grainBytes() const { return m_grainBytes; }
    bool verify() const { return m_verify; }
    void setChoice(const QList<int> &partitions, qint64 grainBytes, bool verify);

    // Picked on the plan page since it was entered from the choose page.
    QMap<int, partwise::RealignWay> ways() const { return m_ways; }
    void pickWay(int number, partwise::RealignWay way);
    void clearWays();

    // The plan for the choice and the ways; stale (not ready) while a new one is made.
    bool isPlanReady() const { return m_planReady; }
    const partwise::PreparedRealign &prepared() const { return m_prepared; }
    // Why the plan cannot run now: partitions in use, an interrupted run of this disk.
    QStringList busy() const { return m_busy; }
    void planRequested();
    void setPlan(const partwise::PreparedRealign &prepared, const QStringList &busy);

    // What a run or a resume did; `before` and `after` are the disk as read around it.
    bool hasRun() const { return m_hasRun; }
    const partwise::RealignResult &result() const { return m_result; }
    const partwise::DiskLayout &before() const { return m_before; }
    const partwise::DiskLayout &after() const { return m_after; }
    bool afterRead() const { return m_afterOk; }
    bool wasCancelled() const { return m_cancelled; }
    void setOutcome(const partwise::RealignResult &result, const partwise::DiskLayout &before,
                    const partwise::DiskLayout &after, bool afterOk, bool cancelled);

    // What the choice adds up to for core: the policy with the chosen grain, the options of a
    // run, and the request the planner is given.
    partwise::AlignmentPolicy chosenPolicy() const;
    partwise::RealignOptions runOptions() const;
    partwise::RealignRequest request() const;

signals:
    void choiceChanged();
    void waysChanged();
    void planChanged();
    void outcomeChanged();

private:
    RealignSetup m_setup;
    QList<int> m_partitions;
    qint64 m_grainBytes = 0;
    bool m_verify = false;
    QMap<int, partwise::RealignWay> m_ways;
    bool m_planReady = false;
    partwise::PreparedRealign m_prepared;
    QStringList m_busy;
    bool m_hasRun = false;
    partwise::RealignResult m_result;
    partwise::DiskLayout m_before, m_after;
    bool m_afterOk = false;
    bool m_cancelled = false;
};
