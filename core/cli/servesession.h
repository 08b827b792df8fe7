#pragma once

// The helper's side of `partwise-cli serve`: one request line in, its answer out (now, or from
// a job thread later), with progress and log notifications in between. Methods (README, "The
// helper protocol"): version, list-disks, read-disk, preview, realign-plan, copy-plan,
// create-image, unmount, mount, swapoff and swapon of a partition (servemount.cpp), and unlock
// and lock of a LUKS partition (serveluks.cpp), vg-activate and vg-deactivate of an LVM
// physical volume's group (servevolumegroup.cpp), power-off of a USB drive (servepoweroff.cpp)
// answer at once; apply, realign, copy, resume and probe run as a job, one at a time, and answer
// when it ends; cancel stops a running job at its next safe point (a move stops where its journal
// lets `resume` finish it); answer replies to a `question` libparted asked during apply
// (servequestions.h). While a job runs, only version, cancel and answer are taken: libparted
// and the disk belong to the job. Every path passes the ServeTargetGuard first; nothing malformed
// is ever acted on, and no request ends the session. A realignment is always planned here, never
// taken from the client: realign runs its own fresh plan, and only when that moves what the
// client says the person saw ("expect"; a client that sends none gets no such check). A
// filesystem whose tool then refuses to shrink is given room the next way, as the log says.

#include "boot/firmwareentries.h"
#include "cli/jsonrpcline.h"
#include "cli/serveparams.h"
#include "cli/servequestions.h"
#include "cli/servetargetguard.h"
#include "device/opendisk.h"
#include "device/releasepartitions.h"
#include "ops/copyrunner.h"
#include "ops/operation.h"
#include "ops/realignrunner.h"

