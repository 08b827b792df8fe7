#include "ops/operation.h"

#include "base/humansize.h"
#include "ops/identityfollow.h"

namespace partwise {

QString operationTypeName(Operation::Type type)
{
    switch (type) {
    case Operation::Type::NewTable:
        return QStringLiteral("new-table");
    case Operation::Type::Create:
        return QStringLiteral("create");
    case Operation::Type::Delete:
        return QStringLiteral("delete");
    case Operation::Type::Format:
        return QStringLiteral("format");
    case Operation::Type::SetLabel:
        return QStringLiteral("label");
    case Operation::Type::SetName:
        return QStringLiteral("name");
    case Operation::Type::SetFlag:
        return QStringLiteral("flag");
    case Operation::Type::Check:
        return QStringLiteral("check");
    case Operation::Type::Resize:
        return QStringLiteral("resize");
    case Operation::Type::Paste:
        return QStringLiteral("paste");
    case Operation::Type::NewUuid:
        return QStringLiteral("new-uuid");
    case Operation::Type::NewPartitionGuid:
        return QStringLiteral("new-partition-guid");
    }
    return QString();
}

namespace {

QString unsafeText(const QString &text, const char *what)
{
    if (text.startsWith(QLatin1Char('-')))
        return QStringLiteral("\"%1\" must not start with '-'").arg(QLatin1String(what));
    for (const QChar c : text) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || c == QLatin1Char('\'') ||
            c == QLatin1Char('"') || c == QLatin1Char('`') || c == QLatin1Char('$') ||
            c == QLatin1Char('\\'))
            return QStringLiteral("\"%1\" must not hold quotes, backticks, '$', backslashes or "
                                  "control characters")
                .arg(QLatin1String(what));
    }
    return {};
}

} // namespace

QString Operation::textProblem() const
{
    if (const QString problem = unsafeText(label, "label"); !problem.isEmpty())
        return problem;
    if (const QString problem = unsafeText(oldLabel, "old_label"); !problem.isEmpty())
        return problem;
    return unsafeText(name, "name");
}

bool Operation::changesTable() const
{
    return type == Type::NewTable || type == Type::Create || type == Type::Delete ||
           type == Type::SetName || type == Type::SetFlag || type == Type::Resize ||
           type == Type::Paste || type == Type::NewPartitionGuid;
}

namespace {

// The words a person reads; plan files keep the tokens of partitionKindName / alignToName.
QString kindWord(PartitionInfo::Kind kind)
{
    switch (kind) {
    case PartitionInfo::Kind::Extended:
        return Operation::tr("extended");
    case PartitionInfo::Kind::Logical:
        return Operation::tr("logical");
    default:
        return Operation::tr("primary");
    }
}

QString alignWord(AlignTo mode)
{
    switch (mode) {
    case AlignTo::Grain:
        return Operation::tr("MiB (the grain)");
    case AlignTo::FourKiB:
        return Operation::tr("4 KiB");
    case AlignTo::Cylinder:
        return Operation::tr("cylinders");
    case AlignTo::None:
        break;
    }
    return Operation::tr("nothing (exact sectors)");
}

} // namespace

QString destroyedByNewTable(const QList<Operation> &operations, const QString &diskPath,
                            const QString &wholeDiskFilesystemName)
{
    if (wholeDiskFilesystemName.isEmpty())
        return QString();
    for (const Operation &op : operations)
        if (op.type == Operation::Type::NewTable)
            return Operation::tr("The new partition table destroys the %1 filesystem that fills "
                                 "the whole of %2, and everything on it.")
                .arg(wholeDiskFilesystemName, diskPath);
    return QString();
}

