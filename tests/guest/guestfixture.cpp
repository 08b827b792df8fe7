#include "guestfixture.h"

#include "filetree.h"
#include "fsfixture.h"
#include "guestdrives.h"
#include "toolrun.h"

#include <QDir>
#include <QFileInfo>

namespace pwtest {

QMap<int, QMap<QString, QByteArray>> buildLayout(const QString &disk, const QString &sfdiskScript,
                                                 const QList<GuestPartition> &parts,
                                                 const QString &scratch, QString *error)
{
    QMap<int, QMap<QString, QByteArray>> out;
    const ToolResult table =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), disk}, sfdiskScript.toUtf8());
    settleUdev();
    if (!table.ok()) {
        *error = table.describe();
        return {};
    }
    for (const GuestPartition &p : parts) {
        if (p.fs.isEmpty())
            continue;
        const QString node = partitionNode(disk, p.number);
        const QString tree = QDir(scratch).filePath(QStringLiteral("tree%1").arg(p.number));
        QDir(tree).removeRecursively();
        // FAT records where its partition starts (in 512-byte sectors on these disks).
        const qint64 hidden = p.fs == QLatin1String("vfat") ? kernelStart(node, 512) : 0;
        if (!makeFilesystem(node, p.fs, QStringLiteral("PW%1").arg(p.number), hidden, error))
            return {};
        if (p.fs == QLatin1String("swap"))
            continue;
        if (!makeFileTree(tree, p.files, p.largeBytes, quint32(p.number * 7919), error) ||
            !fillFilesystem(node, p.fs, tree, error)) {
            if (error->isEmpty())
                *error = QStringLiteral("cannot write files into %1").arg(node);
            return {};
        }
        out.insert(p.number, treeSha256(tree, error));
    }
    settleUdev();
    return out;
}

QStringList compareLayout(const QString &disk, const QList<GuestPartition> &parts,
                          const QMap<int, QMap<QString, QByteArray>> &expected)
{
    QStringList problems;
    for (const GuestPartition &p : parts) {
        if (p.fs.isEmpty())
            continue;
        const QString node = partitionNode(disk, p.number);
        const ToolResult check = checkFilesystemReadOnly(node, p.fs);
        if (!check.ok())
            problems << QStringLiteral("%1: %2").arg(node, check.describe());
        if (p.fs == QLatin1String("swap"))
            continue;
        QString error;
        const QMap<QString, QByteArray> now = filesystemTreeSha256(node, p.fs, &error);
        if (!error.isEmpty())
            problems << QStringLiteral("%1: %2").arg(node, error);
        for (const QString &d : compareTrees(expected.value(p.number), now))
            problems << QStringLiteral("%1: %2").arg(node, d);
    }
    return problems;
}

qint64 kernelStart(const QString &node, int logicalSectorSize)
{
    const ToolResult r =
        runTool(QStringLiteral("cat"),
                {QStringLiteral("/sys/class/block/%1/start").arg(QFileInfo(node).fileName())});
    if (!r.ok())
        return -1;
    return r.out.trimmed().toLongLong() * 512 / logicalSectorSize;
}

QByteArray deviceSha256(const QString &node)
{
    const ToolResult r = runTool(QStringLiteral("sha256sum"), {node}, {}, 600000);
    return r.ok() ? r.out.left(64) : QByteArray();
}

} // namespace pwtest
