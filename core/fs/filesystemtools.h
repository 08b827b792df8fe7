#pragma once

#include "base/toolrunner.h"

namespace partwise {

// Why `label` cannot be given to the label tool of `filesystem`, or empty. Beyond what every
// label must pass (Operation::textProblem), a tool that reads its label as words adds its rules.
QString labelProblemFor(const QString &filesystem, const QString &label);
// Labelling and checking a filesystem with its own tools, on a device node.
ToolResult relabelFilesystem(const QString &device, const QString &filesystem,
                             const QString &label);
// Read-only check unless `repair`; swap has nothing to check and passes.
ToolResult checkFilesystem(const QString &device, const QString &filesystem, bool repair);
// Why checkFilesystem() cannot check `filesystem` ("Partwise has no read-only check for minix"),
// or empty when it can or there is no filesystem. Such a filesystem is moved or copied only when
// the person accepts that it goes unchecked (--accept-unchecked): its damage would go along.
QString noCheckReason(const QString &filesystem);

} // namespace partwise
