#include "align/extentgrain.h"

namespace partwise {

bool extentsKeepGrain(qint64 extentBytes, const AlignmentGeometry &geometry)
{
    return extentBytes > 0 && geometry.grainBytes > 0 && extentBytes % geometry.grainBytes == 0;
}

} // namespace partwise
