// Memory stays bounded however large the partition: a 2 TiB range with a used-block map of
// 65,536 extents (the most a map is allowed, core/fs/partclonemap.cpp), moved and verified by
// the journaled mover, keeps the process under 256 MiB resident. The image is a sparse file,
// so only the used blocks take space; each holds its own bytes, read back at the destination.

#include "move/datamover.h"
#include "move/moverequest.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

using namespace partwise;

using namespace partwise::move;

namespace {

constexpr std::uint64_t kTiB = 1ULL << 40;
constexpr std::uint64_t kExtents = 65536;
constexpr std::uint64_t kBlock = 4096;
constexpr std::uint64_t kSource = 63 * 512, kDestination = 2048 * 512;

// Where extent `index` lies in the range: every other 4 KiB of the first 512 MiB (the map as
// fragmented as it can be), the last one at the range's end, so the mover plans all 2 TiB
// while the disk sees few seeks.
std::uint64_t extentOffset(std::uint64_t index)
{
    return index + 1 < kExtents ? index * 2 * kBlock : 2 * kTiB - kBlock;
}

// The peak resident size of this process so far (VmHWM), in bytes.
qint64 peakResidentBytes()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
    return -1;
}

// The 4 KiB a used block holds: its index, over and over.
QByteArray blockOf(std::uint64_t index)
{
    QByteArray block(kBlock, Qt::Uninitialized);
    for (std::uint64_t i = 0; i < kBlock / 8; ++i)
        memcpy(block.data() + i * 8, &index, 8);
    return block;
}

} // namespace

class TestMemoryBound : public QObject
{
    Q_OBJECT

private slots:
    void twoTebibytesWithAFullMap();
};

void TestMemoryBound::twoTebibytesWithAFullMap()
{
    // A real filesystem (direct I/O and sparse files), not /tmp if that were a tmpfs.
    QTemporaryDir dir(QStringLiteral("/var/tmp/pw-memorybound-XXXXXX"));
    QVERIFY(dir.isValid());
    const QString image = dir.filePath(QStringLiteral("2tib.img"));
    const int fd = ::open(QFile::encodeName(image).constData(), O_RDWR | O_CREAT, 0600);
    QVERIFY(fd >= 0);
    QVERIFY(::ftruncate(fd, off_t(kDestination + 2 * kTiB + kBlock)) == 0);
    std::vector<Extent> extents;
    for (std::uint64_t i = 0; i < kExtents; ++i) {
        extents.push_back({extentOffset(i), kBlock});
        const QByteArray block = blockOf(i);
        QVERIFY(::pwrite(fd, block.constData(), kBlock, off_t(kSource + extentOffset(i))) ==
                ssize_t(kBlock));
    }
    ::fsync(fd);
    const qint64 before = peakResidentBytes();

    MoveRequest request;
    request.devicePath = image;
    request.sourceOffset = kSource;
    request.destinationOffset = kDestination;
    request.length = 2 * kTiB;
    request.extents = extents;
    request.verify = true;
    DataMover mover;
    const MoveOutcome outcome = mover.run(request, dir.filePath(QStringLiteral("move.journal")));
    QVERIFY2(outcome.ok(), qPrintable(outcome.message));
    const qint64 peak = peakResidentBytes();
    qInfo("peak resident: %lld MiB before the move, %lld MiB after; moved in %.1f s", before >> 20,
          peak >> 20, outcome.seconds);
    QVERIFY2(peak < (256LL << 20), qPrintable(QStringLiteral("%1 MiB").arg(peak >> 20)));

    QByteArray read(kBlock, Qt::Uninitialized);
    int wrong = 0;
    for (std::uint64_t i = 0; i < kExtents; ++i)
        if (::pread(fd, read.data(), kBlock, off_t(kDestination + extentOffset(i))) !=
                ssize_t(kBlock) ||
            read != blockOf(i))
            ++wrong;
    ::close(fd);
    QCOMPARE(wrong, 0);
}

QTEST_GUILESS_MAIN(TestMemoryBound)
#include "tst_memorybound.moc"
