#pragma once

#include <QString>
#include <QtGlobal>

namespace partwise {

// The partition numbers Partwise takes from anyone (the command line, the helper's client, a
// plan): 1 to 256, more than any table it edits holds (MBR chains, GPT's entry arrays).
constexpr int kMaxPartitionNumber = 256;

// Why `number` cannot name a partition, one sentence; empty when it can.
QString partitionNumberProblem(qint64 number);

} // namespace partwise
