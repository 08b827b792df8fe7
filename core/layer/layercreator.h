#pragma once

// Creating layers aligned: a LUKS2 volume whose data starts on the grain (and encrypts in
// 4 KiB sectors where the physical sector in force is 4096 or more), and an LVM physical
// volume whose first extent starts on the grain (pvcreate --dataalignment). Both are checked
// afterwards by their own tools' account in the tests (luksDump, pvs).
//
// The passphrase of a new LUKS volume reaches cryptsetup on its standard input or through a
// key file the user named; it is never put on a command line, in a log or in a plan file.

#include "base/toolrunner.h"
#include "fs/filesystemformatter.h"

namespace partwise {

// "luks2" and "lvm-pv": what New Partition and Format offer besides filesystems.
QStringList creatableLayers();
bool isCreatableLayer(const QString &kind);
// Filesystems and layers, in the order the dialogs list them.
QStringList creatableContents();

// Whether a request for `kind` has what it needs (a passphrase or key file for LUKS2); empty
// when it does, else a sentence for the user.
QString layerRequestProblem(const FormatRequest &request);

ToolResult createLayer(const FormatRequest &request);

} // namespace partwise
