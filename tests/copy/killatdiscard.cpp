// Preloaded into partwise-cli by copy_discard: the process dies by SIGKILL at the discard
// numbered PW_KILL_AT_DISCARD (counted from 1): a hole punched in an image (fallocate with
// FALLOC_FL_PUNCH_HOLE) or a BLKDISCARD on a block device. A kill inside the discard step,
// met every time instead of by luck.
#include <atomic>
#include <csignal>
#include <cstdarg>
#include <cstdlib>
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/types.h>

namespace {

std::atomic<int> discards{0};

void countDiscard()
{
    const char *at = std::getenv("PW_KILL_AT_DISCARD");
    if (at && ++discards >= std::atoi(at))
        std::raise(SIGKILL);
}

} // namespace

extern "C" int fallocate(int fd, int mode, off_t offset, off_t length)
{
    if (mode & FALLOC_FL_PUNCH_HOLE)
        countDiscard();
    using Real = int (*)(int, int, off_t, off_t);
    static const auto real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "fallocate"));
    return real(fd, mode, offset, length);
}

extern "C" int fallocate64(int fd, int mode, off_t offset, off_t length)
{
    return fallocate(fd, mode, offset, length);
}

extern "C" int ioctl(int fd, unsigned long request, ...)
{
    va_list args;
    va_start(args, request);
    void *argument = va_arg(args, void *);
    va_end(args);
    if (request == BLKDISCARD)
        countDiscard();
    using Real = int (*)(int, unsigned long, ...);
    static const auto real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "ioctl"));
    return real(fd, request, argument);
}
