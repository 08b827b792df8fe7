// Builds sparse disk images for tests with independent tools (sfdisk, fdisk, mkfs.*),
// never with Partwise's own code. Each fixture function creates one seed layout.
#pragma once

#include <QByteArray>
#include <QString>

namespace pwtest {

struct Fixture
{
    QString name;
    QString path;
    int logicalSectorSize = 512; // what the table was written with
    bool ok = false;
    QString error; // why building failed, when !ok
};

class DiskImageBuilder
{
public:
    // Images are created inside dir, which must exist (typically a QTemporaryDir).
    explicit DiskImageBuilder(const QString &dir);

    // --- Layouts (all images are sparse) -----------------------------------------------
    // Windows XP style MBR: one NTFS-typed partition at sector 63 holding FAT16 "PWXP".
    Fixture winXpMbr();
    // Old fdisk: 255x63 cylinders of 16065 sectors. p1 at 63, extended p2 at 32130
    // (cylinder 2), logical p5 at 32193 (ext4 "pwcyl5"), p6 at 48258, p7 at 80388 (swap type).
    Fixture oldFdiskCylinder();
    // Hand aligned (seed 003): p1 at 2048, extended p2 at odd sector 20481, logical p5 at
    // 22528 (ext4 "pwhand5") and p6 at 65536, both multiples of 2048.
    Fixture handAlignedExtended();
    // GPT with first-lba 34: p1 at 34 (6 sectors), p2 at 40, p3 at 2048 (ext4 "pwroot").
    Fixture gptClassic();
    // GPT (first-lba 34) with a single partition starting at `start`, 8 MiB long.
    Fixture gptSingle(qint64 start);
    // 4Kn GPT (4096-byte LBAs, GPT header at byte 4096): p1 at LBA 6 (250 LBAs),
    // p2 at 256 (ext4 "pw4kn"), p3 at 4352. Written with `fdisk -b 4096`.
    Fixture gpt4kn();
    // GPT with 128 entries and `count` partitions of 1024 sectors at 2048*i; partition 50
    // is 3 sectors late (misaligned), 7 and 107 are 8 sectors late (4 KiB, not 1 MiB).
    Fixture gptMany(int count = 110);
    // Modern MBR on 1 MiB: p1 2048 ext4 "pwboot", extended p2 at 67584, logical p5 at
    // 69632 (FAT "PWDATA"), logical p6 at 104448; every EBR sits a grain before its logical.
    Fixture modernMbr();
    // Modern GPT on 1 MiB: p1 2048 FAT "PWEFI" (ESP type), p2 67584 ext4 "pwgpt2".
    Fixture modernGpt();
    // gptClassic() with the primary header's CRC broken; the backup header is intact.
    Fixture corruptPrimaryGpt();
    // gptClassic() with both the primary and the backup header's CRC broken.
    Fixture corruptBothGpt();
    // gptClassic() cut to 4 MiB: partition 3 runs past the end, the backup GPT is gone.
    Fixture truncatedGpt();
    // oldFdiskCylinder() cut to 8 MiB: the extended partition's EBRs are past the end.
    Fixture truncatedMbr();
    // 4 MiB of deterministic pseudo-random bytes (no 0x55AA signature, no GPT).
    Fixture garbage();
    // A 0-byte file.
    Fixture emptyFile();
    // A path in the image folder that does not exist.
    Fixture missingPath();

    // --- Building blocks ----------------------------------------------------------------
    QString createSparse(const QString &name, qint64 bytes, QString *error);
    static bool sfdisk(const QString &image, const QString &script, QString *error);
    // fdisk -b sectorSize, loading an sfdisk-style script through fdisk's `I` command.
    static bool fdiskScript(const QString &image, int sectorSize, const QString &script,
                            QString *error);
    static bool mkfsExt4(const QString &image, qint64 offsetBytes, qint64 bytes,
                         const QString &label, QString *error);
    static bool mkfsVfat(const QString &image, qint64 offsetBytes, qint64 bytes,
                         const QString &label, QString *error);
    static bool writeAt(const QString &image, qint64 offset, const QByteArray &bytes,
                        QString *error);
    static bool truncateTo(const QString &image, qint64 bytes, QString *error);

private:
    Fixture start(const QString &name) const;
    Fixture gptClassicAs(const QString &name);
    Fixture oldFdiskCylinderAs(const QString &name);
    QString m_dir;
};

} // namespace pwtest
