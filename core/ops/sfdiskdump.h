#pragma once

#include <QList>
#include <QString>

namespace partwise {

// A partition table as `sfdisk -d` prints it: what a table backup saved (table.sfdisk) and what
// the disk holds now, in the same tool's words, so the two compare without our own reading of
// either table standing between them.
struct DumpedPartition
{
    int number = 0;   // from the device name's trailing digits, as sfdisk itself reads them
    qint64 start = 0; // sectors
    qint64 size = 0;  // sectors
    QString type;     // "83", "5", or a GPT type GUID
    // The rest of its entry as sfdisk prints it (bootable, attrs=, name=, uuid=): flags, name
    // and identity, compared whole.
    QString entry;
    bool isExtended() const;
};

struct SfdiskDump
{
    QString label; // "dos", "gpt"; empty when there was no table
    qint64 sectorSize = 512;
    QList<DumpedPartition> partitions;

    const DumpedPartition *partition(int number) const;
    bool hasExtended() const;
};

SfdiskDump parseSfdiskDump(const QString &text);

} // namespace partwise
