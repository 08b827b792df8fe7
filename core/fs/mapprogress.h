#pragma once

#include <QString>

#include <functional>

namespace partwise {

// Progress while a used-block map is read (partclone needs seconds per TiB): what is being done,
// in English for logs and the command line ("reading the allocation bitmap", "listing the blocks
// in use"), and how far that step is, 0 to 1. Called on the thread that asked for the map.
using MapProgress = std::function<void(const QString &step, double fraction)>;

} // namespace partwise
