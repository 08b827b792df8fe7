// The copier every disk copy and paste runs (ops/partitioncopy.h), on two files: chunks read
// ahead of the writes and read back behind them. A write the "disk" corrupts in flight is caught
// by the read-back, the copy stops saying so and leaves the target resumable from that chunk, and
// the resume gives the source's bytes; a corrupted chunk of an earlier run is caught by the pass
// after a resumed copy. Unverified, the same corruption goes through: the read-back is what
// catches it. Bytes compared with QFile reads, not with Partwise's checksums.
#include "faultyblockio.h"
#include "ops/partitioncopy.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using partwise::ChunkCopyRequest;
using partwise::ChunkCopyResult;
using partwise::move::BlockIo;
using partwise::move::Extent;

namespace {

constexpr qint64 kMiB = 1 << 20;

// The used extents of a made-up filesystem, 1 MiB apart; cut by copyChunksOf().
const std::vector<Extent> kExtents = {{0, 3 * kMiB}, {4 * kMiB, 9 * kMiB}, {14 * kMiB, 5 * kMiB}};

QByteArray bytesOf(const QString &path, qint64 offset, qint64 length)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(offset))
        return {};
    return f.read(length);
}

} // namespace

class ChunkCopyTest : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void corruptedWriteCaughtThenResumed();
    void earlierRunsChunksReadBackAfterAResume();
    void unverifiedCopyDoesNotNotice();

private:
    ChunkCopyResult copy(qint64 chunksDone, bool verify, std::uint64_t corruptAt);
    bool sameAsSource() const;

    QTemporaryDir m_dir;
    QString m_source;
    QString m_target;
    static constexpr quint64 kTargetBase = 512 * 1024; // where the copy lands in the target
};

void ChunkCopyTest::init()
{
    QVERIFY(m_dir.isValid());
    m_source = m_dir.filePath(QStringLiteral("source.img"));
    m_target = m_dir.filePath(QStringLiteral("target.img"));
    QByteArray data(20 * kMiB, Qt::Uninitialized);
    QRandomGenerator(7).fillRange(reinterpret_cast<quint32 *>(data.data()), data.size() / 4);
    QFile source(m_source);
    QVERIFY(source.open(QIODevice::WriteOnly) && source.write(data) == data.size());
    QFile target(m_target);
    QVERIFY(target.open(QIODevice::WriteOnly) && target.resize(24 * kMiB));
}

ChunkCopyResult ChunkCopyTest::copy(qint64 chunksDone, bool verify, std::uint64_t corruptAt)
{
    int error = 0;
    auto from = partwise::move::openFileBlockIo(m_source, BlockIo::Access::ReadOnly, &error);
    auto state = std::make_shared<movetest::FaultState>();
    state->file = m_target;
    state->corruptWriteAt = corruptAt;
    movetest::FaultyBlockIo to(
        partwise::move::openFileBlockIo(m_target, BlockIo::Access::ReadWrite, &error), state);
    ChunkCopyRequest r;
    r.from = from.get();
    r.to = &to;
    r.toBase = kTargetBase;
    r.chunks = partwise::copyChunksOf(kExtents);
    r.chunksDone = chunksDone;
    r.verify = verify;
    r.what = QStringLiteral("partition 1");
    r.cancelledText = QStringLiteral("Cancelled.");
    return partwise::copyChunks(r);
}

bool ChunkCopyTest::sameAsSource() const
{
    for (const Extent &e : kExtents)
        if (bytesOf(m_source, qint64(e.offset), qint64(e.length)) !=
            bytesOf(m_target, qint64(kTargetBase + e.offset), qint64(e.length)))
            return false;
    return true;
}

void ChunkCopyTest::corruptedWriteCaughtThenResumed()
{
    const auto chunks = partwise::copyChunksOf(kExtents);
    QCOMPARE(chunks.size(), std::size_t(6)); // 3 MiB, 4 + 4 + 1 MiB, 4 + 1 MiB
    // A byte of the fifth chunk (source 14 MiB + 100) goes wrong on its way to the disk.
    const ChunkCopyResult bad = copy(0, true, kTargetBase + 14 * kMiB + 100);
    QVERIFY(!bad.ok);
    QVERIFY2(bad.error.contains(QStringLiteral("does not read back as written")),
             qPrintable(bad.error));
    QVERIFY2(bad.error.contains(QString::number(kTargetBase + 14 * kMiB)), qPrintable(bad.error));
    QCOMPARE(bad.chunksDone, qint64(4)); // a resume copies it again
    QVERIFY(!sameAsSource());

    const ChunkCopyResult resumed = copy(bad.chunksDone, true, UINT64_MAX);
    QVERIFY2(resumed.ok, qPrintable(resumed.error));
    QCOMPARE(resumed.chunksDone, qint64(chunks.size()));
    QVERIFY(sameAsSource());
}

void ChunkCopyTest::earlierRunsChunksReadBackAfterAResume()
{
    // A first run wrote every chunk with one corrupted and was stopped unverified; a resume
    // that starts after it still reads that chunk back (it was never read back).
    QVERIFY(copy(0, false, kTargetBase + 5 * kMiB).ok);
    const ChunkCopyResult resumed = copy(4, true, UINT64_MAX);
    QVERIFY(!resumed.ok);
    QVERIFY2(resumed.error.contains(QStringLiteral("does not read back as written")),
             qPrintable(resumed.error));
    QCOMPARE(resumed.chunksDone, qint64(1)); // the second chunk: 4 MiB at 4 MiB
    QVERIFY(copy(resumed.chunksDone, true, UINT64_MAX).ok);
    QVERIFY(sameAsSource());
}

void ChunkCopyTest::unverifiedCopyDoesNotNotice()
{
    const ChunkCopyResult r = copy(0, false, kTargetBase + 14 * kMiB + 100);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(!sameAsSource());
}

QTEST_GUILESS_MAIN(ChunkCopyTest)
#include "tst_chunkcopy.moc"
