#pragma once

// The parameters of a disk copy, read without trusting them, by the one validator that both
// `partwise-cli copy` (its options turned into this object) and a `serve` request use:
//   {"source": PATH, "number": N (optional, 0 = whole disk), "target": PATH,
//    "grain": BYTES, "table": "gpt"|"msdos" (optional), "grow": "keep"|"last"|"proportional",
//    "new_ids": BOOL, "verify": BOOL, "sector_size": 512|4096 (of the source image),
//    "journal": PATH (optional), "backup_dir": PATH (optional),
//    "ids": the new ids a plan shown chose (with "new_ids" only; ops/copyids.h)}
// Each value must have its type and range; the first wrong one is named.

#include "ops/copyplan.h"

#include <QJsonObject>

namespace partwise {

struct CopyParams
{
    QString source, target;
    CopyOptions options;
};

// Who asks: a helper's request (`serve`, run as root for another user) may not name files for
// root to write, so "journal" and "backup_dir" are refused there; the command line may.
enum class CopyParamsFrom { CommandLine, Helper };

// An empty string when `object` is a valid copy request, else what is wrong with it.
QString readCopyParams(const QJsonObject &object, CopyParams *params,
                       CopyParamsFrom from = CopyParamsFrom::CommandLine);

// "SOURCE:N" → SOURCE and N; a name without a ":digits" tail is a whole disk (N = 0). False when
// the tail is not a partition number in 1–128.
bool splitCopySource(const QString &text, QString *source, int *number);

} // namespace partwise
