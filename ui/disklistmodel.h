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
    int generation = 0; // bumped on every read, so views know a new layout from a new policy
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
    void setResult(const QString &path, const partwise::DiskReadResult &result,
                   const std::optional<partwise::BootInventory> &boot = std::nullopt);
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

private:
    QString displayText(const DiskEntry &entry) const;

    QList<DiskEntry> m_entries;
    partwise::AlignmentPolicy m_policy;
};
