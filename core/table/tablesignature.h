#pragma once

#include <QString>

namespace partwise {

// Asks libblkid which partition table type a disk carries ("gpt", "dos", ...). libblkid falls
// back to a GPT's backup header where libparted gives up, so this names what libparted could
// not read. Empty when libblkid finds none.
QString probeTableSignature(const QString &path, qint64 logicalSectorSize);

} // namespace partwise
