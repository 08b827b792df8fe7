#pragma once

#include <QString>
#include <QtGlobal>

#include <optional>

namespace partwise {

// What the user asks for: the grain partitions should start on, and whether to believe the
// physical sector size the drive reports. Defaults follow ARCHITECTURE.md: 1 MiB, don't trust.
struct AlignmentPolicy
{
    static constexpr qint64 kDefaultGrain = 1 << 20;
    // The grains Partwise takes from anyone (the command line, the helper's client, the
    // window): whole 512-byte sectors, up to 1 GiB (RAID stripes × disks, erase blocks).
    static constexpr qint64 kMinGrain = 512;
    static constexpr qint64 kMaxGrain = qint64(1) << 30;
    qint64 grainBytes = kDefaultGrain;
    bool trustDrive = false;

    // Why `bytes` cannot be a grain, one sentence; empty when it can.
    static QString grainProblem(qint64 bytes);
    QString validate() const { return grainProblem(grainBytes); }
};

// Parses "4k", "1m", "1mib", "512K", "2M", "65536": a byte count with an optional K/M/G suffix
// (powers of 1024). Returns nothing for garbage, zero or negative values.
std::optional<qint64> parseByteSize(const QString &text);

} // namespace partwise
