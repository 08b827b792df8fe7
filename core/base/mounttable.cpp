#include "base/mounttable.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <libmount/libmount.h>

#include <memory>

namespace partwise {

namespace {

struct TableDeleter
{
    void operator()(libmnt_table *table) const { mnt_unref_table(table); }
};
using Table = std::unique_ptr<libmnt_table, TableDeleter>;

struct IterDeleter
{
    void operator()(libmnt_iter *iter) const { mnt_free_iter(iter); }
};
using Iter = std::unique_ptr<libmnt_iter, IterDeleter>;

QString text(const char *value)
{
    return value ? QString::fromLocal8Bit(value) : QString();
}

// Each entry of `table`, in the order of its file.
template <typename Visit> void forEachEntry(libmnt_table *table, Visit visit)
{
    const Iter iter(mnt_new_iter(MNT_ITER_FORWARD));
    if (!iter)
        return;
    libmnt_fs *fs = nullptr;
    while (mnt_table_next_fs(table, iter.get(), &fs) == 0)
        visit(fs);
}

} // namespace

QList<MountEntry> readMountTable(const QString &mountinfo)
{
    QList<MountEntry> out;
    const Table table(mnt_new_table());
    if (!table || mnt_table_parse_file(table.get(), QFile::encodeName(mountinfo).constData()) != 0)
        return out;
    forEachEntry(table.get(), [&out](libmnt_fs *fs) {
        out << MountEntry{text(mnt_fs_get_source(fs)),
                          text(mnt_fs_get_target(fs)),
                          text(mnt_fs_get_fstype(fs)),
                          text(mnt_fs_get_fs_options(fs)),
                          text(mnt_fs_get_vfs_options(fs)),
                          text(mnt_fs_get_root(fs)),
                          mnt_fs_get_devno(fs),
                          mnt_fs_get_id(fs)};
    });
    return out;
}

const MountEntry *mountHolding(const QList<MountEntry> &mounts, const QString &kernelPath)
{
    const MountEntry *best = nullptr;
    for (const MountEntry &m : mounts) {
        const bool above = m.target == QLatin1String("/") || kernelPath == m.target ||
                           kernelPath.startsWith(m.target + QLatin1Char('/'));
        // ">=": of mounts on one target, the later one is on top.
        if (above && (!best || m.target.size() >= best->target.size()))
            best = &m;
    }
    return best;
}

bool mayStall(const MountEntry &mount)
{
    static const QStringList network = {QStringLiteral("nfs"),  QStringLiteral("nfs4"),
                                        QStringLiteral("cifs"), QStringLiteral("smb3"),
                                        QStringLiteral("9p"),   QStringLiteral("ceph"),
                                        QStringLiteral("afs"),  QStringLiteral("glusterfs")};
    return mount.type == QLatin1String("fuse") || mount.type == QLatin1String("fuseblk") ||
           mount.type.startsWith(QLatin1String("fuse.")) || network.contains(mount.type);
}

QString mountOption(const QString &options, const QString &name)
{
    const QByteArray optstr = options.toLocal8Bit();
    char *value = nullptr;
    size_t size = 0;
    if (mnt_optstr_get_option(optstr.constData(), name.toLocal8Bit().constData(), &value, &size) !=
            0 ||
        !value)
        return QString();
    return QString::fromLocal8Bit(value, qsizetype(size));
}

QStringList activeSwaps(const QString &swaps)
{
    QStringList out;
    const Table table(mnt_new_table());
    if (!table || mnt_table_parse_swaps(table.get(), QFile::encodeName(swaps).constData()) != 0)
        return out;
    forEachEntry(table.get(), [&out](libmnt_fs *fs) { out << text(mnt_fs_get_source(fs)); });
    return out;
}

} // namespace partwise
