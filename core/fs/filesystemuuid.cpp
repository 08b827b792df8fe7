#include "fs/filesystemuuid.h"

#include "fs/filesystemkinds.h"
#include "fs/resizesupport.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QUuid>

namespace partwise {

namespace {

bool isSerialFilesystem(const QString &filesystem)
{
    return isFatFilesystem(filesystem) || filesystem == QLatin1String("exfat");
}

// A FAT or exFAT volume serial, "XXXX-XXXX", as the tools take it: 8 hex digits.
QString serialDigits(const QString &uuid)
{
    return QString(uuid).remove(QLatin1Char('-')).toUpper();
}

// e2fsprogs reads at an offset inside a file itself. With metadata checksums tune2fs rewrites
// every one of them for a new UUID, and so takes only a filesystem checked since it was last
// mounted: any filesystem used since mkfs or its last check is refused ("requires a freshly
// checked filesystem"). A preen check first (-p: it repairs only what is safe without a person,
// and stops otherwise) records the check; Apply's read-only check has already found it clean.
ToolResult newExtUuid(const QString &name, const QString &uuid)
{
    const ToolResult check =
        runTool(QStringLiteral("e2fsck"), {QStringLiteral("-f"), QStringLiteral("-p"), name},
                QStringLiteral("e2fsprogs"));
    if (!check.ok)
        return check;
    return runTool(QStringLiteral("tune2fs"), {QStringLiteral("-U"), uuid, name},
                   QStringLiteral("e2fsprogs"));
}

} // namespace

QString randomFilesystemUuid(const QString &filesystem)
{
    if (isSerialFilesystem(filesystem)) {
        quint32 serial = 0;
        while (serial == 0)
            serial = QRandomGenerator::system()->generate();
        const QString hex = QStringLiteral("%1").arg(serial, 8, 16, QLatin1Char('0')).toUpper();
        return hex.left(4) + QLatin1Char('-') + hex.mid(4);
    }
    if (filesystem == QLatin1String("ntfs")) {
        quint64 serial = 0;
        while (serial == 0)
            serial = QRandomGenerator::system()->generate64();
        return QStringLiteral("%1").arg(serial, 16, 16, QLatin1Char('0')).toUpper();
    }
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

bool fitsFilesystemUuid(const QString &filesystem, const QString &uuid)
{
    // \A and \z, not ^ and $: "$" also matches before a final newline.
    static const QRegularExpression serial(QStringLiteral("\\A[0-9A-F]{4}-[0-9A-F]{4}\\z"));
    static const QRegularExpression ntfs(QStringLiteral("\\A[0-9A-F]{16}\\z"));
    static const QRegularExpression rfc(
        QStringLiteral("\\A[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\z"));
    const QRegularExpression &form = isSerialFilesystem(filesystem)        ? serial
                                     : filesystem == QLatin1String("ntfs") ? ntfs
                                                                           : rfc;
    static const QRegularExpression zeros(QStringLiteral("\\A[0-]*\\z"));
    return form.match(uuid).hasMatch() && !zeros.match(uuid).hasMatch();
}

bool fitsSomeFilesystemUuid(const QString &uuid)
{
    return fitsFilesystemUuid(QStringLiteral("vfat"), uuid) ||
           fitsFilesystemUuid(QStringLiteral("ntfs"), uuid) ||
           fitsFilesystemUuid(QStringLiteral("ext4"), uuid);
}

bool canChangeFilesystemUuid(const QString &filesystem)
{
    static const QStringList kinds{QStringLiteral("xfs"), QStringLiteral("btrfs"),
                                   QStringLiteral("ntfs"), QStringLiteral("exfat"),
                                   QStringLiteral("swap")};
    return isExtFilesystem(filesystem) || isFatFilesystem(filesystem) || kinds.contains(filesystem);
}

ToolResult newFilesystemUuid(const FilesystemLocation &where, qint64 partitionBytes,
                             const QString &filesystem, const QString &given)
{
    if (!canChangeFilesystemUuid(filesystem))
        return ToolResult::failed(
            QStringLiteral("Partwise cannot give a %1 filesystem a new UUID.").arg(filesystem));
    const QString uuid = given.isEmpty() ? randomFilesystemUuid(filesystem) : given;
    if (!fitsFilesystemUuid(filesystem, uuid))
        return ToolResult::failed(QStringLiteral("\"%1\" is not a UUID for a %2 filesystem.")
                                      .arg(uuid.left(64), filesystem));
    if (isExtFilesystem(filesystem))
        return newExtUuid(e2fsprogsName(where), uuid);
    return onFilesystemNode(where, partitionBytes, false, [&](const QString &node) {
        if (filesystem == QLatin1String("xfs"))
            return runTool(QStringLiteral("xfs_db"), // not xfs_admin, a shell script
                           {QStringLiteral("-x"), QStringLiteral("-p"), QStringLiteral("xfs_admin"),
                            QStringLiteral("-c"), QStringLiteral("uuid ") + uuid, node},
                           QStringLiteral("xfsprogs"));
        if (filesystem == QLatin1String("btrfs"))
            return runTool(QStringLiteral("btrfstune"),
                           {QStringLiteral("-f"), QStringLiteral("-U"), uuid, node},
                           QStringLiteral("btrfs-progs"));
        if (filesystem == QLatin1String("ntfs"))
            return runTool(QStringLiteral("ntfslabel"),
                           {QStringLiteral("--new-serial=") + uuid, QStringLiteral("-f"), node},
                           QStringLiteral("ntfs-3g"));
        if (filesystem == QLatin1String("exfat"))
            return runTool(QStringLiteral("tune.exfat"),
                           {QStringLiteral("-I"), QStringLiteral("0x") + serialDigits(uuid), node},
                           QStringLiteral("exfatprogs"));
        if (filesystem == QLatin1String("swap"))
            return runTool(QStringLiteral("swaplabel"), {QStringLiteral("-U"), uuid, node},
                           QStringLiteral("util-linux"));
        // FAT: mlabel sets the serial together with the label, so the label is read first and
        // given back (an empty one stays empty).
        const ToolResult shown =
            runTool(QStringLiteral("mlabel"),
                    {QStringLiteral("-s"), QStringLiteral("-i"), node, QStringLiteral("::")},
                    QStringLiteral("mtools"));
        if (!shown.ok)
            return shown;
        // mtools may warn first (geometry), so the label's own line is looked for.
        QString label;
        const QString prefix = QStringLiteral("Volume label is ");
        for (const QString &line : shown.output.split(QLatin1Char('\n')))
            if (const qsizetype at = line.indexOf(prefix); at >= 0)
                label = line.mid(at + prefix.size()).trimmed();
        if (label.contains(QLatin1String("(abbr=")))
            label = label.section(QStringLiteral(" (abbr="), 0, 0).trimmed();
        QStringList args{QStringLiteral("-i"), node, QStringLiteral("-N"), serialDigits(uuid)};
        if (label.isEmpty() || label == QLatin1String("NO NAME"))
            args << QStringLiteral("-c") << QStringLiteral("::");
        else
            args << QStringLiteral("::") + label;
        return runTool(QStringLiteral("mlabel"), args, QStringLiteral("mtools"));
    });
}

} // namespace partwise
