#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace partwise {

// Practice disks are sparse image files laid out the way real disks were partitioned over the
// years, for teaching, demos and trying Partwise without touching a real drive.
enum class PracticePreset {
    Empty,           // no partition table at all
    WindowsXp,       // MBR, one NTFS partition at sector 63
    OldFdiskLogical, // MBR on cylinder boundaries, extended partition with logical partitions
    GptAt34,         // GPT, partitions at the first usable sector and right after it
    Gpt4Kn,          // 4096-byte sectors, GPT at the first usable LBA 6: on 4 KiB, off the grain
    ModernMiB,       // GPT on 1 MiB boundaries: the layout Partwise itself creates
    Demo,            // a mix of all of the above on one MBR disk
};

QList<PracticePreset> allPracticePresets(); // the ones offered in the New Practice Disk dialog
QString practicePresetTitle(PracticePreset preset);
// For `partwise-cli practice`: a short name ("windows-xp") and what the preset shows.
QString practicePresetName(PracticePreset preset);
QString practicePresetLesson(PracticePreset preset);
std::optional<PracticePreset> practicePresetNamed(const QString &name);
// Every preset with a name, the demo included.
QList<PracticePreset> namedPracticePresets();
// The sector size a preset needs (4096 for the 4Kn disk), or 0 when either will do.
qint64 practicePresetSectorSize(PracticePreset preset);

struct PracticeDiskSpec
{
    QString path;
    qint64 sizeBytes = qint64(1) << 30;
    qint64 sectorSize = 512; // 512 or 4096
    PracticePreset preset = PracticePreset::Empty;
};

// Creates the image (refusing to overwrite an existing file), writes the table through
// libparted and formats the partitions with their own mkfs tools.
bool createPracticeDisk(const PracticeDiskSpec &spec, QString *error);

// Creates the demo disk in `folder` and returns its path, or an empty string and `error`.
QString createDemoDisk(const QString &folder, QString *error);

} // namespace partwise
