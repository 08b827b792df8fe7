#pragma once

// Unmount, mount and swap of one partition, for the window: through the helper that serves the
// disk (`partwise-cli serve`: the root helper of a window run as a user, or another machine's),
// or, in a window run as root, by the same code in this process (a ServeSession serving root),
// so both take the same checks and give the same answers. Answers come back on the GUI thread.
// This computer's drives go to udisks2 first where it runs (udisksroute.h): its polkit rules let
// the active session mount, unlock and power off removable drives without an administrator's
// password, as GNOME Disks does; where udisks2 is absent or refuses, the helper does it.

#include "helper/helperconnection.h"

#include <QJsonObject>
#include <QObject>

#include <functional>
#include <memory>

struct DiskEntry;
class UdisksClient;
namespace partwise {
class ServeSession;
}

class PartitionMounter : public QObject
{
    Q_OBJECT

public:
    // `connectionFor` gives the helper serving a machine's disks (null when none runs).
    using ConnectionFor = std::function<HelperConnection *(const QString &machine)>;
    explicit PartitionMounter(ConnectionFor connectionFor, QObject *parent = nullptr);
    ~PartitionMounter() override;

    // Why `entry`'s partitions cannot be mounted or unmounted from here; empty when they can.
    QString unavailableReason(const DiskEntry &entry) const;

    // Sends `method` (unmount, mount, swapoff, swapon) for partition `number` of `entry`'s
    // disk, with `extra` parameters ("folder", "media", "back"); `done` gets the answer.
    void call(const DiskEntry &entry, const QString &method, int number, const QJsonObject &extra,
              const HelperConnection::Reply &done);

    // Whether `method` with `extra` on `entry`'s disk goes to udisks2 first (it runs, and the
    // disk is this computer's).
    bool goesThroughUdisks(const DiskEntry &entry, const QString &method,
                           const QJsonObject &extra = {}) const;
    // The status tip of an action that does: udisks2 first, the helper where it refuses.
    static QString udisksWay();
    // The status line's words for the way an answer came: through udisks2, or `helperWay`.
    static QString wayTaken(const HelperReply &reply, const QString &helperWay);

    // The processes an unmount's refusal names ("sleep (pid 12)"), for a message.
    static QStringList holdersOf(const HelperReply &reply);

private:
    // The helper's way (or root's own window), when udisks2 did not do it.
    void callHelper(const DiskEntry &entry, const QString &method, const QJsonObject &params,
                    const HelperConnection::Reply &done);

    ConnectionFor m_connectionFor;
    UdisksClient *m_udisks;
    std::unique_ptr<partwise::ServeSession> m_local; // a window run as root
    QByteArray m_localAnswer;
};
