#pragma once

#include <QString>

namespace partwise {

// The first line of a sysfs attribute (or any small text file), trimmed; empty when it cannot
// be read. sysfs attributes are one value a line: "7:0", "2048", a loop's backing file.
QString sysfsLine(const QString &path);

} // namespace partwise
