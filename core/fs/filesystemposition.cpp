#include "fs/filesystemposition.h"

#include "fs/filesystemkinds.h"

#include <QFile>
#include <QList>
#include <QtEndian>

#include <unistd.h>

namespace partwise {

namespace {

constexpr qint64 kHiddenSectorsOffset = 0x1C;

bool patchBootSector(QFile &f, qint64 at, quint32 value, QString *error)
{
    QByteArray sector(512, '\0');
    if (!f.seek(at) || f.read(sector.data(), 512) != 512) {
        *error = QStringLiteral("Cannot read the boot sector at byte %1.").arg(at);
        return false;
    }
    // 0x55AA closes every FAT and NTFS boot sector: refuse to patch anything else.
    if (quint8(sector[510]) != 0x55 || quint8(sector[511]) != 0xAA) {
        *error =
            QStringLiteral("No boot sector signature at byte %1; nothing was changed.").arg(at);
        return false;
    }
    qToLittleEndian<quint32>(value, sector.data() + kHiddenSectorsOffset);
    if (!f.seek(at) || f.write(sector) != 512 || !f.flush() || ::fsync(f.handle()) != 0) {
        *error = QStringLiteral("Cannot write the boot sector at byte %1.").arg(at);
        return false;
    }
    return true;
}

bool isExtlinuxBootSector(const QByteArray &sector)
{
    const QByteArray oem = sector.mid(3, 8);
    return oem == "SYSLINUX" || oem == "EXTLINUX";
}

// extlinux's boot sector on ext2/3/4: patched only when it is there (most ext filesystems have
// an empty boot block). Writing the new start again is harmless, so resume may redo it.
bool updateExtlinuxStart(const QString &path, qint64 offset, qint64 newStartSector, QString *error)
{
    if (newStartSector > 0xFFFFFFFFLL)
        return true;
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite)) {
        *error = QStringLiteral("Cannot open %1: %2").arg(path, f.errorString());
        return false;
    }
    QByteArray sector(512, '\0');
    if (!f.seek(offset) || f.read(sector.data(), 512) != 512) {
        *error =
            QStringLiteral("Cannot read the boot block at byte %1 of %2.").arg(offset).arg(path);
        return false;
    }
    if (!isExtlinuxBootSector(sector))
        return true;
    if (qFromLittleEndian<quint32>(sector.constData() + kHiddenSectorsOffset) ==
        quint32(newStartSector))
        return true;
    return patchBootSector(f, offset, quint32(newStartSector), error);
}

} // namespace

bool recordsItsStart(const QString &path, qint64 offset, const QString &fs, qint64 newStartSector)
{
    if (newStartSector > 0xFFFFFFFFLL)
        return false;
    if (fs == QLatin1String("vfat") || fs == QLatin1String("ntfs"))
        return true;
    if (!isExtFilesystem(fs))
        return false;
    // Unreadable: updateHiddenSectors() says why.
    QFile f(path);
    QByteArray sector(512, '\0');
    return !f.open(QIODevice::ReadOnly) || !f.seek(offset) || f.read(sector.data(), 512) != 512 ||
           isExtlinuxBootSector(sector);
}

bool updateHiddenSectors(const QString &path, qint64 offset, qint64 partitionSize,
                         const QString &fs, qint64 newStartSector, QString *error)
{
    const bool fat = fs == QLatin1String("vfat");
    if (isExtFilesystem(fs))
        return updateExtlinuxStart(path, offset, newStartSector, error);
    if (!fat && fs != QLatin1String("ntfs"))
        return true;
    if (newStartSector > 0xFFFFFFFFLL)
        return true; // the field cannot hold it; Windows ignores it on such disks
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite)) {
        *error = QStringLiteral("Cannot open %1: %2").arg(path, f.errorString());
        return false;
    }
    const quint32 value = quint32(newStartSector);
    const QByteArray bpb = (f.seek(offset), f.read(0x40));
    if (bpb.size() < 0x40 || !patchBootSector(f, offset, value, error))
        return false;
    const qint64 bytesPerSector = qFromLittleEndian<quint16>(bpb.constData() + 0x0B);
    if (bytesPerSector < 512)
        return true;
    if (fat) {
        // FAT32 (16-bit sectors-per-FAT is 0) keeps a backup boot sector, usually sector 6.
        const bool isFat32 = qFromLittleEndian<quint16>(bpb.constData() + 0x16) == 0;
        const quint16 backup = qFromLittleEndian<quint16>(bpb.constData() + 0x32);
        if (isFat32 && backup > 0 && backup < 32)
            return patchBootSector(f, offset + backup * bytesPerSector, value, error);
        return true;
    }
    // NTFS keeps its backup boot sector in the last sector of its partition (ntfsfix compares
    // it with the primary there). mkntfs makes the volume one sector shorter than the
    // partition, so that is also just past the volume's last sector; after ntfsresize the
    // volume ends on a cluster and the backup still sits in the partition's last sector.
    const qint64 volumeSectors = qFromLittleEndian<qint64>(bpb.constData() + 0x28);
    QList<qint64> backups{offset + partitionSize - bytesPerSector};
    if (volumeSectors > 0 && !backups.contains(offset + volumeSectors * bytesPerSector))
        backups << offset + volumeSectors * bytesPerSector;
    for (const qint64 at : backups) {
        QByteArray oem(8, '\0');
        if (at + 512 > offset + partitionSize || !f.seek(at + 3) || f.read(oem.data(), 8) != 8 ||
            oem != QByteArrayLiteral("NTFS    "))
            continue;
        QString ignored; // an absent backup is not worth failing the move for
        patchBootSector(f, at, value, &ignored);
    }
    return true;
}

} // namespace partwise
