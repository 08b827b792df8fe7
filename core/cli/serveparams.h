#pragma once

// What a request to `partwise-cli serve` asks, read from its "params" without trusting them:
// each value must have its type and range, or the request is refused (InvalidParams) with a
// sentence naming the parameter. The realignment's parameters (realign-plan, realign) are read
// here too, with realign's "expect", the moves the person saw, and the check of the helper's own
// fresh plan against them.

#include "align/alignmentpolicy.h"
#include "ops/realignrunner.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace partwise {

// Optional parameters of the right type; `problem` holds the message for the first wrong one.
struct ServeParams
{
    const QJsonObject &object;
    QString problem;

    bool has(const char *key) const { return object.contains(QLatin1String(key)); }
    bool boolean(const char *key, bool fallback);
    // A whole number in [low, high]; JSON numbers are doubles, so anything else is refused.
    qint64 integer(const char *key, qint64 fallback, qint64 low, qint64 high);
    AlignmentPolicy policy(); // "grain", "trust_drive"
    qint64 sectorSize();      // "sector_size"
};

// The parameters of unmount, mount, swapoff and swapon: the partition's number, and for mount
// where: a folder (a plain absolute path, at most 4,096 bytes), under /run/media ("media":
// true), or back where this helper unmounted it ("back": true), exactly one of them.
struct MountRequest
{
    int partition = 0;
    QString folder;
    bool media = false;
    bool back = false;
};
// `forMount`: the "mount" method, which needs one of folder, media and back; the others take
// none of them.
QString readMountRequest(const QJsonObject &object, bool forMount, MountRequest *request);

// The parameters of unlock and lock: the partition's number, and for unlock the passphrase (a
// string of 1 to kMaxLuksPassphraseBytes bytes in UTF-8; lock takes none). No message names
// the passphrase's value.
struct UnlockRequest
{
    int partition = 0;
    QByteArray passphrase; // the caller wipes it (SecretBytes takes it)
};
QString readUnlockRequest(const QJsonObject &object, bool forUnlock, UnlockRequest *request);

// The parameters of vg-activate and vg-deactivate: the partition's number (1 to 256), the
// physical volume whose group is meant. The group's name is never a parameter: it is the one
// pvs reads from the partition.
QString readVolumeGroupRequest(const QJsonObject &object, int *partition);

// The parameters of power-off: none besides the disk's "path" (a drive is powered off whole).
QString readPowerOffRequest(const QJsonObject &object);

// The parameters realign-plan and realign share; a message when one is wrong.
QString readRealignParams(const QJsonObject &object, RealignOptions *options,
                          RealignRequest *asked);
// realign's "expect": the moves the person saw, [{"number", "new_start", "new_end"}], in the
// plan's order. Only compared with the plan the helper makes itself; never run.
QString readExpect(const QJsonObject &object, std::optional<QList<PartitionMove>> *expect);
// Whether the plan made now moves what the person saw: the same partitions, in the same order,
// to the same sectors.
bool movesAsExpected(const QList<PartitionMove> &expect, const QList<PartitionMove> &fresh);

} // namespace partwise
