#pragma once

// What Partwise can do with each filesystem on this machine: for every filesystem it knows and
// every action (create, label, check, repair, grow, shrink, move, copy only the used blocks,
// give it a new UUID),
// whether Partwise supports it at all, which programs it runs for it, and whether they are
// installed (naming the Debian package of a missing one). The Filesystem Support dialog shows
// this table, and the Create and Format lists offer only what can be created here. It mirrors
// what core/fs and core/layer actually run: a change to a tool there belongs here too.

#include <QList>
#include <QString>
#include <QStringList>

namespace partwise {

enum class FilesystemAction {
    Create,
    Label,
    Check,
    Repair,
    Grow,
    Shrink,
    Move,
    UsedBlocks,
    NewUuid
};

struct ToolNeed
{
    QString program; // empty: done inside Partwise (libparted, libext2fs, the mover)
    QString package;
};

struct SupportCell
{
    bool supported = false;
    QList<ToolNeed> tools;
    QString note;        // how, when it is not obvious ("recreated", "while mounted")
    QStringList missing; // Debian packages whose program is not installed
    bool available() const { return supported && missing.isEmpty(); }
};

QList<FilesystemAction> allFilesystemActions();
QString filesystemActionName(FilesystemAction action);  // "create", "label", ... (English)
QString filesystemShownName(const QString &filesystem); // "FAT", "NTFS", "XFS", "ext4", ...

// The filesystems in the table, in the order shown: ext4 ... swap.
QStringList supportedFilesystemNames();

// Looks the tools up now (findTool): a Rescan is calling it again.
SupportCell filesystemSupport(const QString &filesystem, FilesystemAction action);

// The filesystems and layers a new partition can be made with here (their tools installed).
QStringList creatableHere();

} // namespace partwise
