// Preloaded into partwise-cli by copy_cli: the process dies by SIGKILL the moment the copy hands
// its target to libfdisk to set the partitions' types and GUIDs, that is after libparted has
// committed the table and before any identifier is written. The window a real kill or power cut
// rarely meets, met every time.
#include <csignal>

extern "C" int fdisk_assign_device_by_fd(void *, int, const char *, int)
{
    std::raise(SIGKILL);
    return -1;
}
