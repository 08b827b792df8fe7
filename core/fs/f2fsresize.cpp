#include "fs/f2fsresize.h"

#include "device/topologyprobe.h"
#include "fs/resizesupport.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <optional>

namespace partwise {

namespace {

const QString kPackage = QStringLiteral("f2fs-tools");

struct F2fsSuper
{
    qint64 blockSize = 0;
    qint64 blockCount = 0;
    qint64 segmentBytes = 0;
    qint64 segment0Bytes = 0; // where the segments start
    qint64 bytes() const { return blockCount * blockSize; }
};

// The superblock as dump.f2fs prints it ("block_count    [0x c500 : 50432]").
std::optional<F2fsSuper> readSuper(const QString &node, QString *error)
{
    const ToolResult r = runTool(QStringLiteral("dump.f2fs"),
                                 {QStringLiteral("-d"), QStringLiteral("1"), node}, kPackage);
    if (!r.ok) {
        *error = r.error;
        return std::nullopt;
    }
    auto field = [&](const char *name) -> qint64 {
        const QRegularExpression re(
            QStringLiteral("^%1\\s+\\[0x\\s*[0-9a-f]+ : (\\d+)\\]").arg(QLatin1String(name)),
            QRegularExpression::MultilineOption);
        const QRegularExpressionMatch m = re.match(r.output);
        return m.hasMatch() ? m.captured(1).toLongLong() : -1;
    };
    const qint64 logBlock = field("log_blocksize");
    const qint64 logPerSeg = field("log_blocks_per_seg");
    const qint64 count = field("block_count");
    const qint64 seg0 = field("segment0_blkaddr");
    if (logBlock < 9 || logBlock > 16 || logPerSeg < 0 || logPerSeg > 16 || count <= 0 ||
        seg0 < 0) {
        *error = QStringLiteral("dump.f2fs printed no readable superblock for %1.").arg(node);
        return std::nullopt;
    }
    F2fsSuper s;
    s.blockSize = qint64(1) << logBlock;
    s.blockCount = count;
    s.segmentBytes = s.blockSize << logPerSeg;
    s.segment0Bytes = seg0 * s.blockSize;
    return s;
}

// The sectors resize.f2fs -t counts: the device's, or 512 bytes in a regular file (the
// partition's file without root), which f2fs-tools measure in their default sector size.
qint64 logicalSectorSize(const QString &node)
{
    if (QFileInfo(node).isFile())
        return 512;
    SectorTopology topology;
    return probeBlockDeviceTopology(node, &topology, nullptr) ? topology.logicalSectorSize : -1;
}

ToolResult check(const QString &node)
{
    return runTool(QStringLiteral("fsck.f2fs"),
                   {QStringLiteral("--dry-run"), QStringLiteral("-f"), node}, kPackage);
}

// resize.f2fs in safe mode, to `sectors` of the device's sectors.
ToolResult runResize(const QString &node, qint64 sectors)
{
    const QStringList args{QStringLiteral("-s"), QStringLiteral("-t"), QString::number(sectors),
                           node};
    ToolResult r = runTool(QStringLiteral("resize.f2fs"), args, kPackage);
    // Newer f2fs-tools ask for confirmation unless -F (which 1.15 does not know).
    if (r.output.contains(QLatin1String("Do you want to continue")))
        r = runTool(QStringLiteral("resize.f2fs"), QStringList{QStringLiteral("-F")} + args,
                    kPackage);
    return r;
}

// resize.f2fs exits 0 when it cannot shrink: the superblock and a fresh check say what it did.
ToolResult judgeShrink(const QString &node, qint64 newBytes, ToolResult resized)
{
    QString error;
    const std::optional<F2fsSuper> after = readSuper(node, &error);
    if (!after)
        return ToolResult::failed(error);
    if (after->bytes() > newBytes)
        return ToolResult::failed(
            QStringLiteral("resize.f2fs could not shrink the F2FS filesystem to %1 bytes (it stays "
                           "%2 bytes): safe resize needs enough free segments below the new end. "
                           "%3")
                .arg(newBytes)
                .arg(after->bytes())
                .arg(lastLines(resized.output)));
    const ToolResult verify = check(node);
    if (!verify.ok)
        return ToolResult::failed(QStringLiteral("resize.f2fs shrank the F2FS filesystem, but "
                                                 "fsck.f2fs now reports problems: %1")
                                      .arg(lastLines(verify.output)));
    resized.output += QStringLiteral("\nF2FS is now %1 bytes").arg(after->bytes());
    return resized;
}

ToolResult shrinkOnNode(const QString &node, qint64 newBytes)
{
    const ToolResult before = check(node);
    if (!before.ok)
        return refuseUnlessClean(before,
                                 QStringLiteral("fsck.f2fs reports problems on this F2FS "
                                                "filesystem, so it was not resized; repair it "
                                                "first (fsck.f2fs -f): %1")
                                     .arg(lastLines(before.output)));
    QString error;
    const std::optional<F2fsSuper> super = readSuper(node, &error);
    if (!super)
        return ToolResult::failed(error);
    if (newBytes == super->bytes())
        return ToolResult::succeeded(QStringLiteral("the F2FS filesystem already has this size"));
    if (newBytes > super->bytes())
        return ToolResult::failed(QStringLiteral("Partwise shrinks F2FS but does not grow it; "
                                                 "grow it with resize.f2fs."));
    // The filesystem keeps whole segments only. Ending the new size on one keeps resize.f2fs
    // from counting a segment that does not fit: it places segments by the start sector of the
    // device it is given, which for a loop device over a partition is 0, not the partition's.
    const qint64 target = super->segment0Bytes + (newBytes - super->segment0Bytes) /
                                                     super->segmentBytes * super->segmentBytes;
    const qint64 ss = logicalSectorSize(node);
    if (ss <= 0 || target % ss != 0 || target <= super->segment0Bytes)
        return ToolResult::failed(
            QStringLiteral("Cannot shrink the F2FS filesystem on %1 to %2 bytes.")
                .arg(node)
                .arg(newBytes));
    const ToolResult resized = runResize(node, target / ss);
    if (!resized.ok)
        return resized;
    return judgeShrink(node, newBytes, resized);
}

} // namespace

ToolResult resizeF2fsFilesystem(const FilesystemLocation &where, qint64 partitionBytes,
                                qint64 newBytes)
{
    return onFilesystemNode(where, std::max(partitionBytes, newBytes), false,
                            [&](const QString &node) { return shrinkOnNode(node, newBytes); });
}

} // namespace partwise
