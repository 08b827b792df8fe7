// A filesystem that looks used, not freshly filled: many small files, some deleted again, a
// large file and two files grown in turns, so the allocation has holes and fragments (root only).
#pragma once

#include <QString>

namespace pwtest {

// On the filesystem `fs` (fsfixture's names: ntfs, vfat, fat16, fat32, exfat, xfs, btrfs; and
// f2fs) on `node`, freshly made: writes `smallFiles` small files (makeFileTree), deletes every
// third one, then adds "large.bin" of `largeBytes` and FRAGA.BIN / FRAGB.BIN, each 48 pieces of
// 16 KiB appended in turns with an fsync after each (FAT: written whole, after the deletions,
// so they fill the holes). F2FS cannot be mounted here: its files are written by sload.f2fs,
// without deletions. Afterwards `expectedDir` holds exactly the files the filesystem should
// hold, written by the test itself, for treeSha256().
bool ageFilesystem(const QString &node, const QString &fs, const QString &expectedDir,
                   int smallFiles, qint64 largeBytes, quint32 seed, QString *error);

// Mounts (kernel driver, ntfs-3g or mount.exfat-fuse) and unmounts, waiting until a FUSE
// driver has let go of `node`.
bool mountFilesystem(const QString &node, const QString &fs, const QString &dir, bool readOnly,
                     QString *error);
bool unmountFilesystem(const QString &node, const QString &dir, QString *error);

} // namespace pwtest
