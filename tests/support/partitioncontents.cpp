#include "partitioncontents.h"

#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "toolrun.h"

#include <QFile>

#include <sys/stat.h>

namespace pwtest {

QMap<int, PartitionContents> partitionContents(const QString &image, int sectorSize,
                                               const SfdiskTable &table, QStringList *problems)
{
    QMap<int, PartitionContents> out;
    LoopDevice loop(image, sectorSize, true);
    if (!loop.ok() || !loop.addPartitions()) {
        *problems << loop.error();
        return out;
    }
    for (const SfdiskPartition &p : table.partitions) {
        const QString node = loop.partitionNode(p.number);
        const ToolResult type =
            runTool(QStringLiteral("blkid"),
                    {QStringLiteral("-p"), QStringLiteral("-o"), QStringLiteral("value"),
                     QStringLiteral("-s"), QStringLiteral("TYPE"), node});
        PartitionContents c;
        c.fs = QString::fromUtf8(type.out).trimmed();
        if (c.fs.isEmpty())
            continue; // an extended partition
        const ToolResult check = checkFilesystemReadOnly(node, c.fs);
        if (!check.ok())
            *problems << QStringLiteral("partition %1 (%2): %3")
                             .arg(p.number)
                             .arg(c.fs, check.describe() + QString::fromUtf8(check.out));
        if (c.fs != QLatin1String("swap")) {
            QString error;
            c.files = filesystemTreeSha256(node, c.fs, &error);
            if (!error.isEmpty() || c.files.isEmpty())
                *problems << QStringLiteral("partition %1 (%2): no files read: %3")
                                 .arg(p.number)
                                 .arg(c.fs, error);
        }
        out.insert(p.number, c);
    }
    return out;
}

QStringList contentsDiffer(const QMap<int, PartitionContents> &before,
                           const QMap<int, PartitionContents> &after)
{
    QStringList out;
    for (auto it = before.cbegin(); it != before.cend(); ++it) {
        if (!after.contains(it.key())) {
            out << QStringLiteral("partition %1 (%2) is gone").arg(it.key()).arg(it->fs);
            continue;
        }
        const PartitionContents &now = after[it.key()];
        if (now.fs != it->fs)
            out << QStringLiteral("partition %1 was %2, is %3").arg(it.key()).arg(it->fs, now.fs);
        for (const QString &file : compareTrees(it->files, now.files))
            out << QStringLiteral("partition %1: %2").arg(it.key()).arg(file);
    }
    for (auto it = after.cbegin(); it != after.cend(); ++it)
        if (!before.contains(it.key()))
            out << QStringLiteral("partition %1 (%2) is new").arg(it.key()).arg(it->fs);
    return out;
}

SfdiskTable tableWithSectorSize(const QString &image, int sectorSize)
{
    return sectorSize == 512 ? SfdiskTable::read(image)
                             : SfdiskTable::readWithSectorSize(image, sectorSize);
}

qint64 allocatedBytes(const QString &path)
{
    struct stat st;
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? qint64(st.st_blocks) * 512 : -1;
}

QStringList copyDiffers(const QString &source, const QString &copy, int sectorSize)
{
    QStringList problems;
    const auto before =
        partitionContents(source, sectorSize, tableWithSectorSize(source, sectorSize), &problems);
    const auto after =
        partitionContents(copy, sectorSize, tableWithSectorSize(copy, sectorSize), &problems);
    if (before.isEmpty())
        problems << QStringLiteral("%1: no partition with a filesystem was read").arg(source);
    return problems + contentsDiffer(before, after);
}

} // namespace pwtest
