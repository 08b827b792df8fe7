#pragma once

// read-disk through a helper, as the window and the realignment wizard both ask it: the
// request's parameters, and the disk its answer carries (report/layoutjson, every field
// checked), marked as a disk only the helper opens.

#include "helperconnection.h"
#include "table/diskreader.h"

#include <QJsonObject>

QJsonObject readDiskParams(const QString &devicePath, qint64 forcedSectorSize);
partwise::DiskReadResult diskReadFromReply(const HelperReply &reply);
