#include "ops/tablebackup.h"

#include "base/atomicfile.h"
#include "base/nofollowfile.h"
#include "base/shellquote.h"
#include "base/toolrunner.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

constexpr qint64 kEdgeBytes = 1 << 20;

qint64 edgeLength(qint64 sizeBytes)
{
    return std::min(kEdgeBytes, sizeBytes);
}

bool readRange(const QString &path, qint64 offset, qint64 length, QByteArray *out, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(offset)) {
        *error = QStringLiteral("Cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    *out = f.read(length);
    if (out->size() != length) {
        *error = QStringLiteral("Short read from %1 at byte %2.").arg(path).arg(offset);
        return false;
    }
    return true;
}

// A backup is only a backup once every file of it, name included, is on the disk.
bool writeFileSynced(const QString &path, const QByteArray &data, QString *error)
{
    const AtomicWrite written = writeFileAtomically(path, data);
    if (!written.ok()) {
        *error = QStringLiteral("Cannot write %1: %2").arg(path, written.reason);
        return false;
    }
    return true;
}

bool writeRange(const QString &path, qint64 offset, const QByteArray &data, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite) || !f.seek(offset) || f.write(data) != data.size() ||
        !f.flush() || ::fsync(f.handle()) != 0) {
        *error = QStringLiteral("Cannot write %1 at byte %2: %3")
                     .arg(path)
                     .arg(offset)
                     .arg(f.errorString());
        return false;
    }
    return true;
}

qint64 targetSize(const QString &path)
{
    const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    const off_t size = ::lseek(fd, 0, SEEK_END);
    ::close(fd);
    return size;
}

} // namespace

QString defaultBackupRoot()
{
    if (::geteuid() == 0)
        return QStringLiteral("/var/backups/partwise");
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("partwise/backups"));
}

bool backupPartitionTable(const QString &target, qint64 sizeBytes, const QString &root,
                          TableBackup *backup, QString *error)
{
    const qint64 size = targetSize(target) > 0 ? targetSize(target) : sizeBytes;
    const QString stamp =
        QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    const QString folder =
        QDir(root).filePath(QStringLiteral("%1-%2").arg(QFileInfo(target).fileName(), stamp));
    // The raw edges of a disk hold whatever its first and last MiB held: for root's eyes only
    // (0700, files 0600), as are the folders above them.
    QString why;
    if (!makePrivateFolder(root, &why) || !makePrivateFolder(folder, &why)) {
        *error = QStringLiteral("Cannot create the backup folder %1: %2.").arg(folder, why);
        return false;
    }
    const qint64 edge = edgeLength(size);
    QByteArray head, tail;
    if (!readRange(target, 0, edge, &head, error) ||
        !readRange(target, size - edge, edge, &tail, error) ||
        !writeFileSynced(QDir(folder).filePath(QStringLiteral("first-mib.bin")), head, error) ||
        !writeFileSynced(QDir(folder).filePath(QStringLiteral("last-mib.bin")), tail, error))
        return false;

    // sfdisk's dump is for people and for sfdisk; a disk without a table has none.
    const ToolResult dump =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-d"), target}, QStringLiteral("fdisk"));
    if (dump.ok && !writeFileSynced(QDir(folder).filePath(QStringLiteral("table.sfdisk")),
                                    dump.output.toUtf8(), error))
        return false;

    const QJsonObject meta{
        {QStringLiteral("target"), target},
        {QStringLiteral("size_bytes"), size},
        {QStringLiteral("edge_bytes"), edge},
        {QStringLiteral("created"), QDateTime::currentDateTime().toString(Qt::ISODate)}};
    // Quoted, since these lines are pasted as root and a file's name may be anything.
    const QString disk = shellQuoted(target);
    const QString first = shellQuoted(QDir(folder).filePath(QStringLiteral("first-mib.bin")));
    const QString last = shellQuoted(QDir(folder).filePath(QStringLiteral("last-mib.bin")));
    const QString restore =
        QStringLiteral("To put this partition table back on %1:\n"
                       "  partwise-cli restore %2 %1\n"
                       "or by hand:\n"
                       "  dd if=%3 of=%1 bs=%5 count=1 conv=notrunc,fsync\n"
                       "  dd if=%4 of=%1 bs=%5 seek=%6 oflag=seek_bytes count=1 "
                       "conv=notrunc,fsync\n")
            .arg(disk, shellQuoted(folder), first, last)
            .arg(edge)
            .arg(size - edge) +
        (dump.ok
             ? QStringLiteral("or, for the table only: sfdisk %1 < %2\n")
                   .arg(disk, shellQuoted(QDir(folder).filePath(QStringLiteral("table.sfdisk"))))
             : QString());
    if (!writeFileSynced(QDir(folder).filePath(QStringLiteral("backup.json")),
                         QJsonDocument(meta).toJson(), error) ||
        !writeFileSynced(QDir(folder).filePath(QStringLiteral("RESTORE.txt")), restore.toUtf8(),
                         error))
        return false;
    backup->folder = folder;
    backup->restoreInstructions = restore;
    return true;
}

bool restorePartitionTable(const QString &backupFolder, const QString &target, QString *error)
{
    QFile metaFile(QDir(backupFolder).filePath(QStringLiteral("backup.json")));
    if (!metaFile.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1 is not a Partwise backup folder (no backup.json).")
                     .arg(backupFolder);
        return false;
    }
    const QJsonObject meta = QJsonDocument::fromJson(metaFile.readAll()).object();
    const qint64 size = meta.value(QStringLiteral("size_bytes")).toInteger();
    const qint64 edge = meta.value(QStringLiteral("edge_bytes")).toInteger();
    if (targetSize(target) != size) {
        *error = QStringLiteral("%1 is %2 bytes but the backup was taken from a disk of %3 bytes; "
                                "refusing to restore onto a different disk.")
                     .arg(target)
                     .arg(targetSize(target))
                     .arg(size);
        return false;
    }
    QByteArray head, tail;
    if (!readRange(QDir(backupFolder).filePath(QStringLiteral("first-mib.bin")), 0, edge, &head,
                   error) ||
        !readRange(QDir(backupFolder).filePath(QStringLiteral("last-mib.bin")), 0, edge, &tail,
                   error))
        return false;
    return writeRange(target, 0, head, error) && writeRange(target, size - edge, tail, error);
}

} // namespace partwise
