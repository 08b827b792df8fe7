#pragma once

#include <QString>

#include <cstdint>

namespace partwise::move {

// "8 MiB", "3 KiB", "1.5 GiB", "700 bytes": sizes as a person reads them in messages.
QString formatSize(std::uint64_t bytes);

// strerror() as a QString.
QString errorText(int errorCode);

} // namespace partwise::move
