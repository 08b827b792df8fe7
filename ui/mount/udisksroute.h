#pragma once

// Which of the window's requests to the helper udisks2 can take instead (udisksclient.h): this
// computer's disks only; Mount under the media folder (a folder the user names, and mounting
// back what a job unmounted, stay the helper's), Unmount, Open Encryption with a passphrase,
// Close Encryption and Power Off. udisks2's answer is turned into the reply the helper would
// have given, with "via": "udisks2", so the window shows both the same way.

#include "helper/helperconnection.h"
#include "mount/udisksclient.h"

#include <QJsonObject>
#include <QString>

struct DiskEntry;

struct UdisksRequest
{
    enum class Kind { None, Mount, Unmount, Unlock, Lock, PowerOff };
    Kind kind = Kind::None;
    QString node;       // the partition's node, or the drive's for PowerOff
    QString passphrase; // Unlock only
};

// The request udisks2 would take for the helper's `method` on partition `number` (0: the drive)
// of `entry`'s disk with `extra` parameters; Kind::None when only the helper can do it.
UdisksRequest udisksRequestFor(const DiskEntry &entry, const QString &method, int number,
                               const QJsonObject &extra);

// Whether udisks2 could take `method` with `extra` on `entry`'s disk (when it runs).
bool udisksCanTake(const DiskEntry &entry, const QString &method, const QJsonObject &extra);

// Sends `request` to `client`.
void sendToUdisks(UdisksClient *client, const UdisksRequest &request,
                  const UdisksClient::Done &done);

// udisks2's answer `answer` to `request` as the helper's reply.
HelperReply udisksReply(const UdisksRequest &request, const UdisksClient::Answer &answer);
