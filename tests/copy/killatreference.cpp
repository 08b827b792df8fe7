// Preloaded into partwise-cli by copy_references: the process dies by SIGKILL when it truncates
// a file whose path ends with PW_KILL_AT_TRUNCATE ("/etc/fstab"): inside the step that rewrites
// the copied files' references, after the file's new bytes are written and before it is cut to
// size and synced. A kill inside that step, met every time instead of by luck.
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <sys/types.h>
#include <unistd.h>

namespace {

void killAtMarkedFile(int fd)
{
    const char *mark = std::getenv("PW_KILL_AT_TRUNCATE");
    if (!mark || !*mark)
        return;
    char link[64], target[PATH_MAX];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = ::readlink(link, target, sizeof target - 1);
    if (n <= 0)
        return;
    target[n] = '\0';
    const std::size_t m = std::strlen(mark);
    if (std::size_t(n) >= m && std::strcmp(target + n - m, mark) == 0)
        std::raise(SIGKILL);
}

} // namespace

extern "C" int ftruncate(int fd, off_t length)
{
    killAtMarkedFile(fd);
    using Real = int (*)(int, off_t);
    static const auto real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "ftruncate"));
    return real(fd, length);
}

extern "C" int ftruncate64(int fd, off_t length)
{
    return ftruncate(fd, length);
}
