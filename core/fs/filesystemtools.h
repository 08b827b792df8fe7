#pragma once

#include "base/toolrunner.h"

namespace partwise {

// Labelling and checking a filesystem with its own tools, on a device node.
ToolResult relabelFilesystem(const QString &device, const QString &filesystem,
                             const QString &label);
// Read-only check unless `repair`; swap has nothing to check and passes.
ToolResult checkFilesystem(const QString &device, const QString &filesystem, bool repair);

} // namespace partwise
