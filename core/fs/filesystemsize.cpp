#include "fs/filesystemsize.h"

#include "base/toolrunner.h"

#include <QRegularExpression>

namespace partwise {

namespace {

std::optional<qint64> number(const QString &text, const QString &pattern)
{
    const QRegularExpressionMatch m =
        QRegularExpression(pattern, QRegularExpression::MultilineOption).match(text);
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    const qint64 v = m.captured(1).toLongLong(&ok);
    return ok ? std::optional<qint64>(v) : std::nullopt;
}

std::optional<qint64> product(const std::optional<qint64> &a, const std::optional<qint64> &b)
{
    return a && b ? std::optional<qint64>(*a * *b) : std::nullopt;
}

} // namespace

QString e2fsprogsName(const FilesystemLocation &where)
{
    return where.isImage ? QStringLiteral("%1?offset=%2").arg(where.path).arg(where.offset)
                         : where.path;
}

std::optional<qint64> filesystemSizeBytes(const FilesystemLocation &where, const QString &fs)
{
    if (fs.startsWith(QLatin1String("ext"))) {
        const ToolResult r =
            runTool(QStringLiteral("dumpe2fs"), {QStringLiteral("-h"), e2fsprogsName(where)});
        if (!r.ok)
            return std::nullopt;
        return product(number(r.output, QStringLiteral("^Block count:\\s+(\\d+)")),
                       number(r.output, QStringLiteral("^Block size:\\s+(\\d+)")));
    }
    if (fs == QLatin1String("vfat")) {
        // mtools reads FAT at an offset inside a file: "image@@offset".
        const QString target =
            where.isImage ? QStringLiteral("%1@@%2").arg(where.path).arg(where.offset) : where.path;
        const ToolResult r =
            runTool(QStringLiteral("minfo"), {QStringLiteral("-i"), target, QStringLiteral("::")});
        if (!r.ok)
            return std::nullopt;
        const auto sectorSize = number(r.output, QStringLiteral("^sector size:\\s+(\\d+)"));
        const auto big = number(r.output, QStringLiteral("^big size:\\s+(\\d+)"));
        const auto small = number(r.output, QStringLiteral("^small size:\\s+(\\d+)"));
        return product(big && *big > 0 ? big : small, sectorSize);
    }
    if (where.isImage)
        return std::nullopt; // the other tools need a device node
    if (fs == QLatin1String("xfs")) {
        const ToolResult r =
            runTool(QStringLiteral("xfs_db"),
                    {QStringLiteral("-r"), QStringLiteral("-c"), QStringLiteral("sb 0"),
                     QStringLiteral("-c"), QStringLiteral("p dblocks blocksize"), where.path});
        return product(number(r.output, QStringLiteral("^dblocks = (\\d+)")),
                       number(r.output, QStringLiteral("^blocksize = (\\d+)")));
    }
    if (fs == QLatin1String("btrfs")) {
        const ToolResult r =
            runTool(QStringLiteral("btrfs"),
                    {QStringLiteral("inspect-internal"), QStringLiteral("dump-super"), where.path});
        return number(r.output, QStringLiteral("^total_bytes\\s+(\\d+)"));
    }
    // NTFS is not measured: its backup boot sector lies past the last cluster (in the last
    // sector of the partition mkntfs or ntfsresize sized it for), and no tool prints where. The
    // clusters alone would leave it behind, so callers keep the whole partition.
    return std::nullopt;
}

} // namespace partwise
