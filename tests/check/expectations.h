// Expected check results computed in the test from independent tools' numbers
// (sfdisk geometry, blkid, parted align-check) and the rules of ARCHITECTURE.md.
#pragma once

#include "diskimagebuilder.h"
#include "sfdisktable.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace pwtest {

struct Policy
{
    int logicalSectorSize = 512;
    int physicalReported = 512;
    bool trustDrive = false;
    qint64 grainBytes = 1024 * 1024;

    int physicalAssumed() const;
};

struct ExpectedStatus
{
    QString status;
    qint64 misalignmentBytes = 0;
};

// ARCHITECTURE.md: misaligned if the first byte is not on the physical sector; aligned if it is on
// the grain; sector-aligned otherwise; an extended partition is a container (exempt, but its
// misalignment_bytes is still the start's distance past the physical-sector boundary).
ExpectedStatus expectedStatus(const SfdiskPartition &p, const Policy &policy);
// The fixture's table as sfdisk -J reads it (fdisk -b N for non-512 images).
SfdiskTable expectedTable(const Fixture &fixture);
// 1 if any partition is expected misaligned, else 0.
int expectedExitCode(const SfdiskTable &table, const Policy &policy);

// The verify functions return one line per mismatch (empty: all good), so a test can report
// every discrepancy at once: QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n'))).

// Device fields and every partition against sfdisk's geometry and the expected status.
QStringList verifyDevice(const QJsonObject &device, const SfdiskTable &table, const Policy &policy,
                         qint64 deviceBytes);
// filesystem/label/uuid of each non-extended partition against `blkid -p`.
// With a loop device, pass its path as `target` and nodes=true to probe /dev/loopNpM;
// otherwise the image is probed at the partition's byte offset.
QStringList verifyFilesystems(const QJsonObject &device, const SfdiskTable &table,
                              const QString &target, bool nodes = false);
// `parted -s DEV align-check opt N` succeeds exactly for partitions reported "aligned"
// (1 MiB grain, 512-byte images or loop devices, default policy). Tables of more than 16
// partitions are sampled: the first 8, the last and all that start off the 1 MiB grain.
QStringList verifyPartedOptimal(const QJsonObject &device, const SfdiskTable &table,
                                const QString &target);
// Every partition has a row in human output; misaligned ones say "misaligned by N bytes".
QStringList verifyHumanOutput(const QString &text, const SfdiskTable &table, const Policy &policy);

} // namespace pwtest
