#include "cli/inheritedstate.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise {

namespace {

// Descriptors: a helper works with a few dozen (the disk, its partitions, journals, pipes to
// tools). At least the classic default, and up to 4096 where the hard limit allows.
constexpr rlim_t kFewestDescriptors = 1024;
constexpr rlim_t kDescriptors = 4096;
// glibc sizes every new thread's stack by the soft stack limit it found at start-up: a tiny one
// would crash the mover's threads. This is the kernel's and distributions' default.
constexpr rlim_t kStack = rlim_t(8) << 20;

QString errnoText(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

// Sets `resource`'s soft limit to `soft`, and its hard limit to at least `fewestHard` (kept where
// already higher). Raising a hard limit the caller lowered needs CAP_SYS_RESOURCE; without it
// the helper refuses to serve.
bool setLimit(int resource, const char *what, rlim_t soft, rlim_t fewestHard, QString *why)
{
    rlimit now{};
    if (::getrlimit(resource, &now) != 0)
        now.rlim_max = 0;
    const rlimit wanted{soft, std::max(now.rlim_max, fewestHard)};
    if (::setrlimit(resource, &wanted) == 0)
        return true;
    *why = QStringLiteral("The %1 limit it was started with (%2) cannot be lifted (%3); "
                          "refusing to serve. Start it from a session without that limit.")
               .arg(QLatin1String(what),
                    now.rlim_max == RLIM_INFINITY ? QStringLiteral("unlimited")
                                                  : QString::number(now.rlim_max),
                    errnoText(errno));
    return false;
}

rlim_t descriptorsWanted()
{
    rlimit now{};
    if (::getrlimit(RLIMIT_NOFILE, &now) != 0)
        return kFewestDescriptors;
    return std::clamp(now.rlim_max, kFewestDescriptors, kDescriptors);
}

// glibc read the caller's stack limit before main(); threads started from now on get kStack.
bool threadStacks(QString *why)
{
    pthread_attr_t attributes;
    int code = pthread_attr_init(&attributes);
    if (code == 0) {
        code = pthread_attr_setstacksize(&attributes, kStack);
        if (code == 0)
            code = pthread_setattr_default_np(&attributes);
        pthread_attr_destroy(&attributes);
    }
    if (code != 0)
        *why = QStringLiteral("Cannot set the threads' stack size (%1); refusing to serve.")
                   .arg(errnoText(code));
    return code == 0;
}

// No core file, and not dumpable at all: root's memory holds keys and other users' data.
bool noCoreDumps(QString *why)
{
    const rlimit none{0, 0};
    if (::setrlimit(RLIMIT_CORE, &none) == 0 && ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0)
        return true;
    *why = QStringLiteral("Cannot stop core dumps (%1); refusing to serve.").arg(errnoText(errno));
    return false;
}

bool resetLimits(QString *why)
{
    // Unlimited: journals and backups of any size, moves of any length.
    return setLimit(RLIMIT_FSIZE, "file size", RLIM_INFINITY, RLIM_INFINITY, why) &&
           setLimit(RLIMIT_CPU, "CPU time", RLIM_INFINITY, RLIM_INFINITY, why) &&
           setLimit(RLIMIT_AS, "address space", RLIM_INFINITY, RLIM_INFINITY, why) &&
           setLimit(RLIMIT_DATA, "data size", RLIM_INFINITY, RLIM_INFINITY, why) &&
           setLimit(RLIMIT_NOFILE, "open files", descriptorsWanted(), kFewestDescriptors, why) &&
           setLimit(RLIMIT_STACK, "stack size", kStack, kStack, why) && threadStacks(why) &&
           noCoreDumps(why);
}

// Descriptors 0–2 open (else the first files root opens take their numbers, and answers or
// messages would be written into them), every other one closed.
bool resetDescriptors(QString *why)
{
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        // The lowest free number: `fd` itself, since those below it are open.
        const int null = ::open("/dev/null", O_RDWR);
        if (null != fd) {
            *why = QStringLiteral("Descriptor %1 was closed and /dev/null cannot stand in for it "
                                  "(%2); refusing to serve.")
                       .arg(fd)
                       .arg(null < 0 ? errnoText(errno) : QStringLiteral("opened elsewhere"));
            return false;
        }
    }
    if (::close_range(3, ~0U, 0) == 0)
        return true;
    rlimit files{};
    const rlim_t last =
        ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_max < (rlim_t(1) << 20)
            ? files.rlim_max
            : rlim_t(1) << 20;
    for (rlim_t fd = 3; fd < last; ++fd)
        ::close(int(fd));
    return true;
}

// Every signal back to its default action and none blocked: ignored signals and the mask survive
// exec, so a helper the user started with SIGTERM ignored would not end when told to.
void resetSignals()
{
    struct sigaction byDefault
    {
    };
    byDefault.sa_handler = SIG_DFL;
    sigemptyset(&byDefault.sa_mask);
    for (int signal = 1; signal < NSIG; ++signal)
        if (signal != SIGKILL && signal != SIGSTOP)
            ::sigaction(signal, &byDefault, nullptr); // glibc's own signals refuse: fine
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

} // namespace

bool resetInheritedStateForUser(QString *why)
{
    if (!resetDescriptors(why))
        return false;
    resetSignals();
    if (!resetLimits(why))
        return false;
    // Nothing relative to the user's folder; pkexec keeps the caller's umask, with which root's
    // new folders would be world-writable.
    if (::chdir("/") != 0) {
        *why = QStringLiteral("Cannot change to / (%1); refusing to serve.").arg(errnoText(errno));
        return false;
    }
    ::umask(077);
    return true;
}

} // namespace partwise
