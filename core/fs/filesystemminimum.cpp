#include "fs/filesystemminimum.h"

#include "base/toolrunner.h"
#include "fs/fatresize.h"
#include "fs/filesystemkinds.h"
#include "fs/filesystemresize.h"
#include "fs/sessionabilities.h"

#include <QRegularExpression>

namespace partwise {

std::optional<qint64> filesystemMinimumBytes(const FilesystemLocation &where, const QString &fs)
{
    if (isFatFilesystem(fs)) {
        // libparted's resizer, the one that shrinks it, says how far it goes (its cluster counts).
        const std::optional<qint64> size = filesystemSizeBytes(where, fs);
        return size ? fatMinimumBytes(where, *size) : std::nullopt;
    }
    if (fs == QLatin1String("btrfs"))
        return kBtrfsMinimumBytes; // the kernel's floor; it refuses less room than the data needs
    if (!fs.startsWith(QLatin1String("ext")))
        return std::nullopt;
    const QString name = e2fsprogsName(where);
    const ToolResult blocks = runTool(QStringLiteral("resize2fs"), {QStringLiteral("-P"), name},
                                      QStringLiteral("e2fsprogs"), 60 * 1000);
    const ToolResult header = runTool(QStringLiteral("dumpe2fs"), {QStringLiteral("-h"), name},
                                      QStringLiteral("e2fsprogs"), 60 * 1000);
    if (!blocks.ok || !header.ok)
        return std::nullopt;
    const QRegularExpressionMatch count =
        QRegularExpression(QStringLiteral("minimum size of the filesystem:\\s*(\\d+)"))
            .match(blocks.output);
    const QRegularExpressionMatch size =
        QRegularExpression(QStringLiteral("^Block size:\\s+(\\d+)"),
                           QRegularExpression::MultilineOption)
            .match(header.output);
    if (!count.hasMatch() || !size.hasMatch())
        return std::nullopt;
    return count.captured(1).toLongLong() * size.captured(1).toLongLong();
}

std::optional<qint64> filesystemShrinkLimitBytes(const FilesystemLocation &where, const QString &fs)
{
    return filesystemCanShrink(fs) ? filesystemMinimumBytes(where, fs)
                                   : filesystemSizeBytes(where, fs);
}

} // namespace partwise
