#pragma once

// Drive → Measure Physical Sector for a disk a helper reads (this computer's, through pkexec,
// or another machine's): the helper runs the timing probe (`probe`), sends its progress as
// notifications and its verdict as `probe --json`'s object, which is read back with every
// field checked (report/probereport.h). The verdict is remembered on the helper's machine,
// where the drive is, and the disk is then read again through the helper.

#include "probe/proberunner.h"

#include <QPointer>

class HelperConnection;
struct HelperReply;

class HelperProbeRunner : public ProbeRunner
{
    Q_OBJECT

public:
    HelperProbeRunner(HelperConnection *helper, const QString &devicePath,
                      QObject *parent = nullptr);
    // A probe under way is cancelled: the helper stops it between two writes.
    ~HelperProbeRunner() override;

    bool isBusy() const override { return m_busy; }
    void run() override;
    void cancel() override;

private:
    void onNotification(const QString &method, const QJsonObject &params);
    void onReply(const HelperReply &reply);

    QPointer<HelperConnection> m_helper;
    QString m_path;
    bool m_busy = false;
    int m_request = 0;
};
