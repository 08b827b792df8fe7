// Building and inspecting the filesystems tst_filesystemshrink shrinks: a GPT image with one
// partition at the classic misaligned sector 34, where that partition is reached (image or loop
// partition node), fillers that leave files past a shrink's new end, and what FAT's and F2FS's
// own tools report. Expected values come from those tools, never from Partwise.
#pragma once

#include "fs/filesystemsize.h"
#include "fsfixture.h"
#include "loopdevice.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace shrinktest {

constexpr qint64 kMiB = 1024 * 1024;
constexpr qint64 kStartSector = 34; // GPT's first usable sector: misaligned on 4 KiB drives
constexpr qint64 kOffset = kStartSector * 512;
constexpr qint64 kShrink = 3 * kMiB;

// The first capture of `pattern` (multiline) in `text` as a number; -1 when it does not match.
qint64 number(const QString &text, const QString &pattern);
// stdout and stderr of a tool.
QString out(const pwtest::ToolResult &r);

// SHA-256 of a sparse file's data extents and where they lie: unchanged bytes give the same
// value (a write into a hole counts as a change, zeros or not) and only the data is read, not
// hundreds of MiB of holes.
QByteArray sparseSha256(const QString &path);

// A sparse image holding one GPT partition of `partBytes` at sector 34; empty on failure.
QString makeDisk(const QString &dir, const QString &name, qint64 partBytes);

// Writes the file tree to store into `dir`: many small files and a large one. Returns the files
// to delete from the filesystem afterwards (every fourth small one); empty on failure.
QStringList makeTree(const QString &dir, quint32 seed);
void removeFromTree(const QString &dir, const QStringList &files);

// Where the filesystem under test lives: a partition inside an image (set up and checked through
// loop devices over its range) or a partition node of a loop device.
class Place
{
public:
    Place(const QString &image, qint64 partBytes, bool onLoopPartition);

    bool ok() const { return !m_loop || !m_node.isEmpty(); }
    bool isImage() const { return !m_loop; }
    partwise::FilesystemLocation location() const;
    // A node for tools that need one: the partition node, or a loop device over the range
    // (held until the next call or the end).
    QString node(bool readOnly = false);
    void release() { m_range.reset(); }
    // The image's bytes outside the partition, hashed.
    QByteArray outside() const;

private:
    QString m_image;
    qint64 m_partBytes;
    QString m_node;
    std::unique_ptr<pwtest::LoopDevice> m_loop;
    std::unique_ptr<pwtest::LoopRange> m_range;
};

// `fsck.fat -n -v`: its check, and the layout it prints (where the FATs and data start).
pwtest::ToolResult fsckFatVerbose(const QString &node);

// Copies a filler of `fillerBytes`, then the tree under `src`, into the FAT at `mt` (an mtools
// target), and deletes the filler and `doomed`: files then lie near the end, past a shrink's new
// end.
bool fillFatWithHoles(const QString &mt, qint64 fillerBytes, const QString &src,
                      const QStringList &doomed, QString *error);

// The byte after the last cluster of `file` in the FAT at `mt` (mshowfat), placed by the layout
// `fsckFatVerbose` printed; -1 when the file has no clusters. *report gets mshowfat's output.
qint64 fatFileEnd(const QString &mt, const QString &layout, const QString &file, QString *report);

// Makes a btrfs on `node` and, through a mount, writes a 90 MiB filler, then the tree under
// `src`, and deletes the filler and `doomed`: files then lie past a shrink's new end.
bool makeBtrfsWithHoles(const QString &node, const QString &src, const QStringList &doomed,
                        QString *error);

// Makes an F2FS on `node` holding the tree under `src` (sload.f2fs: no F2FS driver here).
bool makeLoadedF2fs(const QString &node, const QString &src, QString *error);

// An F2FS's size and segment size, from dump.f2fs's superblock.
struct F2fsSize
{
    qint64 bytes = -1;
    qint64 segmentBytes = -1;
};
F2fsSize f2fsSize(const QString &node);

// Every file of an F2FS read back without the kernel driver: fsck.f2fs -t lists the tree with
// inode numbers, dump.f2fs -i writes each file to ./lost_found.
QMap<QString, QByteArray> f2fsTreeSha256(const QString &node, QString *error);

// Runs `body` in a forked child (which may change its mount namespace or drop root without
// touching this process) and returns what it returned.
QByteArray inChild(const std::function<QByteArray()> &body);

} // namespace shrinktest
