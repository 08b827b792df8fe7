// Plugging and unplugging the test guest's spare drives through QEMU's monitor: guest-run's
// qmp-relay takes "plug NAME" / "unplug NAME" requests from the results share
// ($PW_GUEST_QMP) and answers with QEMU's reply. The spares are described in $PW_GUEST_SPARES,
// drives.conf's format: what QEMU is told, the expected values of the hot-plug case.
#pragma once

#include "guestdrives.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace pwtest {

// The spares of this guest (node empty: none is plugged at boot); empty with `error` when the
// guest has none.
QList<GuestDrive> guestSpares(QString *error);

// Asks the host to plug or unplug `spare` (verb "plug" or "unplug") and returns at once: the
// request's name for plugAnswer(), empty with `error` when it could not be written.
QString requestPlug(const QString &verb, const QString &spare, QString *error);
// QEMU's answer to request `name` once the host gave it (then forgotten), or empty.
QByteArray plugAnswer(const QString &name);
// Whether an answer is QEMU's success ({"return": {}} as its last line).
bool plugSucceeded(const QByteArray &answer);

// The node of the disk with serial `serial` as lsblk reads it now, or empty.
QString nodeOfSerial(const QString &serial);

} // namespace pwtest
