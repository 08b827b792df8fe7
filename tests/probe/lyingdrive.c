/*
 * lying-drive: a FUSE filesystem with one file, "disk", that behaves like a 512e drive which
 * reports 512-byte sectors but writes whole physical sectors inside.
 *
 * No such drive is at hand, and the kernel cannot be told to emulate one, so the tests build
 * it: the file's bytes live in a backing image (so a test can hash them without going through
 * FUSE), and every write that does not start and end on an emulated physical-sector boundary
 * is delayed by --penalty-ms before it is done, as a real drive pays a read-modify-write for
 * it. Attached as a loop device with `losetup --direct-io=on`, the loop driver sends each
 * O_DIRECT write of the probe here as one request of the same offset and length, and waits
 * for it: the file is opened with FOPEN_DIRECT_IO, so no page cache splits, merges or hides a
 * write on the way, whatever mode the loop device ends up in.
 *
 * Usage: lying-drive --backing=IMAGE [--physical=4096] [--offset=0] [--penalty-ms=2]
 *                    [--log=FILE] [--hold=FILE] MOUNTPOINT [fuse options, e.g. -f -s]
 * --hold=FILE: every write after the first waits while FILE exists, so that a test can stop a
 * probe mid-way for as long as it needs (to cancel it), instead of hoping the probe is slow;
 * FILE.held is created when a write first waits, for the test to know the probe is held.
 * --offset is where physical sectors start, in bytes (the kernel's alignment_offset: 3584 for
 * a Windows XP jumper drive, whose LBA 63 is on a physical boundary). --log appends one line
 * per write ("offset length penalised") for debugging the emulation.
 */
#define FUSE_USE_VERSION 31

#include <fuse.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct options
{
    const char *backing;
    const char *log;
    const char *hold;
    long physical;
    long offset;
    double penaltyMs;
};

static struct options opts = {NULL, NULL, NULL, 4096, 0, 2};
static long writes = 0;
static int backingFd = -1;
static FILE *logFile = NULL;
static const char *const kName = "/disk";

#define OPTION(t, p)                                                                               \
    {                                                                                              \
        t, offsetof(struct options, p), 1                                                          \
    }
static const struct fuse_opt optionSpec[] = {
    OPTION("--backing=%s", backing),       OPTION("--log=%s", log),
    OPTION("--hold=%s", hold),
    OPTION("--physical=%ld", physical),    OPTION("--offset=%ld", offset),
    OPTION("--penalty-ms=%lf", penaltyMs), FUSE_OPT_END};

static int coversWholeSectors(off_t start, size_t length)
{
    const long long from = (long long)start - opts.offset;
    const long long to = from + (long long)length;
    const long long p = opts.physical;
    return ((from % p) + p) % p == 0 && ((to % p) + p) % p == 0;
}

/* No sleep at all for 0: even nanosleep(0) costs tens of microseconds (timer slack), which
 * would be a penalty of its own. */
static void pause_ms(double ms)
{
    if (ms <= 0)
        return;
    const long ns = (long)(ms * 1e6);
    struct timespec t = {ns / 1000000000L, ns % 1000000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

static int do_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    (void)fi;
    memset(st, 0, sizeof *st);
    if (strcmp(path, "/") == 0) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
        return 0;
    }
    if (strcmp(path, kName) != 0)
        return -ENOENT;
    struct stat b;
    if (fstat(backingFd, &b) != 0)
        return -errno;
    st->st_mode = S_IFREG | 0600;
    st->st_nlink = 1;
    st->st_size = b.st_size;
    st->st_blksize = 512;
    st->st_blocks = b.st_size / 512;
    return 0;
}

static int do_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    (void)off;
    (void)fi;
    (void)flags;
    if (strcmp(path, "/") != 0)
        return -ENOENT;
    fill(buf, ".", NULL, 0, 0);
    fill(buf, "..", NULL, 0, 0);
    fill(buf, kName + 1, NULL, 0, 0);
    return 0;
}

static int do_open(const char *path, struct fuse_file_info *fi)
{
    if (strcmp(path, kName) != 0)
        return -ENOENT;
    fi->direct_io = 1; /* every read and write reaches us as it was issued */
    return 0;
}

static int do_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
    (void)path;
    (void)fi;
    const ssize_t n = pread(backingFd, buf, size, off);
    return n < 0 ? -errno : (int)n;
}

static int do_write(const char *path, const char *buf, size_t size, off_t off,
                    struct fuse_file_info *fi)
{
    (void)path;
    (void)fi;
    const int whole = coversWholeSectors(off, size);
    if (opts.hold && writes > 0 && access(opts.hold, F_OK) == 0) {
        char held[4096];
        snprintf(held, sizeof held, "%s.held", opts.hold);
        close(open(held, O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
        while (access(opts.hold, F_OK) == 0)
            pause_ms(10);
    }
    ++writes;
    if (!whole)
        pause_ms(opts.penaltyMs);
    if (logFile) {
        fprintf(logFile, "%lld %zu %d\n", (long long)off, size, !whole);
        fflush(logFile);
    }
    const ssize_t n = pwrite(backingFd, buf, size, off);
    return n < 0 ? -errno : (int)n;
}

/* The emulated drive has no volatile cache: a write is done when it returns. Flushing the
 * backing image to the host's disk instead would add milliseconds of the host's own noise to
 * every synchronous write the probe times. */
static int do_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
    (void)path;
    (void)datasync;
    (void)fi;
    return 0;
}

static int do_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
    (void)path;
    (void)size;
    (void)fi;
    return -EPERM; /* a drive does not change its size */
}

static const struct fuse_operations operations = {
    .getattr = do_getattr,
    .truncate = do_truncate,
    .open = do_open,
    .read = do_read,
    .write = do_write,
    .fsync = do_fsync,
    .readdir = do_readdir,
};

int main(int argc, char *argv[])
{
    struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
    if (fuse_opt_parse(&args, &opts, optionSpec, NULL) != 0)
        return 2;
    if (!opts.backing || opts.physical < 512 || (opts.physical & (opts.physical - 1)) != 0 ||
        opts.offset < 0 || opts.offset >= opts.physical || opts.penaltyMs < 0) {
        fprintf(stderr, "usage: lying-drive --backing=IMAGE [--physical=POWER_OF_TWO] "
                        "[--offset=BYTES<PHYSICAL] [--penalty-ms=MS] [--log=FILE] MOUNTPOINT\n");
        return 2;
    }
    backingFd = open(opts.backing, O_RDWR);
    if (backingFd < 0) {
        perror(opts.backing);
        return 1;
    }
    if (opts.log && !(logFile = fopen(opts.log, "a"))) {
        perror(opts.log);
        return 1;
    }
    const int status = fuse_main(args.argc, args.argv, &operations, NULL);
    fuse_opt_free_args(&args);
    close(backingFd);
    return status;
}
