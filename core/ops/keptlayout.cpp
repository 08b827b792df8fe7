#include "ops/keptlayout.h"

#include "table/diskreader.h"

#include <QCryptographicHash>

namespace partwise {

KeptLayout::KeptLayout(const QString &target, qint64 sectorSize, const QString &resumeCommand)
    : m_target(target), m_sectorSize(sectorSize), m_resume(resumeCommand)
{
}

KeptLayout::KeptLayout(std::shared_ptr<const OpenDisk> opened, const QString &target,
                       qint64 sectorSize, const QString &resumeCommand)
    : m_target(target), m_sectorSize(sectorSize), m_resume(resumeCommand), m_disk(std::move(opened))
{
}

bool KeptLayout::ensureOpen(QString *error)
{
    if (m_disk && m_disk->isOpen())
        return true;
    auto disk = std::make_shared<OpenDisk>();
    if (!disk->open(m_target, error))
        return false;
    m_disk = std::move(disk);
    return true;
}

bool KeptLayout::read(DiskLayout *layout, QString *error)
{
    if (m_layout) {
        if (!unchanged(error))
            return false;
        *layout = *m_layout;
        return true;
    }
    if (!ensureOpen(error))
        return false;
    DiskReadOptions options;
    options.forcedSectorSize = m_sectorSize;
    const DiskReadResult r = readDisk(*m_disk, options);
    if (!r.ok) {
        *error = r.error;
        return false;
    }
    m_layout = r.layout;
    *layout = r.layout;
    return settle(error);
}

bool KeptLayout::claim(ExclusiveClaim *claim, bool forTableWrite, QString *why)
{
    if (!ensureOpen(why))
        return false;
    return forTableWrite ? claim->takeForTableWrite(*m_disk, why) : claim->take(*m_disk, why);
}

move::BlockIoOpener KeptLayout::blockIoOpener() const
{
    return [disk = m_disk, target = m_target](const QString &path, move::BlockIo::Access access,
                                              int *error) {
        if (path == target && disk && disk->isOpen())
            return move::openFileBlockIoThrough(disk->ioPath(), path, access, error);
        return move::openFileBlockIo(path, access, error);
    };
}

bool KeptLayout::settle(QString *error)
{
    if (!m_layout)
        return true;
    // A step's tool wrote through a partition's node: the disk's own cache still holds the
    // bytes from before it (a FAT's map read stale after a shrink). Rereading the whole disk
    // through libparted used to drop that cache as a side effect of its open.
    m_disk->dropCache();
    return tableDigest(&m_digest, error);
}

bool KeptLayout::adoptWrittenTable(DiskLayout written, QString *error)
{
    if (!m_layout)
        return true; // nothing kept yet: the next step reads the disk whole
    for (PartitionInfo &p : written.regions)
        if (const PartitionInfo *was = m_layout->partitionByNumber(p.number); was && !p.isFree()) {
            p.filesystem = was->filesystem;
            p.label = was->label;
            p.uuid = was->uuid;
        }
    m_layout = written;
    return settle(error);
}

bool KeptLayout::tableDigest(QByteArray *digest, QString *error) const
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const auto &[first, last] : m_layout->tableSectors) {
        QByteArray bytes;
        QString why;
        if (!m_disk->readAt(first * m_sectorSize, (last - first + 1) * m_sectorSize, &bytes,
                            &why)) {
            *error =
                QStringLiteral("Cannot read the partition table of %1: %2.").arg(m_target, why);
            return false;
        }
        hash.addData(bytes);
    }
    *digest = hash.result();
    return true;
}

bool KeptLayout::unchanged(QString *error) const
{
    QString why;
    if (!m_disk->stillNamed(&why)) {
        *error = QStringLiteral("%1. Nothing more was written; run `%2` once it names the disk "
                                "again.")
                     .arg(why, m_resume);
        return false;
    }
    QByteArray now;
    if (!tableDigest(&now, error))
        return false;
    if (now != m_digest) {
        *error = QStringLiteral("The partition table of %1 was changed by another program while "
                                "the job ran. Nothing more was written; check the disk, then run "
                                "`%2` to finish.")
                     .arg(m_target, m_resume);
        return false;
    }
    return true;
}

} // namespace partwise
