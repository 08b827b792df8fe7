#pragma once

// Reading a partition table through libparted without letting a damaged one kill the program.
//
// libparted checks its own invariants with ped_assert(), which reports a "bug" exception and
// then calls abort(). Some damaged tables reach those checks while they are being read: the
// mutation tests (tests/fuzz) found EBR chains whose links point back into the chain that end
// in an assertion inside ped_disk_add_partition(). A partition editor must say "this table is
// damaged" there, not vanish. So the one call that parses a table, ped_disk_new(), runs under a
// recovery point: the session's exception handler sees the bug exception first and jumps back
// here before libparted can abort. Only C frames of libparted lie in between (no destructor is
// skipped); the half-built PedDisk is leaked, which is the price of surviving.

#include <QString>

struct _PedDevice;
struct _PedDisk;

namespace partwise {

// ped_disk_new(device) inside an active PartedSession; on a libparted assertion returns null and
// sets `assertion` to libparted's message.
_PedDisk *newDiskSurvivingAssertions(_PedDevice *device, QString *assertion);

} // namespace partwise