QString Operation::description() const
{
    switch (type) {
    case Type::NewTable:
        return tr("Create a new %1 partition table (erases all partitions)")
            .arg(tableType == QLatin1String("msdos") ? QStringLiteral("MBR") : tableType.toUpper());
    case Type::Create: {
        const QString what = sizeBytes > 0 ? humanSize(sizeBytes) : tr("all the free space");
        QString text = tr("Create a %1 partition of %2").arg(kindWord(kind), what);
        if (!filesystem.isEmpty())
            text += tr(", formatted %1").arg(filesystem);
        if (!label.isEmpty())
            text += tr(", labelled “%1”").arg(label);
        return text + tr(", aligned to %1").arg(alignWord(alignTo));
    }
    case Type::Paste: {
        const QString what = sizeBytes > 0    ? humanSize(sizeBytes)
                             : sizeBytes == 0 ? tr("the source's size")
                                              : tr("all the free space");
        QString text = tr("Paste partition %1 of %2 as a new %3 partition of %4")
                           .arg(sourceNumber)
                           .arg(sourcePath, kindWord(kind), what);
        if (!source.filesystem.isEmpty())
            text += tr(", holding its %1 filesystem").arg(source.filesystem);
        if (!source.label.isEmpty())
            text += tr(", labelled “%1”").arg(source.label);
        if (source.known && sizeBytes > 0 && sizeBytes < source.wholeBytes())
            text += source.madeAnew() ? tr(", made anew at that size") : tr(", shrunk on the way");
        if (!source.flags.isEmpty())
            text += tr(", with its flags (%1)").arg(source.flags.join(QStringLiteral(", ")));
        return text + tr(", aligned to %1").arg(alignWord(alignTo));
    }
    case Type::Delete:
        return tr("Delete partition %1").arg(number);
    case Type::Format:
        return tr("Format partition %1 as %2").arg(number).arg(filesystem);
    case Type::SetLabel:
        if (oldLabel.isEmpty() || !labelFollowable(label) || oldLabel == label)
            return tr("Set the filesystem label of partition %1 to “%2”").arg(number).arg(label);
        return tr("Set the filesystem label of partition %1 to “%2”; every LABEL=%3 in %4 on "
                  "this disk's ext2/3/4 and FAT filesystems that are not in use is rewritten to "
                  "it; each changed file is kept beside itself as NAME%5, and each filesystem is "
                  "checked after")
            .arg(number)
            .arg(label, oldLabel, referenceFileList(),
                 identityBackupSuffix({IdentityChange::Kind::Label, oldLabel, label}));
    case Type::SetName:
        return tr("Name partition %1 “%2”").arg(number).arg(name);
    case Type::SetFlag:
        return (flagState ? tr("Set the %1 flag on partition %2")
                          : tr("Clear the %1 flag on partition %2"))
            .arg(flag)
            .arg(number);
    case Type::Resize:
        if (startBytes >= 0 && sizeBytes > 0)
            return tr("Move partition %1 to start at %2 and resize it to %3")
                .arg(number)
                .arg(humanSize(startBytes), humanSize(sizeBytes));
        if (startBytes >= 0)
            return tr("Move partition %1 to start at %2 and extend it to the end of the free space")
                .arg(number)
                .arg(humanSize(startBytes));
        if (sizeBytes > 0)
            return tr("Resize partition %1 to %2").arg(number).arg(humanSize(sizeBytes));
        return tr("Resize partition %1 to all the free space around it").arg(number);
    case Type::NewUuid:
        if (uuid.isEmpty())
            return tr("Give the filesystem on partition %1 a new UUID").arg(number);
        return tr("Give the filesystem on partition %1 the new UUID %2; every reference to the "
                  "old UUID in %3 on this disk's ext2/3/4 and FAT filesystems that are not in use "
                  "is rewritten to it; each changed file is kept beside itself as NAME%4, and "
                  "each filesystem is checked after")
            .arg(number)
            .arg(uuid, referenceFileList(),
                 identityBackupSuffix({IdentityChange::Kind::Uuid, oldUuid, uuid}));
    case Type::NewPartitionGuid:
        return tr("Give partition %1 a new partition GUID").arg(number);
    case Type::Check:
        return (repair ? tr("Check and repair the filesystem on partition %1")
                       : tr("Check the filesystem on partition %1"))
            .arg(number);
    }
    return QString();
}

} // namespace partwise
