#pragma once

#include "device/drivehealth.h"
#include "device/opendisk.h"
#include "device/sourcehold.h"

#include "align/alignmentpolicy.h"
#include "align/realignplan.h"
#include "move/journaldurability.h"
#include "move/moverequest.h"
#include "ops/realigndiscard.h"
#include "table/disklayout.h"

#include <QMap>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace partwise {

struct RealignOptions
{
    AlignmentPolicy policy;
    qint64 forcedSectorSize = 0;
    QString journalPath;   // empty: WriteJournal::defaultPath(target, journalFolder)
    QString journalFolder; // for disks (images keep theirs beside them); empty: the default
    QString backupRoot;    // empty: defaultBackupRoot()
    bool verify = true;
    // Discard what the moves leave behind, where the target can (ops/realigndiscard.h).
    bool discard = true;
    // Move filesystems Partwise has no read-only check for (PreparedRealign::unchecked).
    bool acceptUnchecked = false;
    // While prepareRealignment reads a large filesystem's used-block map (seconds per TiB): the
    // partition's number, what is being read and how far (fs/mapprogress.h). Optional.
    std::function<void(int partition, const QString &step, double fraction)> mapProgress;

    QString journalPathFor(const QString &target) const;
};

struct RealignProgress
{
    // What is being done to the partition's data. Code that acts on the step (the GUI words
    // it in the user's language) compares this, never the text.
    enum class Step { Moving, Verifying };

    int moveIndex = 0; // 0-based
    int moveCount = 0;
    int partition = 0;
    Step stepKind = Step::Moving;
    QString step; // "moving" or "verifying": English, for logs and the command line
    quint64 bytesDone = 0, bytesTotal = 0;
    double bytesPerSecond = 0, secondsLeft = 0;
};

struct RealignCallbacks
{
    std::function<void(const QString &)> log;
    std::function<void(const RealignProgress &)> progress;
    const std::atomic<bool> *cancel = nullptr;
};

struct RealignResult
{
    bool ok = false;
    bool resumable = false; // stopped at a point `resume` continues from
    QString error;
    QString journalPath;
    QStringList checks;    // "partition 2 (ext4): clean", one per moved filesystem
    int shrinkRefused = 0; // a partition whose filesystem's tool refused to shrink, nothing changed
};

// The used-block maps a plan read, by partition number, and the hold on the disk they were
// read under (device/sourcehold.h): a realignment's first move takes its map from here while
// the disk is unchanged since, rather than reading it again.
struct PlannedMaps
{
    struct Map
    {
        qint64 offsetBytes = 0;
        qint64 lengthBytes = 0;
        std::vector<move::Extent> extents;
    };
    std::shared_ptr<const SourceHold> hold;
    QMap<int, Map> maps;
    // The disk the plan was read from, opened once by name: the run reads, verifies and claims
    // it through this descriptor (ops/keptlayout.h) instead of opening the name again.
    std::shared_ptr<const OpenDisk> disk;
};

struct PreparedRealign
{
    bool ok = false;
    QString error;
    DiskLayout layout;
    RealignPlan plan;
    RealignRequest request; // what was asked, to plan again when a way turns out impossible
    // Why a partition would be copied whole: its filesystem has no trustworthy map of the
    // blocks in use (by partition number; absent when the map is known).
    QMap<int, QString> copiedWhole;
    // What the plan means for LUKS and LVM inside the partitions (realignlayernotes.h).
    QStringList layerNotes;
    // What the plan does to booting (core/boot), said before anything is written: what
    // Partwise fixes after a move, and what stops working with the command that repairs it.
    // A plan that breaks a loader runs only when the person accepts it (--accept-boot-change).
    QStringList bootFixes;
    QStringList bootBreaks;
    // Moves of a named filesystem Partwise has no read-only check for (fs/filesystemtools.h):
    // run only with RealignOptions::acceptUnchecked, since damage in it would go along unseen.
    QStringList unchecked;
    QList<int> uncheckedPartitions;
    // The drive's health (images: unknown); a risky one is said before anything moves.
    DriveHealth driveHealth;
    // Where the journals would be kept, and whether they would survive a power cut there.
    QString journalPath;
    move::JournalDurability journal;
    PlannedMaps planned;
    RealignDiscard discard; // what is discarded after the moves
};

// Reads the disk and plans; writes nothing.
PreparedRealign prepareRealignment(const QString &target, const RealignOptions &options,
                                   const RealignRequest &request);

// Runs a plan: refuses busy partitions, backs the table up, and then for each partition shrinks
// the filesystem if the plan says so, moves the data through the journaled mover, points the
// table at the new place, fixes what the filesystem records about its position, and checks it
// read-only. Every step is recorded in the realignment journal first. Blocking.
RealignResult runRealignment(const QString &target, const PreparedRealign &prepared,
                             const RealignOptions &options, const RealignCallbacks &callbacks = {});

// A rough duration for the plan shown before anything happens (seconds).
double estimateRealignSeconds(const RealignPlan &plan);

} // namespace partwise
