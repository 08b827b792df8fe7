#pragma once

// Apply for another machine's disk: the same dialog, log and questions as Apply here, but the
// queue is sent as a plan to the helper on that machine (`apply`), which writes it there with
// the same checks, backup and journal as `partwise-cli apply`. libparted's questions come as
// notifications and are asked here; the answer goes back with `answer`.
//
// Cancel reaches the helper, which stops at its next safe point. If the connection drops while
// it runs, the dialog says what is known: the helper stops at an operation boundary and its journal
// on the machine lets `partwise-cli resume` (or Resume in the window, after reconnecting) finish.

#include "editing/applydialog.h"

#include <QPointer>

class HelperConnection;

class HelperApplyDialog : public ApplyDialog
{
    Q_OBJECT

public:
    HelperApplyDialog(HelperConnection *helper, const QString &devicePath,
                      const QList<partwise::Operation> &operations,
                      const partwise::ApplyOptions &options, QWidget *parent = nullptr);

protected:
    void runJob() override;
    void requestCancel() override;

private:
    void onNotification(const QString &method, const QJsonObject &params);
    void onQuestion(const QJsonObject &params);
    void onEnded(const struct HelperReply &reply);

    QPointer<HelperConnection> m_helper;
    int m_jobId = 0;
};
