#pragma once

// The timing probe: finds a drive's real physical sector size, and where its sectors start, by
// timing writes instead of believing what the drive says.
//
// Why time writes at all? A 512e drive (512-byte logical sectors on 4096-byte physical ones)
// often reports 512/512, and the kernel passes the lie on; SSDs and RAID arrays have real units
// of 8 or 16 KiB that they never report; a drive with the Windows XP jumper shifts every
// physical sector by 3584 bytes. What none of them can hide is the cost of a write that covers
// only part of a physical sector: the drive must read the sector, merge the new bytes and write
// it back (read-modify-write), and that write takes clearly longer than one that covers whole
// sectors. So the probe writes 4 KiB at every 512-byte offset within 4 KiB, and 8, 16 and 32 KiB
// at every 4 KiB step within their own size, and the offsets that cost more give the size and
// its offset away (core/probe/probeanalysis.h reads the times).
//
// How it writes, and why that changes nothing: each write is O_DIRECT (no page cache between
// us and the drive) and O_DSYNC (on a block device a FUA write, or a write followed by a cache
// flush where the drive has no FUA: either way it returns only once the drive has it on its
// media, where the read-modify-write happens; a write that stops in the drive's cache would
// hide it). The alternative, O_DIRECT and fdatasync() after each write, flushes the drive's
// whole cache and adds its cost to every write alike, so it is only an option. Every write
// puts back the bytes read with O_DIRECT from that place a moment before; a place whose bytes
// changed between two visits means something else writes there, and the probe stops.
//
// Where it writes: only in free space and in partitions nothing uses (no mount, swap or
// holder), never in the first or last MiB of the drive (partition tables, boot loaders kept
// after the MBR, the GPT backup), at a handful of places spread over the drive
// (core/probe/probeplaces.h). Image files are refused: their timings are the filesystem's and
// the page cache's, not a drive's. So are read-only devices, and disks in use as a whole.
//
// How long: rounds over every place and every write in a random order, until the rounds are
// done or the time budget (10 s by default) is spent. Cancellable between any two writes.

#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace partwise {

// One kind of write: `unitBytes` written at `offsetBytes` from the start of a place.
struct ProbeCell
{
    qint64 unitBytes = 0;
    qint64 offsetBytes = 0;
};

// One timed write.
struct ProbeSample
{
    int place = 0; // index into SectorProbeRun::places
    int cell = 0;  // index into SectorProbeRun::cells
    double micros = 0;
};

// A stretch of the drive the probe may write to (rewriting what is there), and what it is.
struct ProbePlace
{
    qint64 offsetBytes = 0; // the start of the window, from the start of the drive
    QString where;          // "free space", "partition 2 (ext4, not mounted)"
};

enum class ProbeWriteMode {
    DirectDsync,     // O_DIRECT | O_DSYNC: each write is durable on its own (the default)
    DirectFdatasync, // O_DIRECT, then fdatasync(): a whole cache flush after each write
};

struct SectorProbeOptions
{
    int places = 8;          // spread over the drive; fewer when there is little room
    int maxRounds = 5;       // each round times every write at every place once
    qint64 budgetMs = 10000; // no new round starts after this; a round stops at twice it
    ProbeWriteMode writeMode = ProbeWriteMode::DirectDsync;
    quint32 seed = 0; // of the random order; 0 picks one
    std::atomic<bool> *cancel = nullptr;
    // From 0 to 1, called after each write (from the thread that runs the probe).
    std::function<void(double fraction)> progress;
};

// Everything the probe did and timed: raw material for probeanalysis.h, the CLI and the GUI.
struct SectorProbeRun
{
    enum class Outcome {
        Measured,  // timings taken (they may or may not show a penalty)
        Refused,   // nothing written: see `reason` (bad target, image, read-only, busy)
        Cancelled, // stopped on request; every write done had put the same bytes back
        Failed,    // an I/O error or a place that changed under us: see `reason`
    };
    Outcome outcome = Outcome::Refused;
    QString reason; // a sentence a person can act on, when not Measured

    QString path;
    QString model;
    qint64 sizeBytes = 0;
    qint64 logicalSectorSize = 512;
    qint64 physicalSectorSizeReported = 512;
    qint64 alignmentOffsetReported = 0;
    QStringList notes; // busy partitions left out, and similar facts worth telling

    ProbeWriteMode writeMode = ProbeWriteMode::DirectDsync;
    qint64 windowBytes = 0; // each place is a window this long, aligned to its own size
    QList<ProbePlace> places;
    QList<ProbeCell> cells;
    QList<ProbeSample> samples;
    int roundsDone = 0; // complete rounds
    qint64 elapsedMs = 0;
};

// The writes a probe times on a drive with `logicalSectorSize`: 4 KiB at every logical-sector
// step within 4 KiB, then 8, 16 and 32 KiB at every 4 KiB step within their own size.
QList<ProbeCell> probeCells(qint64 logicalSectorSize);
// The window every place needs: 64 KiB (a 32 KiB write at 28 KiB ends at 60 KiB).
qint64 probeWindowBytes();

// "O_DIRECT|O_DSYNC" or "O_DIRECT+fdatasync".
QString probeWriteModeName(ProbeWriteMode mode);

// Checks the target (see the comment at the top), chooses the places and times the writes.
// Blocks for up to about twice options.budgetMs; call it off the GUI thread.
SectorProbeRun runSectorProbe(const QString &devicePath, const SectorProbeOptions &options = {});

} // namespace partwise
