#pragma once

#include <QList>
#include <QString>

namespace partwise {

// One entry of a partition table as libblkid's partition prober reads it, in bytes.
struct ProbedTableEntry
{
    int number = 0;
    qint64 offset = 0;
    qint64 size = 0;
    int mbrType = 0; // the MBR type byte; 0 on GPT (and in an MBR's type-0 entries)
    bool extended = false;
};

// The entries of the table libblkid finds on a disk or image, read with `sectorSize`-byte
// sectors; `*tableType` receives its name ("dos", "gpt", ...), empty when there is none. It
// lists what libparted leaves out: an MBR entry of type 0 (the whole ISO of a hybrid ISO).
QList<ProbedTableEntry> probeTableEntries(const QString &path, qint64 sectorSize,
                                          QString *tableType);

} // namespace partwise
