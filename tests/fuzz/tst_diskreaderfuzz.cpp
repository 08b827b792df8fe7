// The disk reader (libparted through core/table, 4Kn detection, libblkid) on tables damaged in
// every way a deterministic mutator finds from real seeds made by sfdisk: an MBR at sector 63,
// an old fdisk layout with a chain of EBRs, a GPT at 34 and a 4Kn GPT. Bits flipped and bytes
// overwritten in the first and last sectors, EBR links pointed at themselves and far away, and
// the image cut short at every sector of its start. Each mutant must be read (or refused with a
// sentence) without a crash, in bounded time, with every partition it reports inside the disk,
// and without one byte of the image changing.

#include "diskimagebuilder.h"
#include "reducedrun.h"

#include "table/diskreader.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

using namespace partwise;

using namespace pwtest;

namespace {

// The sanitizer run (tests/support/reducedrun.h) reads half as many mutants of each seed.
int mutantsPerSeed()
{
    return pwtest::reducedRun() ? 60 : 120;
}
constexpr qint64 kSlowReadMs = 5000;

struct Region
{
    qint64 offset;
    qint64 length;
};

} // namespace

class TestDiskReaderFuzz : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<DiskImageBuilder> m_builder;
    int m_cases = 0;

    // Reads the mutant and checks what a user relies on; returns a failure description.
    // The table areas of an image: its first and last MiB, where a table write would land
    // (hashing all of it for every mutant would take most of the test's time).
    static QByteArray tableAreas(const QString &path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QByteArray bytes = f.read(1 << 20);
        if (f.size() > (2 << 20) && f.seek(f.size() - (1 << 20)))
            bytes += f.read(1 << 20);
        return bytes + QByteArray::number(QFileInfo(path).lastModified().toMSecsSinceEpoch());
    }

    QString readAndJudge(const QString &path)
    {
        const QByteArray before = tableAreas(path);
        QElapsedTimer timer;
        timer.start();
        DiskReadOptions options;
        const DiskReadResult r = readDisk(path, options);
        ++m_cases;
        if (timer.elapsed() > kSlowReadMs)
            return QStringLiteral("took %1 ms").arg(timer.elapsed());
        if (tableAreas(path) != before)
            return QStringLiteral("the image changed while it was read");
        if (!r.ok)
            return r.error.trimmed().isEmpty() ? QStringLiteral("refused without a reason")
                                               : QString();
        const qint64 ss = r.layout.device.topology.logicalSectorSize;
        const qint64 sectors = ss > 0 ? r.layout.device.sizeBytes / ss : 0;
        for (const PartitionInfo &p : r.layout.regions)
            if (p.startSector < 0 || p.endSector < p.startSector || p.endSector >= sectors)
                return QStringLiteral("region %1–%2 outside a disk of %3 sectors")
                    .arg(p.startSector)
                    .arg(p.endSector)
                    .arg(sectors);
        return {};
    }

    static long peakResidentKiB()
    {
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        return usage.ru_maxrss;
    }

    static bool writeAt(const QString &path, qint64 offset, const QByteArray &bytes)
    {
        QFile f(path);
        return f.open(QIODevice::ReadWrite) && f.seek(offset) && f.write(bytes) == bytes.size();
    }

    void mutateSeed(const Fixture &seed, const QList<Region> &regions, quint32 salt)
    {
        QVERIFY2(seed.ok, qPrintable(seed.error));
        QFile source(seed.path);
        QVERIFY(source.open(QIODevice::ReadOnly));
        const qint64 size = source.size();
        QRandomGenerator rng(0xF022u ^ salt);
        const QString mutant = m_dir.filePath(QStringLiteral("mutant.img"));
        QStringList failures;
        QFile::remove(mutant);
        QVERIFY(QFile::copy(seed.path, mutant));
        QFile::setPermissions(mutant, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        for (int i = 0, n = mutantsPerSeed(); i < n; ++i) {
            const Region region = regions.at(int(rng.bounded(regions.size())));
            const qint64 at = region.offset + qint64(rng.bounded(quint32(region.length)));
            QByteArray bytes;
            QFile in(seed.path);
            QVERIFY(in.open(QIODevice::ReadOnly) && in.seek(at));
            switch (rng.bounded(4)) {
            case 0: { // flip up to eight bits
                bytes = in.read(8);
                for (int b = 0, n = 1 + int(rng.bounded(8)); b < n && !bytes.isEmpty(); ++b)
                    bytes[int(rng.bounded(bytes.size()))] ^= char(1 << rng.bounded(8));
                break;
            }
            case 1: // random bytes
                for (int b = 0, n = 1 + int(rng.bounded(32)); b < n; ++b)
                    bytes.append(char(rng.bounded(256)));
                break;
            case 2: // all ones: huge LBAs, counts and sizes
                bytes = QByteArray(4 + int(rng.bounded(12)), char(0xFF));
                break;
            default: // zeros: vanished signatures and entries
                bytes = QByteArray(16 + int(rng.bounded(496)), '\0');
                break;
            }
            bytes = bytes.left(int(std::max<qint64>(0, size - at)));
            QVERIFY(in.seek(at));
            const QByteArray original = in.read(bytes.size());
            QVERIFY(writeAt(mutant, at, bytes));
            if (const QString why = readAndJudge(mutant); !why.isEmpty())
                failures
                    << QStringLiteral("%1 byte(s) at %2: %3").arg(bytes.size()).arg(at).arg(why);
            QVERIFY(writeAt(mutant, at, original)); // the next mutant starts from the seed
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 5).join(QLatin1Char('\n'))));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_builder = std::make_unique<DiskImageBuilder>(m_dir.path());
    }

    void cleanupTestCase() { qInfo("%d mutants read", m_cases); }

    void mbrAt63() { mutateSeed(m_builder->winXpMbr(), {{0, 512}}, 1); }

    void ebrChain()
    {
        const Fixture seed = m_builder->oldFdiskCylinder();
        QVERIFY2(seed.ok, qPrintable(seed.error));
        // Every EBR libparted reads: sectors after the first that end in the 0x55AA signature.
        QFile f(seed.path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<Region> regions{{0, 512}};
        for (qint64 sector = 1; sector * 512 < f.size(); sector += 1) {
            if (!f.seek(sector * 512 + 510) || f.read(2) != QByteArray("\x55\xAA", 2))
                continue;
            if (f.seek(sector * 512 + 446) && f.read(64).count('\0') < 64)
                regions << Region{sector * 512 + 446, 64};
        }
        QVERIFY2(regions.size() >= 3, "the seed has no EBR chain to mutate");
        mutateSeed(seed, regions, 2);

        // Links that loop: each EBR's next-link pointed back at itself (relative start 0 of
        // the extended partition) and far beyond the disk's end.
        const QString mutant = m_dir.filePath(QStringLiteral("loop.img"));
        for (const Region &ebr : regions.mid(1)) {
            for (const QByteArray &link :
                 {QByteArray("\x00\x00\x00\x00", 4), QByteArray("\xFF\xFF\xFF\x7F", 4)}) {
                QFile::remove(mutant);
                QVERIFY(QFile::copy(seed.path, mutant));
                QFile::setPermissions(mutant, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
                // Second entry of the EBR (the link): type 0x05, start at byte 8 of the entry.
                QVERIFY(writeAt(mutant, ebr.offset + 16 + 4, QByteArray("\x05", 1)));
                QVERIFY(writeAt(mutant, ebr.offset + 16 + 8, link));
                QVERIFY(writeAt(mutant, ebr.offset + 16 + 12, QByteArray("\x00\x08\x00\x00", 4)));
                const QString why = readAndJudge(mutant);
                QVERIFY2(why.isEmpty(), qPrintable(why));
            }
        }
    }

    void gptAt34()
    {
        const Fixture seed = m_builder->gptClassic();
        QVERIFY2(seed.ok, qPrintable(seed.error));
        const qint64 size = QFileInfo(seed.path).size();
        // The protective MBR, the header, the entries, and the backup header and entries.
        mutateSeed(seed,
                   {{0, 512}, {512, 92}, {1024, 512}, {size - 512, 92}, {size - 33 * 512, 512}}, 3);
    }

    // A backup GPT header whose entry count says sixteen million (2 GiB of entries): the reader
    // must not follow it past the image's end. Answering libparted's read error with "Ignore"
    // made one read take 2 GiB of memory and 12 s of CRC over a buffer that was never filled.
    void backupHeaderClaimingHugeEntryArray()
    {
        const Fixture seed = m_builder->gptClassic();
        QVERIFY2(seed.ok, qPrintable(seed.error));
        const QString mutant = m_dir.filePath(QStringLiteral("huge-entries.img"));
        QFile::remove(mutant);
        QVERIFY(QFile::copy(seed.path, mutant));
        QFile::setPermissions(mutant, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        // NumberOfPartitionEntries is the 32-bit field at byte 80 of the header.
        const qint64 backupHeader = QFileInfo(mutant).size() - 512;
        QVERIFY(writeAt(mutant, backupHeader + 80, QByteArray("\x80\x00\xFF\x00", 4)));
        // Judged by memory, not time: AddressSanitizer's allocator alone takes seconds for the
        // 2 GiB libparted asks for, whether or not it is then filled.
        const long peakBefore = peakResidentKiB();
        const DiskReadResult r = readDisk(mutant, DiskReadOptions());
        const long grownMiB = (peakResidentKiB() - peakBefore) / 1024;
        QVERIFY2(grownMiB < 256, qPrintable(QStringLiteral("reading it took %1 MiB more memory at "
                                                           "its peak")
                                                .arg(grownMiB)));
        QVERIFY2(r.ok, qPrintable(r.error)); // the primary GPT is intact, as parted reads it
        QCOMPARE(r.layout.partitions().size(), 3);
    }

    void gpt4kn()
    {
        const Fixture seed = m_builder->gpt4kn();
        QVERIFY2(seed.ok, qPrintable(seed.error));
        // 4Kn detection reads the header at byte 4096; the entries follow at 8192.
        mutateSeed(seed, {{0, 512}, {4096, 92}, {8192, 512}}, 4);
    }

    void truncatedAtEverySector()
    {
        const Fixture seed = m_builder->gptClassic();
        QVERIFY2(seed.ok, qPrintable(seed.error));
        const QString mutant = m_dir.filePath(QStringLiteral("short.img"));
        QStringList failures;
        for (qint64 sectors = 0; sectors <= 70; ++sectors) {
            QFile::remove(mutant);
            QVERIFY(QFile::copy(seed.path, mutant));
            QFile::setPermissions(mutant, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            QVERIFY(QFile::resize(mutant, sectors * 512 + (sectors % 3 == 1 ? 100 : 0)));
            if (const QString why = readAndJudge(mutant); !why.isEmpty())
                failures << QStringLiteral("%1 sectors: %2").arg(sectors).arg(why);
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 5).join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestDiskReaderFuzz)
#include "tst_diskreaderfuzz.moc"
