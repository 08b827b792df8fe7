#pragma once

#include "device/deviceinfo.h"
#include "table/partitioninfo.h"

#include <QList>
#include <QPair>
#include <QStringList>

namespace partwise {

// A disk as read: the device, its partition table and the free space between partitions,
// in disk order. Plain data, so it can cross threads and be compared in tests.
struct DiskLayout
{
    DeviceInfo device;
    QString tableType; // "gpt", "msdos", or empty when the disk has no table
    // A filesystem that starts at the disk's first byte: on a disk without a table, the whole
    // disk; with one, a hybrid ISO (iso9660), whose table's partitions are windows into it.
    QString wholeDiskFilesystem;
    qint64 firstUsableSector = 0; // first sector a partition may use
    qint64 lastUsableSector = 0;  // last sector a partition may use (before a GPT backup)
    int maxPrimaryPartitions = 0; // 4 on MBR, 128 (entries) on GPT
    QList<PartitionInfo> regions; // partitions and free space ordered by start sector
    QStringList warnings;         // what libparted or our checks found worth telling
    // One of a GPT's two copies (the primary after the MBR, the backup at the disk's end) is
    // missing or fails its checksum, and libparted read the other: its words; empty otherwise.
    QString damagedGpt;
    // Where the table itself lies, as libparted reads it (the MBR and the sectors before the first
    // partition, each EBR, a GPT's headers and entries): first and last sector of each stretch.
    QList<QPair<qint64, qint64>> tableSectors;

    QList<PartitionInfo> partitions() const; // without free space
    const PartitionInfo *partitionByNumber(int number) const;
    // The filesystem on the whole disk as people name it ("XFS"); empty when there is none.
    QString wholeDiskFilesystemName() const;
    // An ISO 9660 filesystem over the whole disk with a partition table inside it: xorriso's
    // -isohybrid-mbr, isohybrid and grub-mkrescue write these, and a stick made with dd holds one.
    bool isHybridIso() const;
};

// How people name a filesystem type as libblkid reports it: "xfs" is "XFS", "vfat" is "FAT".
QString filesystemDisplayName(const QString &type);

} // namespace partwise
