#include "fsaging.h"

#include "filetree.h"
#include "fsfixture.h"
#include "toolrun.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QThread>

#include <random>

#include <fcntl.h>
#include <unistd.h>

namespace pwtest {

namespace {

ToolResult run(const QString &program, const QStringList &args)
{
    return runTool(program, args, {}, 300000);
}

bool isFuse(const QString &fs)
{
    return fs == QLatin1String("ntfs") || fs == QLatin1String("exfat");
}

// A FUSE driver still running for `node` (umount returns before it has closed the device).
bool fuseDriverHolds(const QString &node)
{
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &pid : pids) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> args = cmdline.readAll().split('\0');
        if (args.isEmpty() || !args.contains(QFile::encodeName(node)))
            continue;
        const QByteArray program = args.first().mid(args.first().lastIndexOf('/') + 1);
        if (program == "ntfs-3g" || program.contains("exfat"))
            return true;
    }
    return false;
}

// Appends to both files and to their expected copies, with an fsync each time.
bool appendPiece(const QString &path, const QByteArray &piece, QString *error)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) {
        *error = QStringLiteral("cannot open %1").arg(path);
        return false;
    }
    const bool ok =
        ::write(fd, piece.constData(), size_t(piece.size())) == piece.size() && ::fsync(fd) == 0;
    ::close(fd);
    if (!ok)
        *error = QStringLiteral("cannot append to %1").arg(path);
    return ok;
}

QByteArray randomPiece(std::mt19937 &rng, int bytes)
{
    QByteArray piece(bytes, '\0');
    for (char &c : piece)
        c = char(rng());
    return piece;
}

} // namespace

bool mountFilesystem(const QString &node, const QString &fs, const QString &dir, bool readOnly,
                     QString *error)
{
    ToolResult r;
    const QString options = readOnly ? QStringLiteral("ro") : QStringLiteral("rw");
    if (isFuse(fs)) {
        r = run(fs == QLatin1String("ntfs") ? QStringLiteral("ntfs-3g")
                                            : QStringLiteral("mount.exfat-fuse"),
                {QStringLiteral("-o"), options, node, dir});
    } else {
        if (fs == QLatin1String("btrfs"))
            forgetBtrfsDevices();
        r = run(QStringLiteral("mount"),
                {QStringLiteral("-t"), fs, QStringLiteral("-o"), options, node, dir});
    }
    if (!r.ok())
        *error = r.describe();
    return r.ok();
}

bool unmountFilesystem(const QString &node, const QString &dir, QString *error)
{
    run(QStringLiteral("sync"), {});
    const ToolResult r = run(QStringLiteral("umount"), {dir});
    if (!r.ok()) {
        *error = r.describe();
        return false;
    }
    QElapsedTimer timer;
    timer.start();
    while (fuseDriverHolds(node)) {
        if (timer.hasExpired(10000)) {
            *error = QStringLiteral("the FUSE driver for %1 did not exit").arg(node);
            return false;
        }
        QThread::msleep(50);
    }
    return true;
}

bool ageFilesystem(const QString &node, const QString &fs, const QString &expectedDir,
                   int smallFiles, qint64 largeBytes, quint32 seed, QString *error)
{
    if (!makeFileTree(expectedDir, smallFiles, largeBytes, seed, error))
        return false;
    QDir expected(expectedDir);
    std::mt19937 rng(seed ^ 0x5eedu);
    constexpr int kPieces = 48;
    constexpr int kPieceBytes = 16 * 1024;

    if (fs == QLatin1String("f2fs")) {
        for (int i = 0; i < kPieces; ++i) {
            for (const char *name : {"FRAGA.BIN", "FRAGB.BIN"}) {
                if (!appendPiece(expected.filePath(QLatin1String(name)),
                                 randomPiece(rng, kPieceBytes), error))
                    return false;
            }
        }
        const ToolResult r =
            run(QStringLiteral("sload.f2fs"), {QStringLiteral("-f"), expectedDir, node});
        if (!r.ok())
            *error = r.describe();
        return r.ok();
    }

    // The large file waits outside until the deletions have left holes.
    QTemporaryDir later;
    const QString largeLater = later.filePath(QStringLiteral("large.bin"));
    if (!QFile::rename(expected.filePath(QStringLiteral("large.bin")), largeLater)) {
        *error = QStringLiteral("cannot move large.bin aside");
        return false;
    }
    if (!fillFilesystem(node, fs, expectedDir, error))
        return false;

    QStringList doomed;
    QDirIterator it(expectedDir, QDir::Files, QDirIterator::Subdirectories);
    QStringList all;
    while (it.hasNext())
        all << expected.relativeFilePath(it.next());
    all.sort();
    for (int i = 0; i < all.size(); i += 3)
        doomed << all.at(i);

    if (blkidTypeOf(fs) == QLatin1String("vfat")) {
        QStringList args{QStringLiteral("-i"), node};
        for (const QString &file : doomed)
            args << QStringLiteral("::/") + file;
        ToolResult r = mtools(QStringLiteral("mdel"), args);
        if (!r.ok()) {
            *error = r.describe();
            return false;
        }
        for (const QString &file : doomed)
            QFile::remove(expected.filePath(file));
        // mcopy takes the first free clusters: the new files fill the holes, in fragments.
        if (!QFile::rename(largeLater, expected.filePath(QStringLiteral("large.bin"))))
            return false;
        QStringList copy{QStringLiteral("-Q"), QStringLiteral("-i"), node,
                         expected.filePath(QStringLiteral("large.bin"))};
        for (const char *name : {"FRAGA.BIN", "FRAGB.BIN"}) {
            QFile file(expected.filePath(QLatin1String(name)));
            if (!file.open(QIODevice::WriteOnly))
                return false;
            for (int i = 0; i < kPieces; ++i)
                file.write(randomPiece(rng, kPieceBytes));
            copy << file.fileName();
        }
        r = mtools(QStringLiteral("mcopy"), copy << QStringLiteral("::/"));
        if (!r.ok())
            *error = r.describe();
        return r.ok();
    }

    QTemporaryDir mnt;
    if (!mountFilesystem(node, fs, mnt.path(), false, error))
        return false;
    QDir mounted(mnt.path());
    bool ok = true;
    for (const QString &file : doomed) {
        ok = ok && QFile::remove(mounted.filePath(file)) && QFile::remove(expected.filePath(file));
    }
    run(QStringLiteral("sync"), {});
    ok = ok && QFile::copy(largeLater, mounted.filePath(QStringLiteral("large.bin"))) &&
         QFile::rename(largeLater, expected.filePath(QStringLiteral("large.bin")));
    for (int i = 0; ok && i < kPieces; ++i) {
        for (const char *name : {"FRAGA.BIN", "FRAGB.BIN"}) {
            const QByteArray piece = randomPiece(rng, kPieceBytes);
            ok = ok && appendPiece(mounted.filePath(QLatin1String(name)), piece, error) &&
                 appendPiece(expected.filePath(QLatin1String(name)), piece, error);
        }
    }
    if (!ok && error->isEmpty())
        *error = QStringLiteral("deleting or adding files on %1 failed").arg(fs);
    QString unmountError;
    const bool unmounted = unmountFilesystem(node, mnt.path(), &unmountError);
    if (ok && !unmounted)
        *error = unmountError;
    return ok && unmounted;
}

} // namespace pwtest
