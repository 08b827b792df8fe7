#pragma once

#include <QString>

namespace partwise {

// "1.5 GiB", "300 MiB", "512 B": binary units, one decimal where it helps.
QString humanSize(qint64 bytes);
// "3,584": digits grouped the English way, for byte counts people read.
QString groupedNumber(qint64 value);

} // namespace partwise
