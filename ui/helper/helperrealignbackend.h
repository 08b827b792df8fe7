#pragma once

// The realignment wizard's work done by a helper (`partwise-cli serve`): as administrator for
// this computer's disks, or on another machine over ssh. The helper plans (realign-plan, whose
// answer carries the whole plan as the wizard shows it), moves (realign) and finishes
// (resume) where the disk and its journal are; progress and log lines come as notifications.
//
// The helper never runs a plan the window sends: a root helper must not write sectors a client
// describes. It plans again when asked to run, and refuses when that plan's moves differ from
// the ones the person saw ("expect"): the disk changed in between. (A filesystem whose tool
// then refuses to shrink is given room the next way, as the log says, as in this process.)
//
// What comes back is read with the checked readers of core/report, as a file would be. A helper
// that goes away mid-move leaves its journal there: the wizard says so, and the disk offers to
// finish once it is read through a helper again.

#include "realign/realignbackend.h"

#include <QJsonObject>
#include <QPointer>

class HelperConnection;
struct HelperReply;

// A job's "progress" notification (bytes of a move or copy), every number bounded first: it
// may come from another machine.
partwise::RealignProgress realignProgressFrom(const QJsonObject &params);

class HelperRealignBackend : public RealignBackend
{
    Q_OBJECT

public:
    // `devicePath` is the disk's path where the helper runs.
    HelperRealignBackend(HelperConnection *helper, const QString &devicePath,
                         QObject *parent = nullptr);
    ~HelperRealignBackend() override; // a move under way is asked to stop (resumable)

    bool isBusy() const override { return m_busy; }
    void prepare(const QString &target, const partwise::RealignOptions &options,
                 const partwise::RealignRequest &request) override;
    void run(const QString &target, const partwise::PreparedRealign &prepared,
             const partwise::RealignOptions &options) override;
    void resume(const QString &target, const QString &journalPath,
                qint64 forcedSectorSize) override;
    void cancel() override;
    bool cancelRequested() const override { return m_cancelled; }
    bool loadJournal(const QString &path, partwise::WriteJournal *journal) const override;

private:
    QJsonObject planParams(const partwise::RealignOptions &options,
                           const partwise::RealignRequest &request) const;
    bool startCall(const QString &method, const QJsonObject &params,
                   const std::function<void(const HelperReply &)> &done);
    void onNotification(const QString &method, const QJsonObject &params);
    void onPlan(const HelperReply &reply);
    void onWorkEnded(const HelperReply &reply, const partwise::DiskLayout &before);
    partwise::RealignResult resultOf(const HelperReply &reply) const;
    void readDisk(const std::function<void(const partwise::DiskLayout &, bool)> &done);
    QString lostSentence(const QString &why) const;
    void onConnectionGone();

    QPointer<HelperConnection> m_helper;
    QString m_devicePath;
    qint64 m_sectorSize = 0; // forced by the person, or 0
    int m_job = 0;           // the realign or resume request whose notifications are ours
    int m_planCall = 0;      // the realign-plan request (its map progress)
    bool m_busy = false;
    bool m_resuming = false; // reading the disk before a resume is sent
    bool m_cancelled = false;
    partwise::DiskLayout m_before; // of the run or resume under way
};
