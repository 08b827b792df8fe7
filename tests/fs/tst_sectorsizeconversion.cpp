// A FAT or NTFS boot sector is whatever the copied filesystem says, and the sector-size
// conversion runs as root: a boot sector that claims more than its partition holds is refused
// and nothing is written, not even past the partition's end (where the next partition lies).
// Crafted boot sectors in a small file; no tool runs.

#include "fs/fatsectorsize.h"
#include "fs/ntfssectorsize.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

using namespace partwise;

namespace {

constexpr qint64 kPartition = 8192; // two 4096-byte sectors; the "next partition" follows
constexpr qint64 kFile = 64 * 1024;

QByteArray sha256Of(const QString &path)
{
    QFile f(path);
    QCryptographicHash h(QCryptographicHash::Sha256);
    return f.open(QIODevice::ReadOnly) && h.addData(&f) ? h.result() : QByteArray();
}

// A file whose first 512 bytes are `boot` and the rest a pattern.
bool writeDisk(const QString &path, const QByteArray &boot)
{
    QByteArray bytes(kFile, '\x5a');
    bytes.replace(0, boot.size(), boot);
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray signedSector()
{
    QByteArray b(512, '\0');
    b[510] = char(0x55);
    b[511] = char(0xAA);
    return b;
}

} // namespace

class TestSectorSizeConversion : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    // FAT32 of 512-byte sectors that converts exactly (32 reserved, FAT of 8, 4 KiB clusters)
    // but claims 64 KiB, with its backup boot sector at 6: in 4096-byte sectors that is at byte
    // 24576, past a partition of 8 KiB.
    void fatClaimingMoreThanItsPartitionIsRefused()
    {
        QByteArray b = signedSector();
        qToLittleEndian<quint16>(512, b.data() + 0x0B);
        b[0x0D] = 8;
        qToLittleEndian<quint16>(32, b.data() + 0x0E);
        b[0x10] = 2;
        qToLittleEndian<quint32>(128, b.data() + 0x20);
        qToLittleEndian<quint32>(8, b.data() + 0x24);
        qToLittleEndian<quint16>(1, b.data() + 0x30);
        qToLittleEndian<quint16>(6, b.data() + 0x32);
        const QString disk = m_dir.filePath(QStringLiteral("fat.img"));
        QVERIFY(writeDisk(disk, b));
        QVERIFY(judgeFatSectorSize(b, 512, 4096).converts); // the geometry itself divides
        const QByteArray before = sha256Of(disk);
        QString error;
        QVERIFY(!convertFatSectorSize(disk, 0, kPartition, 512, 4096, &error));
        QVERIFY2(error.contains(QLatin1String("claims more sectors than its partition")),
                 qPrintable(error));
        QCOMPARE(sha256Of(disk), before);
    }

    // NTFS of 4 KiB clusters claiming 2^60 sectors: refused before the size is multiplied.
    void ntfsClaimingMoreThanItsPartitionIsRefused()
    {
        QByteArray b = signedSector();
        b.replace(3, 8, QByteArrayLiteral("NTFS    "));
        qToLittleEndian<quint16>(512, b.data() + 0x0B);
        b[0x0D] = 8;
        qToLittleEndian<qint64>(qint64(1) << 60, b.data() + 0x28);
        const QString disk = m_dir.filePath(QStringLiteral("ntfs.img"));
        QVERIFY(writeDisk(disk, b));
        QVERIFY(judgeNtfsSectorSize(b, 512, 4096).converts);
        const QByteArray before = sha256Of(disk);
        QString error;
        QVERIFY(!convertNtfsSectorSize(disk, 0, kPartition, 512, 4096, &error));
        QVERIFY2(error.contains(QLatin1String("claims more sectors than its partition")),
                 qPrintable(error));
        QCOMPARE(sha256Of(disk), before);
    }
};

QTEST_GUILESS_MAIN(TestSectorSizeConversion)
#include "tst_sectorsizeconversion.moc"
