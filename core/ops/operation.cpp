#include "ops/operation.h"

#include "report/humansize.h"

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
    }
    return QString();
}

bool Operation::changesTable() const
{
    return type == Type::NewTable || type == Type::Create || type == Type::Delete ||
           type == Type::SetName || type == Type::SetFlag || type == Type::Resize;
}

QString Operation::description() const
{
    switch (type) {
    case Type::NewTable:
        return QStringLiteral("Create a new %1 partition table (erases all partitions)")
            .arg(tableType == QLatin1String("msdos") ? QStringLiteral("MBR") : tableType.toUpper());
    case Type::Create: {
        QString what = sizeBytes > 0 ? humanSize(sizeBytes) : QStringLiteral("all the free space");
        QString text =
            QStringLiteral("Create a %1 partition of %2").arg(partitionKindName(kind), what);
        if (!filesystem.isEmpty())
            text += QStringLiteral(", formatted %1").arg(filesystem);
        if (!label.isEmpty())
            text += QStringLiteral(", labelled \"%1\"").arg(label);
        return text + QStringLiteral(", aligned to %1").arg(alignToName(alignTo));
    }
    case Type::Delete:
        return QStringLiteral("Delete partition %1").arg(number);
    case Type::Format:
        return QStringLiteral("Format partition %1 as %2").arg(number).arg(filesystem);
    case Type::SetLabel:
        return QStringLiteral("Set the filesystem label of partition %1 to \"%2\"")
            .arg(number)
            .arg(label);
    case Type::SetName:
        return QStringLiteral("Name partition %1 \"%2\"").arg(number).arg(name);
    case Type::SetFlag:
        return QStringLiteral("%1 the %2 flag on partition %3")
            .arg(flagState ? QStringLiteral("Set") : QStringLiteral("Clear"), flag)
            .arg(number);
    case Type::Resize:
        return QStringLiteral("Resize partition %1 to %2%3")
            .arg(number)
            .arg(sizeBytes > 0 ? humanSize(sizeBytes)
                               : QStringLiteral("all the free space around it"))
            .arg(startBytes >= 0 ? QStringLiteral(", starting at %1").arg(humanSize(startBytes))
                                 : QString());
    case Type::Check:
        return QStringLiteral("%1 the filesystem on partition %2")
            .arg(repair ? QStringLiteral("Check and repair") : QStringLiteral("Check"))
            .arg(number);
    }
    return QString();
}
