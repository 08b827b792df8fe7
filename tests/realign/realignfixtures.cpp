#include "realignfixtures.h"

#include "toolrun.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace pwtest {

namespace {

// The sfdisk script of `parts` after `header`, partition i getting types[i].
QString sfdiskScript(const QString &header, const QList<PartSpec> &parts, const QStringList &types)
{
    QString script = header;
    for (int i = 0; i < parts.size(); ++i)
        script += QStringLiteral("start=%1, size=%2, type=%3\n")
                      .arg(parts[i].start)
                      .arg(parts[i].size)
                      .arg(types[i]);
    return script;
}

} // namespace

Layout mbrLegacy()
{
    Layout l;
    l.name = QStringLiteral("mbr-legacy");
    l.diskSectors = 720896;
    l.parts = {{1, QStringLiteral("ext4"), QStringLiteral("pwext4"), 63, 131072},
               {2, QStringLiteral("xfs"), QStringLiteral("pwxfs"), 131135, 204800},
               {3, QString(), QString(), 340000, 340000},
               {5, QStringLiteral("vfat"), QStringLiteral("PWFAT"), 340063, 129000},
               {6, QStringLiteral("ntfs"), QStringLiteral("pwntfs"), 469065, 129000},
               {7, QStringLiteral("swap"), QStringLiteral("pwswap"), 598066, 65536}};
    const QStringList types{QStringLiteral("83"), QStringLiteral("83"), QStringLiteral("5"),
                            QStringLiteral("c"),  QStringLiteral("7"),  QStringLiteral("82")};
    l.script = sfdiskScript(QStringLiteral("label: dos\n"), l.parts, types);
    return l;
}

Layout gptLegacy()
{
    Layout l;
    l.name = QStringLiteral("gpt-legacy");
    l.diskSectors = 655360;
    l.parts = {{1, QStringLiteral("btrfs"), QStringLiteral("pwbtrfs"), 34, 262144},
               {2, QStringLiteral("ext4"), QStringLiteral("pwgext4"), 262178, 131072},
               {3, QStringLiteral("vfat"), QStringLiteral("PWGFAT"), 393250, 131072},
               {4, QStringLiteral("swap"), QStringLiteral("pwgswap"), 526001, 65536}};
    const QStringList types{kLinuxGuid, kLinuxGuid, kDataGuid, kSwapGuid};
    l.script = sfdiskScript(QStringLiteral("label: gpt\nfirst-lba: 34\n"), l.parts, types);
    return l;
}

Layout mbrDown()
{
    Layout l;
    l.name = QStringLiteral("mbr-down");
    l.diskSectors = 491520;
    l.parts = {{1, QStringLiteral("ext4"), QStringLiteral("pwdown1"), 2048, 131072},
               {2, QString(), QString(), 133120, 342016},
               {5, QStringLiteral("xfs"), QStringLiteral("pwdown5"), 135175, 204800},
               {6, QStringLiteral("vfat"), QStringLiteral("PWDOWN6"), 342016, 131072}};
    // sfdisk would want a whole grain for the EBR before an aligned logical partition.
    l.script = QStringLiteral("label: dos\nstart=2048, size=131072, type=83\n"
                              "start=133120, size=342016, type=5\n"
                              "start=135175, size=204800, type=83\n");
    l.parted = {QStringLiteral("mkpart"), QStringLiteral("logical"), QStringLiteral("fat32"),
                QStringLiteral("342016s"), QStringLiteral("473087s")};
    return l;
}

Layout gptShrink()
{
    Layout l;
    l.name = QStringLiteral("gpt-shrink");
    l.diskSectors = 360448;
    l.parts = {{1, QStringLiteral("ext4"), QStringLiteral("pwshr1"), 34, 131172, 100},
               {2, QStringLiteral("ntfs"), QStringLiteral("pwshr2"), 131206, 131122, 50},
               {3, QStringLiteral("vfat"), QStringLiteral("PWSHR3"), 264192, 65536}};
    const QStringList types{kLinuxGuid, kDataGuid, kDataGuid};
    l.script = sfdiskScript(QStringLiteral("label: gpt\nfirst-lba: 34\n"), l.parts, types);
    return l;
}

Layout gptDownChain()
{
    Layout l;
    l.name = QStringLiteral("gpt-down-chain");
    l.diskSectors = 340006; // the last usable sector is XFS's last
    l.parts = {{1, QStringLiteral("vfat"), QStringLiteral("PWDCH1"), 4101, 131072},
               {2, QStringLiteral("xfs"), QStringLiteral("pwdch2"), 135173, 204800}};
    l.script = sfdiskScript(QStringLiteral("label: gpt\nfirst-lba: 34\n"), l.parts,
                            {kLinuxGuid, kLinuxGuid});
    return l;
}

Layout smallFat32Beyond()
{
    // 128 MiB of FAT32 gets 512-byte clusters from mkfs.fat, which libparted cannot resize: the
    // shrink is refused, and the ext4 behind it shifts up instead. Sizes are kept.
    Layout l = matrixLayout(QStringLiteral("fat32"), Room::Beyond, 262144);
    l.name = QStringLiteral("small-fat32-beyond");
    l.parts[0].shrinkBy = 0;
    return l;
}

