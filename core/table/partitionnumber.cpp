#include "table/partitionnumber.h"

namespace partwise {

QString partitionNumberProblem(qint64 number)
{
    if (number >= 1 && number <= kMaxPartitionNumber)
        return {};
    return QStringLiteral("a partition number is from 1 to %1, not %2.")
        .arg(kMaxPartitionNumber)
        .arg(number);
}

} // namespace partwise
