#include "ops/tablebackup.h"

#include "base/atomicfile.h"
#include "base/nofollowfile.h"
#include "base/shellquote.h"
#include "base/toolrunner.h"
#include "ops/sfdiskdump.h"

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
    if (::geteuid() == 0) {
        // Root's folder may be named instead (the test suites keep theirs in the build folder,
        // not in the machine's). A helper started for a user never sees the variable: its
        // environment is reset. A user's own runs keep their own folder.
        if (const QString named = qEnvironmentVariable("PARTWISE_BACKUP_ROOT"); !named.isEmpty())
            return named;
        return QStringLiteral("/var/backups/partwise");
    }
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
                       "(it asks first, and refuses while a job waits for `partwise-cli resume`\n"
                       "or when data was moved after this backup: then this table is wrong).\n"
                       "By hand, only when no data was moved since (these put back the raw\n"
                       "first and last MiB, data inside them included, but no EBR of a\n"
                       "logical partition):\n"
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

QString backupTargetMismatch(const QString &backupFolder, const QString &target)
{
    QFile metaFile(QDir(backupFolder).filePath(QStringLiteral("backup.json")));
    if (!metaFile.open(QIODevice::ReadOnly))
        return QStringLiteral("%1 is not a Partwise backup folder (no backup.json).")
            .arg(backupFolder);
    const QJsonObject meta = QJsonDocument::fromJson(metaFile.readAll()).object();
    const qint64 size = meta.value(QStringLiteral("size_bytes")).toInteger();
    if (targetSize(target) != size)
        return QStringLiteral("%1 is %2 bytes but the backup was taken from a disk of %3 bytes; "
                              "refusing to restore onto a different disk.")
            .arg(target)
            .arg(targetSize(target))
            .arg(size);
    return {};
}

namespace {

struct ByteRange
{
    qint64 begin = 0;
    qint64 end = 0; // exclusive
};

// The bytes of the backup's partitions that hold data: the disk's own, never the backup's. An
// ext4 at sector 63 has its superblock inside the first MiB, and the raw copy of it is as old
// as the backup; an extended partition holds EBRs, not data, and is left to sfdisk.
QList<ByteRange> partitionData(const SfdiskDump &dump)
{
    QList<ByteRange> ranges;
    for (const DumpedPartition &p : dump.partitions)
        if (!p.isExtended())
            ranges << ByteRange{p.start * dump.sectorSize, (p.start + p.size) * dump.sectorSize};
    return ranges;
}

// Writes `data` at `offset` except where it overlaps one of `skip`.
bool writeOutside(const QString &target, qint64 offset, const QByteArray &data,
                  const QList<ByteRange> &skip, QString *error)
{
    QList<ByteRange> pieces{{offset, offset + data.size()}};
    for (const ByteRange &s : skip) {
        QList<ByteRange> kept;
        for (const ByteRange &p : pieces) {
            if (s.end <= p.begin || s.begin >= p.end) {
                kept << p;
                continue;
            }
            if (s.begin > p.begin)
                kept << ByteRange{p.begin, s.begin};
            if (s.end < p.end)
                kept << ByteRange{s.end, p.end};
        }
        pieces = kept;
    }
    for (const ByteRange &p : pieces)
        if (!writeRange(target, p.begin, data.mid(p.begin - offset, p.end - p.begin), error))
            return false;
    return true;
}

// The EBRs of an MBR's logical partitions lie anywhere inside the extended partition, out of
// reach of the first and last MiB. They are written by sfdisk from the dump it made of them
// rather than saved raw: finding each EBR means walking the chain by hand, which this project
// leaves to the tools, and sfdisk rewrites the whole chain, so no EBR the job left behind stays
// linked. Its EBRs may sit elsewhere in the gap before each logical partition than the old
// ones did (always outside every partition's data); the table they describe is the backup's,
// entry for entry.
bool rewriteLogicalChain(const QString &backupFolder, const QString &target, QString *error)
{
    QFile dump(QDir(backupFolder).filePath(QStringLiteral("table.sfdisk")));
    if (!dump.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("Cannot read %1: %2").arg(dump.fileName(), dump.errorString());
        return false;
    }
    const ToolResult written = runToolWithInput(
        QStringLiteral("sfdisk"),
        {QStringLiteral("--wipe"), QStringLiteral("never"), QStringLiteral("--wipe-partitions"),
         QStringLiteral("never"), QStringLiteral("--no-reread"), QStringLiteral("--no-tell-kernel"),
         target},
        QStringLiteral("fdisk"), dump.readAll());
    if (!written.ok) {
        *error = QStringLiteral("sfdisk could not write the logical partitions of the backup "
                                "onto %1: %2")
                     .arg(target, written.error.isEmpty() ? written.output : written.error);
        return false;
    }
    return true;
}

} // namespace

bool restorePartitionTable(const QString &backupFolder, const QString &target, QString *error)
{
    if (const QString mismatch = backupTargetMismatch(backupFolder, target); !mismatch.isEmpty()) {
        *error = mismatch;
        return false;
    }
    QFile metaFile(QDir(backupFolder).filePath(QStringLiteral("backup.json")));
    metaFile.open(QIODevice::ReadOnly);
    const QJsonObject meta = QJsonDocument::fromJson(metaFile.readAll()).object();
    const qint64 size = meta.value(QStringLiteral("size_bytes")).toInteger();
    const qint64 edge = meta.value(QStringLiteral("edge_bytes")).toInteger();
    QByteArray head, tail;
    if (!readRange(QDir(backupFolder).filePath(QStringLiteral("first-mib.bin")), 0, edge, &head,
                   error) ||
        !readRange(QDir(backupFolder).filePath(QStringLiteral("last-mib.bin")), 0, edge, &tail,
                   error))
        return false;
    const SfdiskDump dump = readBackupTable(backupFolder);
    const QList<ByteRange> data = partitionData(dump);
    if (!writeOutside(target, 0, head, data, error) ||
        !writeOutside(target, size - edge, tail, data, error))
        return false;
    if (!dump.hasExtended())
        return true;
    // sfdisk writes the MBR's entries with CHS values of its own; the first sector goes back
    // byte for byte afterwards (its extended entry still points at the same first EBR).
    return rewriteLogicalChain(backupFolder, target, error) &&
           writeRange(target, 0, head.left(dump.sectorSize), error);
}

qint64 backedUpDiskBytes(const QString &backupFolder)
{
    QFile metaFile(QDir(backupFolder).filePath(QStringLiteral("backup.json")));
    if (!metaFile.open(QIODevice::ReadOnly))
        return 0;
    return QJsonDocument::fromJson(metaFile.readAll())
        .object()
        .value(QStringLiteral("size_bytes"))
        .toInteger();
}

SfdiskDump readBackupTable(const QString &backupFolder)
{
    QFile f(QDir(backupFolder).filePath(QStringLiteral("table.sfdisk")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return parseSfdiskDump(QString::fromUtf8(f.readAll()));
}

} // namespace partwise
