#pragma once

// `partwise-cli practice`: the practice disks of File → New Practice Disk from a script, so a
// teacher can make a class's exercises. The same presets, real filesystems with sample files,
// no root needed.

#include <QString>
#include <QTextStream>

namespace partwise {

struct PracticeCommandOptions
{
    bool list = false;
    QString preset;
    QString image;
    QString size;          // empty: 1 GiB
    qint64 sectorSize = 0; // 0: the preset's own, else 512
};

int runPracticeCommand(const PracticeCommandOptions &options, QTextStream &out, QTextStream &err);

} // namespace partwise
