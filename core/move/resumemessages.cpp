#include "resumemessages.h"

#include "movemessages.h"

namespace partwise::move {

QString neitherHolds(const MoveChunk &chunk, const QString &devicePath, const QString &journalPath,
                     bool nothingWritten)
{
    return QStringLiteral("Neither the source (byte %1) nor the destination (byte %2) of %3 on "
                          "%4 holds the data the move journal %5 recorded: the disk was changed "
                          "outside the move, or is failing. %6; copy what you can from it before "
                          "writing anything else.")
        .arg(chunk.sourceOffset)
        .arg(chunk.destinationOffset)
        .arg(formatSize(chunk.length), devicePath, journalPath,
             nothingWritten ? QStringLiteral("Nothing was written")
                            : QStringLiteral("Nothing more was written"));
}

} // namespace partwise::move
