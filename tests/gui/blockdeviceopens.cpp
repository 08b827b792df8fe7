// No fortified inline open() from the headers: this file defines open() itself.
#undef _FORTIFY_SOURCE

#include "blockdeviceopens.h"

#include <QStringList>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstdlib>
#include <dlfcn.h>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

struct Record
{
    std::string path;
    std::string thread;
    int error;
};

std::atomic<bool> g_recording{false};
std::mutex g_mutex;
std::vector<Record> g_records;
std::vector<std::string> g_files; // watched too, by their resolved paths; set before recording

// A path that names a block device now (stat, not open: a user may stat /dev/sda).
bool isBlockDevice(int dirfd, const char *path)
{
    struct stat st;
    return path && ::fstatat(dirfd, path, &st, 0) == 0 && S_ISBLK(st.st_mode);
}

// One of the files the test watches (a path from this process's folder or an absolute one).
bool isWatchedFile(int dirfd, const char *path)
{
    if (!path || g_files.empty() || (dirfd != AT_FDCWD && path[0] != '/'))
        return false;
    char resolved[PATH_MAX];
    if (!::realpath(path, resolved))
        return false;
    for (const std::string &file : g_files)
        if (file == resolved)
            return true;
    return false;
}

int noted(int dirfd, const char *path, int fd)
{
    if (!g_recording.load() || !(isBlockDevice(dirfd, path) || isWatchedFile(dirfd, path)))
        return fd;
    const int error = fd < 0 ? errno : 0;
    char name[32] = {};
    ::pthread_getname_np(::pthread_self(), name, sizeof name);
    {
        const std::lock_guard lock(g_mutex);
        g_records.push_back({path, name, error});
    }
    errno = error;
    return fd;
}

bool takesMode(int flags)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

template <typename Fn> Fn real(const char *name)
{
    return reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, name));
}

// Declares `mode`: what a variadic open() was given, which only O_CREAT and O_TMPFILE pass
// (va_start must be in the variadic function itself, hence a macro).
#define PW_READ_MODE(flags, mode)                                                                  \
    mode_t mode = 0;                                                                               \
    if (takesMode(flags)) {                                                                        \
        va_list args;                                                                              \
        va_start(args, flags);                                                                     \
        mode = va_arg(args, mode_t);                                                               \
        va_end(args);                                                                              \
    }

using OpenFn = int (*)(const char *, int, ...);
using OpenAtFn = int (*)(int, const char *, int, ...);
using Open2Fn = int (*)(const char *, int);
using OpenAt2Fn = int (*)(int, const char *, int);

} // namespace

// The interposed entry points: the same signatures as glibc's, which they call.
extern "C" {

int open(const char *path, int flags, ...)
{
    static const auto next = real<OpenFn>("open");
    PW_READ_MODE(flags, mode)
    return noted(AT_FDCWD, path, next(path, flags, mode));
}

int open64(const char *path, int flags, ...)
{
    static const auto next = real<OpenFn>("open64");
    PW_READ_MODE(flags, mode)
    return noted(AT_FDCWD, path, next(path, flags, mode));
}

int openat(int dirfd, const char *path, int flags, ...)
{
    static const auto next = real<OpenAtFn>("openat");
    PW_READ_MODE(flags, mode)
    return noted(dirfd, path, next(dirfd, path, flags, mode));
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    static const auto next = real<OpenAtFn>("openat64");
    PW_READ_MODE(flags, mode)
    return noted(dirfd, path, next(dirfd, path, flags, mode));
}

int __open_2(const char *path, int flags)
{
    static const auto next = real<Open2Fn>("__open_2");
    return noted(AT_FDCWD, path, next(path, flags));
}

int __open64_2(const char *path, int flags)
{
    static const auto next = real<Open2Fn>("__open64_2");
    return noted(AT_FDCWD, path, next(path, flags));
}

int __openat_2(int dirfd, const char *path, int flags)
{
    static const auto next = real<OpenAt2Fn>("__openat_2");
    return noted(dirfd, path, next(dirfd, path, flags));
}

int __openat64_2(int dirfd, const char *path, int flags)
{
    static const auto next = real<OpenAt2Fn>("__openat64_2");
    return noted(dirfd, path, next(dirfd, path, flags));
}

} // extern "C"

namespace pwtest {

void startRecordingBlockDeviceOpens(const QStringList &files)
{
    const std::lock_guard lock(g_mutex);
    g_records.clear();
    g_files.clear();
    for (const QString &file : files) {
        char resolved[PATH_MAX];
        if (::realpath(file.toLocal8Bit().constData(), resolved))
            g_files.emplace_back(resolved);
    }
    g_recording.store(true);
}

QList<BlockDeviceOpen> stopRecordingBlockDeviceOpens()
{
    g_recording.store(false);
    const std::lock_guard lock(g_mutex);
    QList<BlockDeviceOpen> out;
    for (const Record &r : g_records)
        out << BlockDeviceOpen{QString::fromStdString(r.path), QString::fromStdString(r.thread),
                               r.error};
    return out;
}

QString describe(const QList<BlockDeviceOpen> &opens)
{
    QStringList lines;
    for (const BlockDeviceOpen &o : opens)
        lines << QStringLiteral("%1 by thread \"%2\"%3")
                     .arg(o.path, o.thread,
                          o.error ? QStringLiteral(" (failed: %1)").arg(o.error) : QString());
    return lines.join(QStringLiteral("; "));
}

} // namespace pwtest
