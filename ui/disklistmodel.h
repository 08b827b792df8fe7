#pragma once

#include "align/misalignmentreport.h"
#include "boot/bootinventory.h"
#include "table/diskreader.h"

#include <QAbstractListModel>

// One disk or image the window knows about, and what reading it gave.
struct DiskEntry
{
    enum class State { Reading, Ready, Failed };

    QString path; // the entry's key: for another machine's disk, "machine:/dev/sdX"
    bool isImage = false;
    QString machine;    // another machine's disk, read through the helper there ("" here)
    QString devicePath; // the disk's path on that machine
    qint64 forcedSectorSize = 0;
    State state = State::Reading;
    partwise::DiskLayout layout;
    QString error;
    partwise::MisalignmentReport report;
    std::optional<partwise::BootInventory> boot; // what boots from it, read with the table
    // What the disk is (device/diskidentity.h) when last read here; empty when not known (a
    // helper's disk, or one that could not be opened).
    QString identity;
    bool wasRead = false; // `layout` holds a successful read (kept while the disk is read again)
    int generation = 0;   // bumped on every read, so views know a new layout from a new policy
};

// The disks and opened images for the device chooser: "/dev/sdb — WDC WD20 — 1.8 TiB —
// 512/4096 B" with a warning icon when something on it is misaligned. Verdicts follow the
// current policy; reading is done elsewhere (DiskService) and handed in with setResult().
class DiskListModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role { PathRole = Qt::UserRole + 1, StateRole };

    explicit DiskListModel(QObject *parent = nullptr);

    // Adds (or finds) an entry in the Reading state; returns its row.
    int addDisk(const QString &path, bool isImage, qint64 forcedSectorSize = 0);
    void markReading(int row);
    // `identity`: what the disk at `path` was when read. A read that finds another disk there,
    // or another size or table than the last one, says so with diskChangedUnderneath().
    void setResult(const QString &path, const partwise::DiskReadResult &result,
                   const std::optional<partwise::BootInventory> &boot = std::nullopt,
                   const QString &identity = QString());
    // Forgets this machine's disk `path` (unplugged); diskRemoved() says so. Images and other
    // machines' disks are not affected.
    void removeDisk(const QString &path);
    // Keeps images and other machines' disks, replaces this machine's with `paths`.
    void setDisks(const QStringList &paths);
    // Replaces the disks of `machine` with `devicePaths`; returns their rows' keys.
    QStringList setMachineDisks(const QString &machine, const QStringList &devicePaths);
    static QString machineKey(const QString &machine, const QString &devicePath);
    // An image file a helper reads for this window (the user's own helper); returns its row.
    int addMachineImage(const QString &machine, const QString &path, qint64 forcedSectorSize);
    // What people call the entry's disk: its path, or "/dev/sdb on server" for a disk a
    // helper reads (the key, "server:/dev/sdb", is for the program).
    static QString nameOf(const DiskEntry &entry);
    QStringList keysOf(const QString &machine) const;
    void setPolicy(const partwise::AlignmentPolicy &policy);
    partwise::AlignmentPolicy policy() const { return m_policy; }

    int rowOf(const QString &path) const;
    const DiskEntry &entry(int row) const { return m_entries.at(row); }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

signals:
    void entryChanged(int row);
    // `path` has gone from the list; `name` is what people called it.
    void diskRemoved(const QString &path, const QString &name);
    // A new read of `path` found what the earlier one did not: `why` says what, in a sentence
    // naming the disk. Whatever was planned against the earlier read no longer fits.
    void diskChangedUnderneath(const QString &path, const QString &why);

private:
    QString displayText(const DiskEntry &entry) const;
    void removeRow(int row);
    QString changeBetween(const DiskEntry &before, const partwise::DiskReadResult &now,
                          const QString &identity) const;

    QList<DiskEntry> m_entries;
    partwise::AlignmentPolicy m_policy;
};
