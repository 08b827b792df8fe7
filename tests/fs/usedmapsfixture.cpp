#include "usedmapsfixture.h"

#include "toolrun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

using partwise::move::Extent;

namespace usedmaps {

QByteArray header(std::uint64_t total)
{
    return QByteArray("# Domain logfile created by unset_name v0.3.23\n# Source: /dev/loop0\n"
                      "# Offset: 0x00000000\n# current_pos  current_status\n") +
           QByteArray("0x") + QByteArray::number(qulonglong(total), 16).toUpper() +
           "     ?\n#      pos        size  status\n";
}

QByteArray run(std::uint64_t pos, std::uint64_t size, char status)
{
    return QStringLiteral("0x%1  0x%2  %3\n")
        .arg(pos, 8, 16, QLatin1Char('0'))
        .arg(size, 8, 16, QLatin1Char('0'))
        .arg(QLatin1Char(status))
        .toLatin1()
        .toUpper()
        .replace("0X", "0x");
}

bool covered(const std::vector<Extent> &extents, std::uint64_t offset, std::uint64_t length)
{
    for (const Extent &e : extents) {
        if (offset >= e.offset && offset + length <= e.offset + e.length)
            return true;
    }
    return false;
}

QString wellFormed(const std::vector<Extent> &extents, std::uint64_t size)
{
    std::uint64_t end = 0;
    for (std::size_t i = 0; i < extents.size(); ++i) {
        const Extent &e = extents[i];
        if (e.length == 0 || (i > 0 && e.offset <= end) || e.offset + e.length > size)
            return QStringLiteral("extent %1 (%2+%3) is empty, out of order or outside %4")
                .arg(i)
                .arg(e.offset)
                .arg(e.length)
                .arg(size);
        end = e.offset + e.length;
    }
    return {};
}

std::vector<Extent> without(const std::vector<Extent> &extents, std::uint64_t cut,
                            std::uint64_t length)
{
    std::vector<Extent> out;
    for (const Extent &e : extents) {
        const std::uint64_t end = e.offset + e.length;
        if (end <= cut || e.offset >= cut + length) {
            out.push_back(e);
            continue;
        }
        if (e.offset < cut)
            out.push_back({e.offset, cut - e.offset});
        if (end > cut + length)
            out.push_back({cut + length, end - cut - length});
    }
    return out;
}

bool overlaps(const std::vector<Extent> &extents, std::uint64_t offset, std::uint64_t length)
{
    for (const Extent &e : extents) {
        if (offset < e.offset + e.length && e.offset < offset + length)
            return true;
    }
    return false;
}

ExtLayout dumpe2fs(const QString &image, qint64 offset)
{
    ExtLayout layout;
    const pwtest::ToolResult r = pwtest::runTool(
        QStringLiteral("dumpe2fs"), {image + QStringLiteral("?offset=%1").arg(offset)});
    static const QRegularExpression number(QStringLiteral("(\\d+)"));
    for (const QString &line : QString::fromUtf8(r.out).split(QLatin1Char('\n'))) {
        const QString value = line.section(QLatin1Char(':'), 1).trimmed();
        if (line.startsWith(QLatin1String("Block size:")))
            layout.blockSize = value.toLongLong();
        else if (line.startsWith(QLatin1String("Inodes per group:")))
            layout.inodesPerGroup = value.toLongLong();
        else if (line.startsWith(QLatin1String("Inode size:")))
            layout.inodeSize = value.toLongLong();
        else if (line.startsWith(QLatin1String("Group descriptor size:")))
            layout.descriptorSize = value.toLongLong();
        else if (line.startsWith(QLatin1String("Group "))) {
            ExtGroup group;
            group.inodeUninit = line.contains(QLatin1String("INODE_UNINIT"));
            group.blockUninit = line.contains(QLatin1String("BLOCK_UNINIT"));
            group.checksumBad = line.contains(QLatin1String("EXPECTED"));
            layout.groups.push_back(group);
        } else if (!layout.groups.empty()) {
            ExtGroup &group = layout.groups.back();
            const QString trimmed = line.trimmed();
            const QString first = number.match(trimmed).captured(1);
            if (trimmed.startsWith(QLatin1String("Block bitmap at ")))
                group.blockBitmap = first.toLongLong();
            else if (trimmed.startsWith(QLatin1String("Inode bitmap at ")))
                group.inodeBitmap = first.toLongLong();
            else if (trimmed.startsWith(QLatin1String("Inode table at "))) {
                const QString range = trimmed.section(QLatin1Char(' '), 3, 3);
                group.tableFirst = range.section(QLatin1Char('-'), 0, 0).toLongLong();
                group.tableLast = range.section(QLatin1Char('-'), 1, 1).toLongLong();
            } else if (trimmed.endsWith(QLatin1String(" unused inodes")))
                group.unusedInodes = trimmed.section(QLatin1Char(','), -1)
                                         .trimmed()
                                         .section(QLatin1Char(' '), 0, 0)
                                         .toLongLong();
        }
    }
    return layout;
}

qint64 makeLazyExt4(const QString &image, qint64 imageBytes, const QString &tree,
                    const QStringList &features, QString *error)
{
    QFile::remove(image);
    {
        QFile file(image);
        if (!file.open(QIODevice::WriteOnly) || !file.resize(imageBytes)) {
            *error = file.errorString();
            return 0;
        }
    }
    const pwtest::ToolResult table =
        pwtest::runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                        "label: gpt\nfirst-lba: 34\nstart=34, type=linux\n");
    // sfdisk ends the partition on its grain: its size as sfdisk reports it.
    const pwtest::ToolResult listed =
        pwtest::runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), image});
    const QJsonObject partition = QJsonDocument::fromJson(listed.out)
                                      .object()
                                      .value(QStringLiteral("partitiontable"))
                                      .toObject()
                                      .value(QStringLiteral("partitions"))
                                      .toArray()
                                      .at(0)
                                      .toObject();
    const qint64 partitionBytes = partition.value(QStringLiteral("size")).toInteger() * 512;
    if (partition.value(QStringLiteral("start")).toInteger() != 34 || partitionBytes <= 0) {
        *error = QStringLiteral("sfdisk made no partition at sector 34: ") + listed.describe();
        return 0;
    }
    QStringList args{QStringLiteral("-q"), QStringLiteral("-F"),
                     QStringLiteral("-t"), QStringLiteral("ext4"),
                     QStringLiteral("-b"), QStringLiteral("4096"),
                     QStringLiteral("-E"), QStringLiteral("lazy_itable_init=1,offset=17408"),
                     QStringLiteral("-J"), QStringLiteral("size=8"),
                     QStringLiteral("-d"), tree};
    for (const QString &feature : features)
        args << QStringLiteral("-O") << feature;
    const pwtest::ToolResult mkfs =
        pwtest::runTool(QStringLiteral("mke2fs"),
                        args << image << QStringLiteral("%1k").arg(partitionBytes / 4096 * 4));
    if (!table.ok() || !mkfs.ok()) {
        *error = table.describe() + mkfs.describe();
        return 0;
    }
    return partitionBytes;
}

} // namespace usedmaps
