#pragma once

// The Copy Disk wizard's work done by a helper (`partwise-cli serve`): the user's own for image
// files, the administrator's for this computer's disks, or another machine's over ssh. The
// helper plans (copy-plan), copies (copy) and finishes (resume) where the disks are; progress
// and log lines come as notifications. It never runs a plan the window sends: it plans again and
// refuses when its plan places the partitions elsewhere than the person saw ("expect").
// What comes back is read with the checked reader of ops/copyplanjson.h.

#include "copy/copybackend.h"

#include <QJsonObject>
#include <QPointer>

#include <functional>

class HelperConnection;
struct HelperReply;

class HelperCopyBackend : public CopyBackend
{
    Q_OBJECT

public:
    explicit HelperCopyBackend(HelperConnection *helper, QObject *parent = nullptr);
    ~HelperCopyBackend() override; // a copy under way is asked to stop (resumable)

    bool isBusy() const override { return m_busy; }
    void createImage(const QString &path, qint64 bytes) override;
    void plan(const CopyRequest &request) override;
    void run(const CopyRequest &request, const partwise::CopyPlan &shown,
             bool acceptBootChange) override;
    void resume(const QString &target) override;
    void cancel() override;
    bool cancelRequested() const override { return m_cancelled; }

private:
    static QJsonObject params(const CopyRequest &request);
    bool startCall(const QString &method, const QJsonObject &params,
                   const std::function<void(const HelperReply &)> &done);
    void onNotification(const QString &method, const QJsonObject &params);
    void onWorkEnded(const HelperReply &reply);
    QString lostSentence(const QString &why) const;

    QPointer<HelperConnection> m_helper;
    QString m_target; // of the copy under way, for the lost-connection sentence
    int m_job = 0;    // the copy or resume request whose notifications are ours
    bool m_busy = false;
    bool m_cancelled = false;
};
