#pragma once

// read-disk through a helper, as the window and the realignment wizard both ask it: the
// request's parameters, and the disk its answer carries (report/layoutjson, every field
// checked), marked as a disk only the helper opens.

#include "boot/bootinventory.h"
#include "helperconnection.h"
#include "table/diskreader.h"

#include <QJsonObject>

#include <optional>

QJsonObject readDiskParams(const QString &devicePath, qint64 forcedSectorSize);
// `boot`, when given, gets what boots from the disk (read-disk's "boot" and "boot_loader",
// every field checked); a reply whose boot fields are wrong is refused as a whole.
partwise::DiskReadResult diskReadFromReply(const HelperReply &reply,
                                           std::optional<partwise::BootInventory> *boot = nullptr);
