// The mover's plan and the order a finished move is read back in: pure arithmetic, checked on
// hand-worked ranges.
#include "move/moveplan.h"
#include "move/verifyspans.h"

#include <QTest>

using namespace partwise;

using namespace partwise::move;

namespace {

constexpr std::uint64_t kMiB = 1ULL << 20;

MoveRequest request(std::uint64_t source, std::uint64_t destination, std::uint64_t length,
                    std::uint64_t chunk = 4 * kMiB)
{
    MoveRequest r;
    r.devicePath = QStringLiteral("unused.img");
    r.sourceOffset = source;
    r.destinationOffset = destination;
    r.length = length;
    r.chunkSize = chunk;
    return r;
}

} // namespace

class MovePlanTest : public QObject
{
    Q_OBJECT

private slots:
    void rightMoveRunsBackwardsAndVerifiesAscending();
    void leftMoveRunsForwards();
    void usedExtentsLeaveGapsUnread();
    void onlyChunksOverlappingTheirSourceAreJournaled();
    void shiftsFromHalfAMebibyteAreCutIntoChains();
};

void MovePlanTest::rightMoveRunsBackwardsAndVerifiesAscending()
{
    // 10 MiB moved up by 256 KiB in 4 MiB chunks: overlapping, so copied from the end, and
    // every chunk overlaps its own source (the shift is too small to cut the chunks to).
    const std::uint64_t destination = 1 * kMiB + 256 * 1024;
    const MovePlan plan = planMove(request(1 * kMiB, destination, 10 * kMiB));
    QVERIFY(plan.backwards);
    QVERIFY(!plan.cutToShift);
    QCOMPARE(plan.chunks.size(), std::size_t(3));
    QCOMPARE(plan.chunks.front().sourceOffset, 9 * kMiB);
    QCOMPARE(plan.chunks.front().length, 2 * kMiB);
    QCOMPARE(plan.chunks.back().sourceOffset, 1 * kMiB);
    for (const MoveChunk &c : plan.chunks)
        QVERIFY(c.needsJournal);
    QCOMPARE(plan.bytesToCopy, 10 * kMiB);

    // Read back in ascending order, as one read when the limit allows...
    VerifyOrder order = verifyOrder(plan, 32 * kMiB);
    QCOMPARE(order.chunks, (std::vector<std::size_t>{2, 1, 0}));
    QCOMPARE(order.spans.size(), std::size_t(1));
    QCOMPARE(order.spans[0].offset, destination);
    QCOMPARE(order.spans[0].length, 10 * kMiB);
    QCOMPARE(order.spans[0].count, std::size_t(3));

    // ...and in reads no larger than the limit otherwise.
    order = verifyOrder(plan, 8 * kMiB);
    QCOMPARE(order.spans.size(), std::size_t(2));
    QCOMPARE(order.spans[0].length, 8 * kMiB);
    QCOMPARE(order.spans[1].offset, destination + 8 * kMiB);
    QCOMPARE(order.spans[1].first, std::size_t(2));
}

void MovePlanTest::leftMoveRunsForwards()
{
    const MovePlan plan = planMove(request(3 * kMiB, 1 * kMiB, 9 * kMiB));
    QVERIFY(!plan.backwards);
    QCOMPARE(plan.chunks.front().sourceOffset, 3 * kMiB);
    QCOMPARE(plan.chunks.front().destinationOffset, 1 * kMiB);
    // The shift (2 MiB) is half a chunk: cut to the shift, no chunk overlaps its own source.
    for (const MoveChunk &c : plan.chunks) {
        QCOMPARE(c.length <= 2 * kMiB, true);
        QVERIFY(!c.needsJournal);
    }
    const VerifyOrder order = verifyOrder(plan, 32 * kMiB);
    QCOMPARE(order.chunks.front(), std::size_t(0));
    QCOMPARE(order.spans.size(), std::size_t(1));
}

void MovePlanTest::usedExtentsLeaveGapsUnread()
{
    // Two used extents 8 MiB apart: more than the merge gap, so two chunks and two reads.
    MoveRequest r = request(0, 64 * kMiB, 32 * kMiB);
    r.extents = {{0, 1 * kMiB}, {9 * kMiB, 1 * kMiB}};
    const MovePlan plan = planMove(r);
    QCOMPARE(plan.bytesToCopy, 2 * kMiB);
    const VerifyOrder order = verifyOrder(plan, 32 * kMiB);
    QCOMPARE(order.spans.size(), std::size_t(2));
    QCOMPARE(order.spans[0].offset, 64 * kMiB);
    QCOMPARE(order.spans[1].offset, 73 * kMiB);
}

void MovePlanTest::onlyChunksOverlappingTheirSourceAreJournaled()
{
    // A 3 KiB shift: every chunk overlaps its own source and goes through the journal.
    const MovePlan small = planMove(request(34 * 512, 40 * 512, 8 * kMiB));
    for (const MoveChunk &c : small.chunks)
        QVERIFY(c.needsJournal);
    // A shift of a whole chunk: nothing overlaps its own source.
    const MovePlan large = planMove(request(0, 4 * kMiB, 8 * kMiB));
    for (const MoveChunk &c : large.chunks)
        QVERIFY(!c.needsJournal);
}

void MovePlanTest::shiftsFromHalfAMebibyteAreCutIntoChains()
{
    // GPT 34 -> 2048 (a 1007 KiB shift) with the default 32 MiB chunks: cut to the shift (in
    // whole 4 KiB: 1004 KiB), so no chunk is journaled or overlaps its own source, each chunk's
    // destination covers the source of the one before it, and every destination is on 4 KiB.
    MoveRequest r = request(34 * 512, 2048 * 512, 64 * kMiB, MoveRequest::kDefaultChunkSize);
    const MovePlan cut = planMove(r);
    QVERIFY(cut.cutToShift);
    QCOMPARE(cut.largestChunk, std::uint64_t(1004 * 1024));
    QCOMPARE(cut.bytesToCopy, 64 * kMiB);
    for (std::size_t i = 0; i < cut.chunks.size(); ++i) {
        const MoveChunk &c = cut.chunks[i];
        QVERIFY(!c.needsJournal);
        QVERIFY(c.destinationOffset >= c.sourceOffset + c.length);
        QCOMPARE(c.destinationOffset % 4096, std::uint64_t(0));
        if (i > 0) {
            const MoveChunk &before = cut.chunks[i - 1];
            QVERIFY(c.destinationOffset < before.sourceOffset + before.length);
            QVERIFY(before.sourceOffset < c.destinationOffset + c.length);
        }
    }
    // The copy without crash safety keeps whole chunks.
    const MovePlan whole = planMove(r, ShiftCut::Never);
    QVERIFY(!whole.cutToShift);
    QCOMPARE(whole.largestChunk, MoveRequest::kDefaultChunkSize);

    // Half a MiB is the smallest shift cut to; 256 KiB goes through the journal.
    r.destinationOffset = r.sourceOffset + 512 * 1024;
    QVERIFY(planMove(r).cutToShift);
    r.destinationOffset = r.sourceOffset + 256 * 1024;
    const MovePlan journaled = planMove(r);
    QVERIFY(!journaled.cutToShift);
    QCOMPARE(journaled.largestChunk, MoveRequest::kDefaultChunkSize);
    QVERIFY(journaled.chunks.front().needsJournal);
}

QTEST_GUILESS_MAIN(MovePlanTest)
#include "tst_moveplan.moc"