#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QPair>
#include <QSet>

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace partwise {

struct CopyParams;

class ServeSession
{
public:
    using Writer = std::function<void(const QByteArray &line)>; // called from any thread

    ServeSession(ServeTargetGuard guard, Writer write);
    ~ServeSession(); // cancels a running job and waits for it
    ServeSession(const ServeSession &) = delete;
    ServeSession &operator=(const ServeSession &) = delete;

    void handleLine(const QByteArray &line);
    // Asks a running job to stop at its next safe point (where `resume` can finish it) and
    // abandons a question it waits on.
    void cancel();
    // The end of input: cancels, and waits for the job.
    void finish();
    bool jobRunning() const { return m_running.load(); }

private:
    // Progress notifications at most this often: a person reads a few a second.
    static constexpr int kProgressMilliseconds = 200;
    using Job = std::function<QJsonObject(const QJsonValue &id)>;

    void answer(const jsonrpc::Request &request, const QJsonValue &result);
    void fail(const jsonrpc::Request &request, int code, const QString &message);
    void dispatch(const jsonrpc::Request &request);
    bool targetOf(const jsonrpc::Request &request, QString *path);
    // The same, and the disk opened once from what the guard's walk found: the request's reads
    // go through it (`path` is its name, for messages and journals).
    bool targetOf(const jsonrpc::Request &request, OpenDisk *disk, QString *path);
    bool realignTargetOf(const jsonrpc::Request &request, QString *path, RealignOptions *options,
                         RealignRequest *asked);
    bool planOf(const jsonrpc::Request &request, QList<Operation> *operations);
    // Root working for a user reads a plan's key files with the user's rights (userfileread.h).
    bool keysReadAsUser(const jsonrpc::Request &request, QList<Operation> *operations);
    bool pasteSourcesAdmitted(const jsonrpc::Request &request, QList<Operation> *operations);
    // `writes`: the disk the job may write. What this helper unmounted or turned off there is
    // forgotten first: the filesystem found there later need not be the one it released.
    void startJob(const jsonrpc::Request &request, Job job, const QString &writes);
    void forgetReleasedOn(const QString &disk);
    // Root working for a user hands over no byte the user could not read alone (copy and paste
    // sources, what is mounted on the user's folder); true for everyone else.
    bool userMayRead(const jsonrpc::Request &request, const QString &disk, const QString &what);
    void notify(const QString &method, const QJsonObject &params);
    RealignCallbacks jobCallbacks(const QJsonValue &id); // log and progress notifications
    CopyCallbacks copyCallbacks(const QJsonValue &id);   // the same for a copy

    void listDisks(const jsonrpc::Request &request);
    void readDiskMethod(const jsonrpc::Request &request);
    void preview(const jsonrpc::Request &request);
    void filesystemMinimum(const jsonrpc::Request &request);
    void realignPlan(const jsonrpc::Request &request);
    void apply(const jsonrpc::Request &request);
    void realign(const jsonrpc::Request &request);
    void resume(const jsonrpc::Request &request);
    void probe(const jsonrpc::Request &request);
    // servemount.cpp: unmount, mount, swapoff, swapon of one partition of the served disk.
    bool mountTargetOf(const jsonrpc::Request &request, bool forMount, QString *disk,
                       MountRequest *asked, PartitionNode *node);
    void unmountMethod(const jsonrpc::Request &request);
    void mountMethod(const jsonrpc::Request &request);
    void swapOffMethod(const jsonrpc::Request &request);
    void swapOnMethod(const jsonrpc::Request &request);
    // serveluks.cpp: unlock and lock a LUKS partition of the served disk.
    bool luksTargetOf(const jsonrpc::Request &request, bool forUnlock, QString *disk,
                      UnlockRequest *asked, PartitionNode *node);
    void unlockMethod(const jsonrpc::Request &request);
    void lockMethod(const jsonrpc::Request &request);
    // servevolumegroup.cpp: vg-activate and vg-deactivate of a physical volume's group.
    bool volumeGroupTargetOf(const jsonrpc::Request &request, PartitionNode *node);
    void volumeGroupMethod(const jsonrpc::Request &request);
    // servepoweroff.cpp: power-off of a USB drive.
    void powerOffMethod(const jsonrpc::Request &request);
    // Copying a disk (servecopy.cpp): copy-plan, copy, and create-image for a new image target.
    bool copyParamsOf(const jsonrpc::Request &request, CopyParams *params);
    void copyPlan(const jsonrpc::Request &request);
    void copy(const jsonrpc::Request &request);
    void createImage(const jsonrpc::Request &request);

    ServeTargetGuard m_guard;
    Writer m_write;
    std::mutex m_writeMutex;
    std::thread m_job;
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_cancel{false};
    ServeQuestions m_questions;
    // What this helper unmounted, by (disk, partition), for "mount" with "back": true. Only these
    // places, taken from the kernel's table, are mounted back with their old options.
    QMap<QPair<QString, int>, ReleasedPartition> m_unmounted;
    // What this helper turned off as swap, by (disk, partition): the swap area's UUID. Root working
    // for a user turns on only these (root's memory goes to that device: never one the user made).
    QMap<QPair<QString, int>, QString> m_swappedOff;
    // What this helper turned on as swap for the user (after turning it off): the only swap a
    // user may have turned off. Any other active swap is the system's.
    QMap<QPair<QString, int>, QString> m_swappedOn;
    // The LUKS mappings this helper opened: the only ones root working for a user closes (the
    // others are the system's, as its swap is).
    QSet<QString> m_unlocked;
    // The volume groups (by UUID) this helper activated: the only ones root working for a user
    // deactivates (the others are the system's: its root filesystem may be on one).
    QSet<QString> m_activatedGroups;
    // The folders this helper mounted a filesystem on, for the user: unmounted again on request.
    QSet<QString> m_mountedHere;
    // Folders under /run/media/USER this helper made for its mounts (removed after their
    // unmount), and those it removed so (made again for a mount back there).
    QSet<QString> m_mediaFolders;
    QSet<QString> m_removedMediaFolders;
    // This machine's firmware boot entries, read at the first read-disk of one of its disks
    // (efibootmgr reads NVRAM: once per session, not per disk).
    std::optional<FirmwareEntries> m_firmware;
};

// `partwise-cli serve`: reads requests from standard input until it ends. Exit 0.
int runServe();

} // namespace partwise
