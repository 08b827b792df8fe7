#include "fs/filesystemsupport.h"

#include "base/toolrunner.h"
#include "fs/filesystemformatter.h"

namespace partwise {

namespace {

SupportCell cell(QList<ToolNeed> tools, const QString &note = {})
{
    SupportCell c;
    c.supported = true;
    c.tools = std::move(tools);
    c.note = note;
    return c;
}

SupportCell none(const QString &note)
{
    SupportCell c;
    c.note = note;
    return c;
}

// The moved data is copied by Partwise's own mover; the filesystem's read-only check runs
// before and after, so moving needs the check's program.
SupportCell movedWith(const ToolNeed &check)
{
    return cell({check}, QStringLiteral("copied by Partwise, checked before and after"));
}

SupportCell extSupport(const QString &fs, FilesystemAction a)
{
    const ToolNeed e2fsck{QStringLiteral("e2fsck"), QStringLiteral("e2fsprogs")};
    const ToolNeed resize{QStringLiteral("resize2fs"), QStringLiteral("e2fsprogs")};
    switch (a) {
    case FilesystemAction::Create:
        return cell({{QStringLiteral("mkfs.") + fs, QStringLiteral("e2fsprogs")}});
    case FilesystemAction::Label:
        return cell({{QStringLiteral("e2label"), QStringLiteral("e2fsprogs")}});
    case FilesystemAction::Check:
    case FilesystemAction::Repair:
        return cell({e2fsck});
    case FilesystemAction::Grow:
    case FilesystemAction::Shrink:
        return cell({resize, e2fsck});
    case FilesystemAction::Move:
        return movedWith(e2fsck);
    case FilesystemAction::UsedBlocks:
        return cell({{QString(), QStringLiteral("libext2fs2")}}, QStringLiteral("block bitmap"));
    case FilesystemAction::NewUuid:
        return cell({{QStringLiteral("tune2fs"), QStringLiteral("e2fsprogs")}});
    }
    return {};
}

// The filesystems whose used blocks come from partclone's map, and its program for each.
QString partcloneProgram(const QString &fs)
{
    if (fs == QLatin1String("vfat"))
        return QStringLiteral("partclone.fat");
    return QStringLiteral("partclone.") + fs;
}

SupportCell otherSupport(const QString &fs, FilesystemAction a)
{
    // What Partwise runs for each: an empty resizer with `shrinks` is done inside Partwise
    // (libparted's FAT resizer). The notes say how, or why not.
    struct Tools
    {
        QString package, mkfs, label, check, resize, uuid, uuidPackage;
        bool grows, shrinks;
        QString growNote, shrinkNote;
    };
    static const QList<QPair<QString, Tools>> table{
        {QStringLiteral("xfs"),
         {QStringLiteral("xfsprogs"),
          QStringLiteral("mkfs.xfs"),
          QStringLiteral("xfs_db"),
          QStringLiteral("xfs_repair"),
          {},
          QStringLiteral("xfs_db"),
          QStringLiteral("xfsprogs"),
          false,
          false,
          QStringLiteral("XFS grows only while mounted: run xfs_growfs on it afterwards"),
          QStringLiteral("XFS has no way to shrink")}},
        {QStringLiteral("btrfs"),
         {QStringLiteral("btrfs-progs"), QStringLiteral("mkfs.btrfs"), QStringLiteral("btrfs"),
          QStringLiteral("btrfs"), QStringLiteral("btrfs"), QStringLiteral("btrfstune"),
          QStringLiteral("btrfs-progs"), false, true,
          QStringLiteral("btrfs grows only while mounted: run \u201cbtrfs filesystem resize "
                         "max\u201d on it afterwards"),
          QStringLiteral("mounted privately under /run for the resize, by an administrator; "
                         "never below 256 MiB")}},
        {QStringLiteral("vfat"),
         {QStringLiteral("dosfstools"),
          QStringLiteral("mkfs.fat"),
          QStringLiteral("fatlabel"),
          QStringLiteral("fsck.fat"),
          {},
          QStringLiteral("mlabel"),
          QStringLiteral("mtools"),
          false,
          true,
          QStringLiteral("Partwise does not grow FAT"),
          QStringLiteral("libparted's FAT resizer (FAT16 and FAT32)")}},
        {QStringLiteral("ntfs"),
         {QStringLiteral("ntfs-3g"),
          QStringLiteral("mkntfs"),
          QStringLiteral("ntfslabel"),
          QStringLiteral("ntfsfix"),
          QStringLiteral("ntfsresize"),
          QStringLiteral("ntfslabel"),
          QStringLiteral("ntfs-3g"),
          true,
          true,
          {},
          {}}},
        {QStringLiteral("exfat"),
         {QStringLiteral("exfatprogs"),
          QStringLiteral("mkfs.exfat"),
          QStringLiteral("exfatlabel"),
          QStringLiteral("fsck.exfat"),
          {},
          QStringLiteral("tune.exfat"),
          QStringLiteral("exfatprogs"),
          false,
          false,
          QStringLiteral("exfatprogs has no resizer"),
          QStringLiteral("exfatprogs has no resizer")}},
        {QStringLiteral("f2fs"),
         {QStringLiteral("f2fs-tools"),
          QStringLiteral("mkfs.f2fs"),
          QStringLiteral("f2fslabel"),
          QStringLiteral("fsck.f2fs"),
          QStringLiteral("resize.f2fs"),
          {},
          {},
          false,
          true,
          QStringLiteral("Partwise shrinks F2FS but does not grow it: grow it with resize.f2fs"),
          {}}},
    };
    for (const auto &[name, t] : table) {
        if (name != fs)
            continue;
        const ToolNeed check{t.check, t.package};
        switch (a) {
        case FilesystemAction::Create:
            return cell({{t.mkfs, t.package}});
        case FilesystemAction::Label:
            return cell({{t.label, t.package}});
        case FilesystemAction::Check:
        case FilesystemAction::Repair:
            return cell({check});
        case FilesystemAction::Grow:
        case FilesystemAction::Shrink: {
            const bool grow = a == FilesystemAction::Grow;
            const QString &note = grow ? t.growNote : t.shrinkNote;
            if (!(grow ? t.grows : t.shrinks))
                return none(note);
            QList<ToolNeed> tools{check};
            if (!t.resize.isEmpty())
                tools.prepend({t.resize, t.package});
            return cell(tools, note);
        }
        case FilesystemAction::Move:
            return movedWith(check);
        case FilesystemAction::UsedBlocks:
            return cell({{partcloneProgram(fs), QStringLiteral("partclone")}},
                        QStringLiteral("partclone's map of used blocks"));
        case FilesystemAction::NewUuid:
            if (t.uuid.isEmpty())
                return none(QStringLiteral("no tool gives F2FS a new UUID"));
            return cell({{t.uuid, t.uuidPackage}});
        }
    }
    return {};
}

SupportCell swapSupport(FilesystemAction a)
{
    const ToolNeed mkswap{QStringLiteral("mkswap"), QStringLiteral("util-linux")};
    switch (a) {
    case FilesystemAction::Create:
        return cell({mkswap});
    case FilesystemAction::Label:
        return cell({{QStringLiteral("swaplabel"), QStringLiteral("util-linux")}});
    case FilesystemAction::Check:
    case FilesystemAction::Repair:
        return none(QStringLiteral("swap holds nothing to check"));
    case FilesystemAction::Grow:
    case FilesystemAction::Shrink:
    case FilesystemAction::Move:
        return cell({mkswap}, QStringLiteral("recreated with its UUID and label"));
    case FilesystemAction::UsedBlocks:
        return cell({}, QStringLiteral("nothing is copied"));
    case FilesystemAction::NewUuid:
        return cell({{QStringLiteral("swaplabel"), QStringLiteral("util-linux")}});
    }
    return {};
}

} // namespace

QList<FilesystemAction> allFilesystemActions()
{
    return {FilesystemAction::Create, FilesystemAction::Label,      FilesystemAction::Check,
            FilesystemAction::Repair, FilesystemAction::Grow,       FilesystemAction::Shrink,
            FilesystemAction::Move,   FilesystemAction::UsedBlocks, FilesystemAction::NewUuid};
}

QString filesystemActionName(FilesystemAction action)
{
    switch (action) {
    case FilesystemAction::Create:
        return QStringLiteral("create");
    case FilesystemAction::Label:
        return QStringLiteral("label");
    case FilesystemAction::Check:
        return QStringLiteral("check");
    case FilesystemAction::Repair:
        return QStringLiteral("repair");
    case FilesystemAction::Grow:
        return QStringLiteral("grow");
    case FilesystemAction::Shrink:
        return QStringLiteral("shrink");
    case FilesystemAction::Move:
        return QStringLiteral("move");
    case FilesystemAction::UsedBlocks:
        return QStringLiteral("copy used blocks only");
    case FilesystemAction::NewUuid:
        return QStringLiteral("new UUID");
    }
    return {};
}

QString filesystemShownName(const QString &fs)
{
    if (fs == QLatin1String("vfat"))
        return QStringLiteral("FAT");
    if (fs == QLatin1String("ntfs") || fs == QLatin1String("xfs") || fs == QLatin1String("f2fs"))
        return fs.toUpper();
    if (fs == QLatin1String("exfat"))
        return QStringLiteral("exFAT");
    return fs;
}

QStringList supportedFilesystemNames()
{
    return {QStringLiteral("ext4"), QStringLiteral("ext3"),  QStringLiteral("ext2"),
            QStringLiteral("xfs"),  QStringLiteral("btrfs"), QStringLiteral("vfat"),
            QStringLiteral("ntfs"), QStringLiteral("exfat"), QStringLiteral("f2fs"),
            QStringLiteral("swap")};
}

SupportCell filesystemSupport(const QString &fs, FilesystemAction action)
{
    SupportCell c = fs.startsWith(QLatin1String("ext")) ? extSupport(fs, action)
                    : fs == QLatin1String("swap")       ? swapSupport(action)
                                                        : otherSupport(fs, action);
    for (const ToolNeed &t : c.tools)
        if (!t.program.isEmpty() && findTool(t.program).isEmpty() && !c.missing.contains(t.package))
            c.missing << t.package;
    return c;
}

QStringList creatableHere()
{
    QStringList here;
    for (const QString &fs : formattableFilesystems()) {
        // fat16 and fat32 are vfat made with a given FAT size.
        const QString base = fs.startsWith(QLatin1String("fat")) ? QStringLiteral("vfat") : fs;
        if (filesystemSupport(base, FilesystemAction::Create).available())
            here << fs;
    }
    for (const QString &layer : {QStringLiteral("luks2"), QStringLiteral("lvm-pv")})
        if (!findTool(layer == QLatin1String("luks2") ? QStringLiteral("cryptsetup")
                                                      : QStringLiteral("pvcreate"))
                 .isEmpty())
            here << layer;
    return here;
}

} // namespace partwise
