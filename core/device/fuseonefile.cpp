#include "device/fuseonefile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <vector>

namespace partwise {

bool fuseOneFileKnows(fuse_ino_t ino)
{
    return ino == FUSE_ROOT_ID || ino == kFuseFileIno;
}

struct stat fuseOneFileAttributes(const FuseOneFile &file, fuse_ino_t ino)
{
    struct stat st
    {
    };
    st.st_ino = ino;
    st.st_uid = file.uid;
    st.st_gid = file.gid;
    st.st_atim = st.st_mtim = st.st_ctim = file.made;
    if (ino == FUSE_ROOT_ID) {
        st.st_mode = S_IFDIR | 0500;
        st.st_nlink = 2;
    } else {
        st.st_mode = S_IFREG | 0600;
        st.st_nlink = 1;
        st.st_size = file.bytes;
        st.st_blksize = 4096;
        st.st_blocks = (file.bytes + 511) / 512;
    }
    return st;
}

void replyFuseLookup(fuse_req_t req, const FuseOneFile &file, fuse_ino_t parent, const char *name)
{
    if (parent != FUSE_ROOT_ID || std::strcmp(name, file.name) != 0) {
        fuse_reply_err(req, ENOENT);
        return;
    }
    fuse_entry_param entry{};
    entry.ino = kFuseFileIno;
    entry.generation = 1;
    entry.attr = fuseOneFileAttributes(file, kFuseFileIno);
    entry.attr_timeout = kFuseForever;
    entry.entry_timeout = kFuseForever;
    fuse_reply_entry(req, &entry);
}

void replyFuseGetattr(fuse_req_t req, const FuseOneFile &file, fuse_ino_t ino)
{
    if (!fuseOneFileKnows(ino)) {
        fuse_reply_err(req, ENOENT);
        return;
    }
    const struct stat st = fuseOneFileAttributes(file, ino);
    fuse_reply_attr(req, &st, kFuseForever);
}

void replyFuseReaddir(fuse_req_t req, const FuseOneFile &file, fuse_ino_t ino, size_t size,
                      off_t off)
{
    if (ino != FUSE_ROOT_ID) {
        fuse_reply_err(req, ENOTDIR);
        return;
    }
    const struct
    {
        const char *name;
        fuse_ino_t ino;
    } entries[] = {{".", FUSE_ROOT_ID}, {"..", FUSE_ROOT_ID}, {file.name, kFuseFileIno}};
    std::vector<char> buffer(size);
    size_t used = 0;
    for (off_t i = std::max<off_t>(off, 0); i < off_t(std::size(entries)); ++i) {
        const struct stat st = fuseOneFileAttributes(file, entries[i].ino);
        const size_t needed =
            fuse_add_direntry(req, buffer.data() + used, size - used, entries[i].name, &st, i + 1);
        if (needed > size - used)
            break;
        used += needed;
    }
    fuse_reply_buf(req, buffer.data(), used);
}

} // namespace partwise
