#pragma once

// The tree both of Partwise's FUSE files serve (device/partitionfile: a partition of an image;
// fs/cowwindow: a disk whose writes are kept aside): a root folder holding one regular file of a
// fixed size, owned by the user who mounted it, whose attributes never change, so the kernel may
// cache them for good. Each server keeps its own reads and writes; the tree is answered here.

#ifndef FUSE_USE_VERSION
#define FUSE_USE_VERSION 34
#endif
#include <fuse_lowlevel.h>

#include <QtGlobal>

#include <ctime>
#include <sys/stat.h>

namespace partwise {

constexpr fuse_ino_t kFuseFileIno = 2;
constexpr double kFuseForever = 24 * 3600.0;

struct FuseOneFile
{
    const char *name = "";
    qint64 bytes = 0;
    uid_t uid = 0;
    gid_t gid = 0;
    timespec made{};
};

bool fuseOneFileKnows(fuse_ino_t ino);
struct stat fuseOneFileAttributes(const FuseOneFile &file, fuse_ino_t ino);
void replyFuseLookup(fuse_req_t req, const FuseOneFile &file, fuse_ino_t parent, const char *name);
void replyFuseGetattr(fuse_req_t req, const FuseOneFile &file, fuse_ino_t ino);
void replyFuseReaddir(fuse_req_t req, const FuseOneFile &file, fuse_ino_t ino, size_t size,
                      off_t off);

} // namespace partwise
