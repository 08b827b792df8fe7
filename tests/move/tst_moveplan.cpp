// The mover's plan and the order a finished move is read back in: pure arithmetic, checked on
// hand-worked ranges.
#include "move/moveplan.h"
#include "move/overlapchooser.h"
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
    void windowsHoldAChunksWorthOfBytes();
    void chooserTimesBothWaysThenTakesTheClearlyCheaper();
    void chooserKeepsAFlushPerShiftOnANearTie();
    void chooserFollowsAChangeInTheDisksLoad();
    void chooserKeepsAWayAskedForAndShortMovesUntimed();
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

void MovePlanTest::windowsHoldAChunksWorthOfBytes()
{
    // 4001 -> 2048 (the move to the left of the issue): 976 KiB pieces, 32 MiB windows by
    // default; a request's smaller chunk makes smaller windows, never smaller than a piece.
    const MoveRequest left = request(4001 * 512, 2048 * 512, 64 * kMiB, 32 * kMiB);
    const MovePlan plan = planMove(left);
    QVERIFY(plan.cutToShift);
    QCOMPARE(plan.largestChunk, std::uint64_t(976 * 1024));
    QCOMPARE(windowBytesOf(left, plan), 32 * kMiB);
    QCOMPARE(windowBytesOf(request(4001 * 512, 2048 * 512, 64 * kMiB, 2 * kMiB), plan), 2 * kMiB);
    QCOMPARE(windowBytesOf(request(4001 * 512, 2048 * 512, 64 * kMiB, 512 * 1024), plan),
             std::uint64_t(976 * 1024));
    QCOMPARE(windowBytesOf(request(0, kMiB, 64 * kMiB, 64 * kMiB), plan), 32 * kMiB);
}

namespace {

// Feeds `chooser` windows of `bytes` timed by `seconds(way)` until `windows` are done, and
// returns the ways it took in order and the lines it logged.
template <typename Timing>
std::pair<QString, QStringList> drive(OverlapChooser &chooser, int windows, Timing seconds,
                                      std::uint64_t bytes = 32 * kMiB)
{
    QString ways;
    QStringList lines;
    for (int i = 0; i < windows; ++i) {
        const OverlapWay way = chooser.next();
        ways += way == OverlapWay::JournalWindow ? QLatin1Char('J') : QLatin1Char('F');
        if (const QString line = chooser.windowDone(way, bytes, seconds(i, way)); !line.isEmpty())
            lines << line;
    }
    return {ways, lines};
}

} // namespace

void MovePlanTest::chooserTimesBothWaysThenTakesTheClearlyCheaper()
{
    OverlapChooser chooser(OverlapWay::Measure, 40, 976 * 1024, 32 * kMiB);
    QVERIFY(chooser.startNote().contains(QStringLiteral("in turn")));
    // A flush per shift 60 ms a window, journaled 40 ms: journaled from the fifth window on,
    // with one window in 16 timed the other way again.
    const auto [ways, lines] = drive(chooser, 40, [](int, OverlapWay w) {
        return w == OverlapWay::FlushPerShift ? 0.060 : 0.040;
    });
    QCOMPARE(ways, QStringLiteral("FJFJ") + QString(16, QLatin1Char('J')) + QStringLiteral("F") +
                       QString(16, QLatin1Char('J')) + QStringLiteral("F") +
                       QString(2, QLatin1Char('J')));
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines[0].contains(QStringLiteral("journaled first")) &&
                 lines[0].contains(QStringLiteral("60 ms")) &&
                 lines[0].contains(QStringLiteral("40 ms")),
             qPrintable(lines[0]));
}

void MovePlanTest::chooserKeepsAFlushPerShiftOnANearTie()
{
    // Journaled 10 % cheaper: not clearly, so the bytes are written once.
    OverlapChooser chooser(OverlapWay::Measure, 20, 976 * 1024, 32 * kMiB);
    const auto [ways, lines] = drive(chooser, 20, [](int, OverlapWay w) {
        return w == OverlapWay::FlushPerShift ? 0.050 : 0.045;
    });
    QCOMPARE(ways, QStringLiteral("FJFJ") + QString(16, QLatin1Char('F')));
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines[0].contains(QStringLiteral("a flush per shift")), qPrintable(lines[0]));
    // One slow journaled window among fast ones does not decide: the mean of both is compared.
    OverlapChooser noisy(OverlapWay::Measure, 20, 976 * 1024, 32 * kMiB);
    const auto [noisyWays, noisyLines] = drive(noisy, 5, [](int i, OverlapWay w) {
        return w == OverlapWay::FlushPerShift ? 0.050 : (i == 1 ? 0.200 : 0.030);
    });
    QCOMPARE(noisyWays, QStringLiteral("FJFJF"));
}

void MovePlanTest::chooserFollowsAChangeInTheDisksLoad()
{
    // Journaling wins at first; from window 10 on each flush costs far less (the load that
    // slowed them is gone): the next time a flush per shift is timed, it is timed once more to
    // be sure, then takes over.
    OverlapChooser chooser(OverlapWay::Measure, 60, 976 * 1024, 32 * kMiB);
    const auto [ways, lines] = drive(chooser, 40, [](int i, OverlapWay w) {
        if (w == OverlapWay::JournalWindow)
            return 0.040;
        return i < 10 ? 0.080 : 0.020;
    });
    QCOMPARE(ways.left(22),
             QStringLiteral("FJFJ") + QString(16, QLatin1Char('J')) + QStringLiteral("FF"));
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines[1].contains(QStringLiteral("changed")) &&
                 lines[1].contains(QStringLiteral("a flush per shift")),
             qPrintable(lines[1]));
    QCOMPARE(ways.mid(22, 16), QString(16, QLatin1Char('F')));
}

void MovePlanTest::chooserKeepsAWayAskedForAndShortMovesUntimed()
{
    for (const OverlapWay asked : {OverlapWay::FlushPerShift, OverlapWay::JournalWindow}) {
        OverlapChooser chooser(asked, 40, 976 * 1024, 32 * kMiB);
        const auto [ways, lines] = drive(chooser, 10, [](int, OverlapWay) { return 0.05; });
        QCOMPARE(ways, QString(10, QLatin1Char(asked == OverlapWay::JournalWindow ? 'J' : 'F')));
        QVERIFY(lines.isEmpty());
        QVERIFY(chooser.startNote().contains(QStringLiteral("the way set for this move")));
    }
    // Seven windows: too few for four of them to be spent timing.
    OverlapChooser chooser(OverlapWay::Measure, 7, 976 * 1024, 32 * kMiB);
    const auto [ways, lines] = drive(
        chooser, 7, [](int, OverlapWay w) { return w == OverlapWay::FlushPerShift ? 0.5 : 0.01; });
    QCOMPARE(ways, QString(7, QLatin1Char('F')));
    QVERIFY(chooser.startNote().contains(QStringLiteral("not timed")));
}

QTEST_GUILESS_MAIN(MovePlanTest)
#include "tst_moveplan.moc"
