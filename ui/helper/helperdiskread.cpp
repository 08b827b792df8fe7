#include "helperdiskread.h"

#include "report/bootjsonreader.h"
#include "report/layoutjson.h"

#include <QCoreApplication>

using namespace partwise;

QJsonObject readDiskParams(const QString &devicePath, qint64 forcedSectorSize)
{
    QJsonObject params{{QStringLiteral("path"), devicePath}};
    if (forcedSectorSize > 0)
        params.insert(QStringLiteral("sector_size"), forcedSectorSize);
    return params;
}

DiskReadResult diskReadFromReply(const HelperReply &reply, std::optional<BootInventory> *boot)
{
    DiskReadResult read;
    read.error = reply.error;
    if (reply.ok()) {
        QString invalid;
        read.ok = layoutFromJson(reply.result.value(QStringLiteral("layout")).toObject(),
                                 &read.layout, &invalid);
        read.layout.device.readByHelper = true; // its path is the helper's to open
        if (!read.ok)
            read.error =
                QCoreApplication::translate("RemoteMachines",
                                            "The helper sent a layout this window cannot use: %1")
                    .arg(invalid);
    }
    if (read.ok && boot) {
        QString problem;
        *boot = bootInventoryFromJson(reply.result, &problem);
        if (!problem.isEmpty()) {
            read.ok = false;
            read.error = QCoreApplication::translate(
                             "RemoteMachines",
                             "The helper sent boot information this window cannot use: %1.")
                             .arg(problem);
        }
    }
    return read;
}
