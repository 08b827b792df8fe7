#include "ops/practicedisk.h"

#include "base/multiple.h"
#include "fs/filesystemformatter.h"
#include "table/tablewriter.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

namespace partwise {

namespace {

using Kind = PartitionInfo::Kind;

constexpr qint64 kMiB512 = 2048;    // 1 MiB in 512-byte sectors
constexpr qint64 kCylinder = 16065; // 255 heads × 63 sectors, as old fdisk counted

// Presets are written in 512-byte sector numbers, the way the legacy layouts were, and turned
// into the disk's own sectors at the end (a 4Kn disk simply cannot start at byte 32,256).
struct Layout
{
    QString table;
    QList<PartitionSpec> parts;
};

PartitionSpec part(Kind kind, qint64 first512, qint64 last512, const QString &fs = {},
                   const QString &label = {}, const QString &name = {}, QStringList flags = {})
{
    PartitionSpec p;
    p.kind = kind;
    p.startSector = first512;
    p.endSector = last512;
    p.filesystem = fs;
    p.label = label;
    p.name = name;
    p.flags = std::move(flags);
    return p;
}

Layout presetLayout(PracticePreset preset, qint64 total512)
{
    const qint64 end = total512 - 1;
    const qint64 gptEnd = total512 - 34; // leave room for the backup GPT
    switch (preset) {
    case PracticePreset::Empty:
        return {};
    case PracticePreset::WindowsXp:
        return {
            QStringLiteral("msdos"),
            {part(Kind::Primary, 63, roundDown(end * 9 / 10, kCylinder) - 1, QStringLiteral("ntfs"),
                  QStringLiteral("WINXP"), {}, {QStringLiteral("boot")})}};
    case PracticePreset::OldFdiskLogical: {
        const qint64 cylinders = total512 / kCylinder;
        const qint64 c1 = cylinders * 3 / 10, c2 = cylinders * 7 / 10, c3 = cylinders;
        return {QStringLiteral("msdos"),
                {part(Kind::Primary, 63, c1 * kCylinder - 1, QStringLiteral("ext4"),
                      QStringLiteral("root"), {}, {QStringLiteral("boot")}),
                 part(Kind::Extended, c1 * kCylinder, c3 * kCylinder - 1),
                 part(Kind::Logical, c1 * kCylinder + 63, c2 * kCylinder - 1,
                      QStringLiteral("ext4"), QStringLiteral("home")),
                 part(Kind::Logical, c2 * kCylinder + 63, c3 * kCylinder - 1,
                      QStringLiteral("swap"), QStringLiteral("swap"))}};
    }
    case PracticePreset::GptAt34: {
        const qint64 p1End = 34 + roundDown(total512 / 5, kMiB512) - 1;
        const qint64 p2End = p1End + roundDown(total512 * 2 / 5, kMiB512);
        const qint64 p3Start = (p2End / kMiB512 + 1) * kMiB512;
        return {QStringLiteral("gpt"),
                {part(Kind::Primary, 34, p1End, QStringLiteral("vfat"), QStringLiteral("EFI"),
                      QStringLiteral("EFI system"), {QStringLiteral("esp")}),
                 part(Kind::Primary, p1End + 1, p2End, QStringLiteral("ext4"),
                      QStringLiteral("root"), QStringLiteral("root")),
                 part(Kind::Primary, p3Start, roundDown(gptEnd, kMiB512) - 1,
                      QStringLiteral("ext4"), QStringLiteral("home"), QStringLiteral("home"))}};
    }
    case PracticePreset::Gpt4Kn: {
        // In 512-byte units like the others: 48 is LBA 6 once divided by 8.
        const qint64 p1End = 48 + roundDown(total512 / 4, kMiB512) - 1;
        return {QStringLiteral("gpt"),
                {part(Kind::Primary, 48, p1End, QStringLiteral("vfat"), QStringLiteral("EFI"),
                      QStringLiteral("EFI system"), {QStringLiteral("esp")}),
                 part(Kind::Primary, p1End + 1, roundDown(gptEnd, kMiB512) - 1,
                      QStringLiteral("ext4"), QStringLiteral("root"), QStringLiteral("root"))}};
    }
    case PracticePreset::ModernMiB: {
        const qint64 p1End = kMiB512 + roundDown(total512 / 8, kMiB512) - 1;
        const qint64 p2End = p1End + roundDown(total512 / 2, kMiB512);
        const qint64 p3End = p2End + roundDown(total512 / 8, kMiB512);
        return {QStringLiteral("gpt"),
                {part(Kind::Primary, kMiB512, p1End, QStringLiteral("vfat"), QStringLiteral("EFI"),
                      QStringLiteral("EFI system"), {QStringLiteral("esp")}),
                 part(Kind::Primary, p1End + 1, p2End, QStringLiteral("ext4"),
                      QStringLiteral("root"), QStringLiteral("root")),
                 part(Kind::Primary, p2End + 1, p3End, QStringLiteral("swap"),
                      QStringLiteral("swap"), QStringLiteral("swap"))}};
    }
    case PracticePreset::Demo: {
        const qint64 tenth = roundDown(total512 / 10, kMiB512);
        const qint64 extStart = 4 * tenth + 2047; // hand-placed on an odd sector
        return {QStringLiteral("msdos"),
                {part(Kind::Primary, 63, 2 * tenth - 1, QStringLiteral("vfat"),
                      QStringLiteral("WINXP")),
                 part(Kind::Primary, 2 * tenth, 4 * tenth - 1, QStringLiteral("ext4"),
                      QStringLiteral("data")),
                 part(Kind::Extended, extStart, 9 * tenth - 1),
                 part(Kind::Logical, 4 * tenth + 2 * kMiB512, 6 * tenth - 1, QStringLiteral("ext4"),
                      QStringLiteral("music")),
                 part(Kind::Logical, 6 * tenth + 2 * kMiB512 + 63, 8 * tenth - 1,
                      QStringLiteral("ext4"), QStringLiteral("photos")),
                 part(Kind::Logical, 8 * tenth + kMiB512 + 8, 9 * tenth - 1, QStringLiteral("swap"),
                      QStringLiteral("swap"))}};
    }
    }
    return {};
}

// 512-byte sector numbers to the disk's own sectors; a start never falls below `firstUsable`.
void convertToSectorSize(Layout &layout, qint64 sectorSize, qint64 firstUsable)
{
    const qint64 ratio = sectorSize / 512;
    for (PartitionSpec &p : layout.parts) {
        p.startSector = std::max(p.startSector / ratio, p.kind == Kind::Logical ? 0 : firstUsable);
        p.endSector = (p.endSector + 1) / ratio - 1;
    }
}

// The sample files of one partition: something to look at, and something whose every byte a
// student (or a test) can compare after a realignment. Flat, since NTFS is filled file by file.
bool writeSampleFiles(const QString &folder, PracticePreset preset, const PartitionSpec &p)
{
    QFile readme(QDir(folder).filePath(QStringLiteral("README.txt")));
    QFile numbers(QDir(folder).filePath(QStringLiteral("numbers.txt")));
    QFile pattern(QDir(folder).filePath(QStringLiteral("pattern.bin")));
    if (!readme.open(QIODevice::WriteOnly) || !numbers.open(QIODevice::WriteOnly) ||
        !pattern.open(QIODevice::WriteOnly))
        return false;
    readme.write(QStringLiteral("Partwise practice disk: %1.\n%2.\n\nThis partition starts at "
                                "sector %3. Check its alignment, realign it, and see that these "
                                "files come through unchanged.\n")
                     .arg(practicePresetTitle(preset), practicePresetLesson(preset))
                     .arg(p.startSector)
                     .toUtf8());
    for (int i = 1; i <= 2000; ++i)
        numbers.write(QByteArray::number(i) + '\n');
    QByteArray bytes(256 * 1024, Qt::Uninitialized);
    quint32 x = 0x9E3779B9u ^ quint32(p.startSector);
    for (char &c : bytes) { // xorshift: the same bytes every time, no pattern a filesystem packs
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        c = char(x & 0xFF);
    }
    return pattern.write(bytes) == bytes.size();
}

} // namespace

QList<PracticePreset> allPracticePresets()
{
    return {PracticePreset::Empty,   PracticePreset::WindowsXp, PracticePreset::OldFdiskLogical,
            PracticePreset::GptAt34, PracticePreset::Gpt4Kn,    PracticePreset::ModernMiB};
}

QList<PracticePreset> namedPracticePresets()
{
    return allPracticePresets() << PracticePreset::Demo;
}

QString practicePresetName(PracticePreset preset)
{
    switch (preset) {
    case PracticePreset::Empty:
        return QStringLiteral("empty");
    case PracticePreset::WindowsXp:
        return QStringLiteral("windows-xp");
    case PracticePreset::OldFdiskLogical:
        return QStringLiteral("old-fdisk");
    case PracticePreset::GptAt34:
        return QStringLiteral("gpt-34");
    case PracticePreset::Gpt4Kn:
        return QStringLiteral("4kn");
    case PracticePreset::ModernMiB:
        return QStringLiteral("modern");
    case PracticePreset::Demo:
        return QStringLiteral("demo");
    }
    return QString();
}

QString practicePresetLesson(PracticePreset preset)
{
    switch (preset) {
    case PracticePreset::Empty:
        return QStringLiteral("no partition table: start from nothing and create aligned "
                              "partitions");
    case PracticePreset::WindowsXp:
        return QStringLiteral("MBR with one NTFS partition at sector 63, as the Windows XP "
                              "installer made it: 3,584 bytes past a 4 KiB boundary");
    case PracticePreset::OldFdiskLogical:
        return QStringLiteral("MBR on cylinder boundaries with logical partitions behind their "
                              "EBRs, as old fdisk made it");
    case PracticePreset::GptAt34:
        return QStringLiteral("GPT with its first partition at sector 34, the first usable one, "
                              "and the next right behind it");
    case PracticePreset::Gpt4Kn:
        return QStringLiteral("4096-byte sectors (4Kn), GPT at LBA 6: every start is on a "
                              "physical sector, none on the 1 MiB grain");
    case PracticePreset::ModernMiB:
        return QStringLiteral("GPT on 1 MiB boundaries, the layout Partwise itself creates");
    case PracticePreset::Demo:
        return QStringLiteral("MBR mixing misaligned, sector-aligned and aligned partitions, "
                              "primary and logical");
    }
    return QString();
}

std::optional<PracticePreset> practicePresetNamed(const QString &name)
{
    for (PracticePreset preset : namedPracticePresets())
        if (practicePresetName(preset) == name)
            return preset;
    return std::nullopt;
}

qint64 practicePresetSectorSize(PracticePreset preset)
{
    return preset == PracticePreset::Gpt4Kn ? 4096 : 0;
}

QString practicePresetTitle(PracticePreset preset)
{
    switch (preset) {
    case PracticePreset::Empty:
        return QStringLiteral("Empty (no partition table)");
    case PracticePreset::WindowsXp:
        return QStringLiteral("Windows XP (sector 63)");
    case PracticePreset::OldFdiskLogical:
        return QStringLiteral("Old fdisk with logical partitions");
    case PracticePreset::GptAt34:
        return QStringLiteral("GPT at sector 34");
    case PracticePreset::Gpt4Kn:
        return QStringLiteral("4Kn disk (4096-byte sectors)");
    case PracticePreset::ModernMiB:
        return QStringLiteral("Modern 1 MiB layout");
    case PracticePreset::Demo:
        return QStringLiteral("Demo: misaligned and aligned partitions");
    }
    return QString();
}

bool createPracticeDisk(const PracticeDiskSpec &spec, QString *error)
{
    if (const qint64 forced = practicePresetSectorSize(spec.preset);
        forced > 0 && spec.sectorSize != forced) {
        *error = QStringLiteral("The %1 preset has %2-byte sectors.")
                     .arg(practicePresetName(spec.preset))
                     .arg(forced);
        return false;
    }
    if (spec.sectorSize != 512 && spec.sectorSize != 4096) {
        *error = QStringLiteral("A practice disk has 512- or 4096-byte sectors.");
        return false;
    }
    if (spec.sizeBytes < (qint64(64) << 20)) {
        *error = QStringLiteral("A practice disk needs at least 64 MiB.");
        return false;
    }
    if (QFile::exists(spec.path)) {
        *error =
            QStringLiteral("%1 already exists; Partwise will not overwrite it.").arg(spec.path);
        return false;
    }
    QFile file(spec.path);
    if (!file.open(QIODevice::WriteOnly) || !file.resize(spec.sizeBytes)) {
        *error = QStringLiteral("Cannot create %1: %2").arg(spec.path, file.errorString());
        return false;
    }
    file.close();

    Layout layout = presetLayout(spec.preset, spec.sizeBytes / 512);
    if (layout.table.isEmpty())
        return true;
    const qint64 firstUsable =
        layout.table == QLatin1String("gpt") ? (spec.sectorSize == 4096 ? 6 : 34) : 1;
    convertToSectorSize(layout, spec.sectorSize, firstUsable);
    if (!writeFreshTable(spec.path, spec.sectorSize, layout.table, layout.parts, error))
        return false;
    for (const PartitionSpec &p : layout.parts) {
        if (p.filesystem.isEmpty())
            continue;
        QTemporaryDir samples;
        if (!samples.isValid() || !writeSampleFiles(samples.path(), spec.preset, p)) {
            *error = QStringLiteral("Cannot write the sample files in a temporary folder.");
            return false;
        }
        FormatRequest request;
        request.contentFrom = samples.path();
        request.filesystem = p.filesystem;
        request.label = p.label;
        request.target = spec.path;
        request.targetIsImage = true;
        request.offsetBytes = p.startSector * spec.sectorSize;
        request.sizeBytes = (p.endSector - p.startSector + 1) * spec.sectorSize;
        request.startSector = p.startSector;
        request.logicalSectorSize = spec.sectorSize;
        const ToolResult r = formatFilesystem(request);
        if (!r.ok) {
            *error =
                QStringLiteral("Formatting the %1 partition failed: %2").arg(p.filesystem, r.error);
            return false;
        }
    }
    return true;
}

QString createDemoDisk(const QString &folder, QString *error)
{
    PracticeDiskSpec spec;
    spec.path = QDir(folder).filePath(QStringLiteral("partwise-demo.img"));
    spec.sizeBytes = qint64(512) << 20;
    spec.preset = PracticePreset::Demo;
    return createPracticeDisk(spec, error) ? spec.path : QString();
}

} // namespace partwise