Layout matrixLayout(const QString &fs, Room room, qint64 regionSectors)
{
    // Partition 1 fills 128 MiB up to a 1 MiB boundary (320 MiB for btrfs, which the kernel
    // resizes no smaller than 256 MiB, and FAT32, which libparted resizes only with clusters of
    // 4 KiB, which mkfs.fat gives it from 260 MiB up); partition 2 is an aligned 32 MiB ext4. Every
    // number follows from where the free space is.
    const qint64 kRegion = regionSectors > 0 ? regionSectors
                           : fs == QLatin1String("btrfs") || fs == QLatin1String("fat32") ? 655360
                                                                                          : 262144;
    constexpr qint64 kNeighbour = 65536;
    const bool shrinks = fs != QLatin1String("xfs") && fs != QLatin1String("exfat");
    const QString names[] = {QStringLiteral("after"), QStringLiteral("beyond"),
                             QStringLiteral("before"), QStringLiteral("none")};
    Layout l;
    l.name = QStringLiteral("matrix-%1-%2").arg(fs, names[int(room)]);
    const qint64 p1Start = room == Room::Before ? 3 * kGrainSectors + 63 : 63;
    const qint64 p1Size = kRegion - 63;
    qint64 p2Start = p1Start + p1Size; // right behind partition 1, on the grain
    if (room == Room::After)
        p2Start += kGrainSectors; // 1 MiB free between them
    l.parts = {
        {1, fs,
         fs.startsWith(QLatin1String("fat")) ? QStringLiteral("PWMX") : QStringLiteral("pwmx"),
         p1Start, p1Size},
        {2, QStringLiteral("ext4"), QStringLiteral("pwnext"), p2Start, kNeighbour}};
    l.diskSectors = p2Start + kNeighbour + (room == Room::Beyond ? 4 * kGrainSectors : 0);
    if ((room == Room::Beyond || room == Room::None) && shrinks)
        l.parts[0].shrinkBy = kGrainSectors - 63; // up to the grain, ending where it ended
    else if (room == Room::None) // the ext4 behind it shifts one grain and gives that up
        l.parts[1].shrinkBy = kGrainSectors;
    const QString type = fs == QLatin1String("swap")    ? QStringLiteral("82")
                         : fs == QLatin1String("fat16") ? QStringLiteral("6")
                         : fs == QLatin1String("fat32") ? QStringLiteral("c")
                         : fs == QLatin1String("ntfs") || fs == QLatin1String("exfat")
                             ? QStringLiteral("7")
                             : QStringLiteral("83");
    l.script = sfdiskScript(QStringLiteral("label: dos\n"), l.parts, {type, QStringLiteral("83")});
    return l;
}

Layout mbrExtendedMoves()
{
    // XFS at 63 right before an extended partition with two aligned ext4 logical partitions;
    // free space only after the extended one. XFS cannot shrink, so the whole extended partition
    // shifts up one grain with both logical partitions and their EBRs.
    Layout l;
    l.name = QStringLiteral("mbr-extended-moves");
    l.diskSectors = 471040;
    l.extendedMayMove = true;
    l.parts = {{1, QStringLiteral("xfs"), QStringLiteral("pwxext"), 63, 262081},
               {2, QString(), QString(), 262144, 200704},
               {5, QStringLiteral("ext4"), QStringLiteral("pwlog5"), 264192, 98304},
               {6, QStringLiteral("ext4"), QStringLiteral("pwlog6"), 364544, 98304}};
    l.script = sfdiskScript(
        QStringLiteral("label: dos\n"), l.parts,
        {QStringLiteral("83"), QStringLiteral("5"), QStringLiteral("83"), QStringLiteral("83")});
    return l;
}

Layout mbrTightLogicals()
{
    // Old fdisk style: logical partitions 63 sectors after their EBRs, filling the extended
    // partition to its end, free space only after it. NTFS moves up into the gap the ext4
    // behind it leaves once that one has been shrunk onto the grain.
    Layout l;
    l.name = QStringLiteral("mbr-tight-logicals");
    l.diskSectors = 135168 + 4096;
    l.parts = {
        {1, QString(), QString(), 2048, 133120},
        {5, QStringLiteral("ntfs"), QStringLiteral("pwtln"), 2111, 65473},
        {6, QStringLiteral("ext4"), QStringLiteral("pwtle"), 67647, 67521, kGrainSectors - 63}};
    l.script = sfdiskScript(QStringLiteral("label: dos\n"), l.parts,
                            {QStringLiteral("5"), QStringLiteral("7"), QStringLiteral("83")});
    return l;
}

bool copySparse(const QString &from, const QString &to, QString *error)
{
    QFile::remove(to);
    const ToolResult r =
        runTool(QStringLiteral("cp"), {QStringLiteral("--sparse=always"), from, to});
    if (!r.ok())
        *error = r.describe();
    return r.ok();
}

QString journalOf(const QString &image)
{
    return image + QStringLiteral(".partwise-move.realign");
}

QString sysfsStart(const QString &loop, int number)
{
    const QString name = QFileInfo(loop).fileName();
    QFile f(QStringLiteral("/sys/block/%1/%1p%2/start").arg(name).arg(number));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll().trimmed()) : QString();
}

void detachLoopsOf(const QString &image)
{
    const ToolResult r = runTool(QStringLiteral("losetup"), {QStringLiteral("-j"), image});
    for (const QByteArray &line : r.out.split('\n')) {
        const QByteArray device = line.left(line.indexOf(':'));
        if (device.startsWith("/dev/loop"))
            runTool(QStringLiteral("losetup"), {QStringLiteral("-d"), QString::fromUtf8(device)});
    }
}

qint64 fatHiddenSectors(const QString &node)
{
    const ToolResult r = runTool(QStringLiteral("env"),
                                 {QStringLiteral("MTOOLS_SKIP_CHECK=1"), QStringLiteral("minfo"),
                                  QStringLiteral("-i"), node, QStringLiteral("::")});
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("hidden sectors: (\\d+)"))
                                          .match(QString::fromUtf8(r.out));
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

} // namespace pwtest
