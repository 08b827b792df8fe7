#include "editing/editingtext.h"

#include <QCoreApplication>

QString operationCountText(int count)
{
    return count == 1 ? QCoreApplication::translate("Editing", "1 operation")
                      : QCoreApplication::translate("Editing", "%1 operations").arg(count);
}

QString partitionCountText(int count)
{
    return count == 1 ? QCoreApplication::translate("Editing", "1 partition")
                      : QCoreApplication::translate("Editing", "%1 partitions").arg(count);
}
