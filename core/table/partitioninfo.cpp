#include "table/partitioninfo.h"

namespace partwise {

QString partitionKindName(PartitionInfo::Kind kind)
{
    switch (kind) {
    case PartitionInfo::Kind::Primary:
        return QStringLiteral("primary");
    case PartitionInfo::Kind::Extended:
        return QStringLiteral("extended");
    case PartitionInfo::Kind::Logical:
        return QStringLiteral("logical");
    case PartitionInfo::Kind::Free:
        return QStringLiteral("free");
    }
    return QString();
}

} // namespace partwise
