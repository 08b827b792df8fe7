#include "table/partedread.h"

#include "table/partedrecovery.h"

#include <parted/parted.h>

#include <csetjmp>

namespace partwise {

_PedDisk *newDiskSurvivingAssertions(_PedDevice *device, QString *assertion)
{
    sigjmp_buf recovery;
    if (sigsetjmp(recovery, 1) != 0) {
        setPartedRecovery(nullptr);
        *assertion = partedAssertionText();
        return nullptr;
    }
    setPartedRecovery(&recovery);
    PedDisk *disk = ped_disk_new(device);
    setPartedRecovery(nullptr);
    return disk;
}

} // namespace partwise
