#include "moverequest.h"

namespace partwise::move {

QString MoveRequest::validate(std::uint64_t deviceSize) const
{
    if (devicePath.isEmpty())
        return QStringLiteral("No device or image file was given for the move.");
    if (length == 0)
        return QStringLiteral("The move has nothing to copy (length 0).");
    if (chunkSize < 4096 || chunkSize % 4096 != 0 || chunkSize > (1ULL << 30))
        return QStringLiteral("The chunk size %1 is not a multiple of 4096 between 4 KiB and "
                              "1 GiB.")
            .arg(chunkSize);
    if (sourceOffset + length < sourceOffset || destinationOffset + length < destinationOffset)
        return QStringLiteral("The move range overflows.");
    if (deviceSize != 0 &&
        (sourceOffset + length > deviceSize || destinationOffset + length > deviceSize))
        return QStringLiteral("The move of %1 bytes from byte %2 to byte %3 does not fit in "
                              "%4, which holds %5 bytes.")
            .arg(length)
            .arg(sourceOffset)
            .arg(destinationOffset)
            .arg(devicePath)
            .arg(deviceSize);
    for (const Extent &extent : extents) {
        if (extent.length == 0 || extent.offset + extent.length > length ||
            extent.offset + extent.length < extent.offset)
            return QStringLiteral("The extent of %1 bytes at %2 lies outside the %3 bytes "
                                  "being moved.")
                .arg(extent.length)
                .arg(extent.offset)
                .arg(length);
    }
    return {};
}

} // namespace partwise::move
