// Power cuts during a move and during its resume, simulated on the write level (see
// powercutblockio.h): whatever part of the unsynced writes reached the disk, a resume must finish
// the move with every byte where it belongs. A missing or misplaced sync in the mover shows up
// here as a destination that differs from the source.

#include "move/datamover.h"
#include "move/moveplan.h"
#include "movetestdata.h"
#include "powercutblockio.h"
#include "reducedrun.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace partwise;

using namespace partwise::move;

namespace {

constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = 1024 * KiB;
constexpr std::uint64_t kImageSize = 40 * MiB;
constexpr std::uint64_t kSeed = 0xC0FFEE;

MoveRequest requestFor(std::uint64_t source, std::uint64_t destination, std::uint64_t length,
                       std::uint64_t chunk, std::vector<Extent> extents = {})
{
    MoveRequest request;
    request.sourceOffset = source;
    request.destinationOffset = destination;
    request.length = length;
    request.chunkSize = chunk;
    request.extents = std::move(extents);
    return request;
}

} // namespace

Q_DECLARE_METATYPE(partwise::move::MoveRequest)

class TestPowerCut : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_image;
    QString m_journal;

    bool freshImage()
    {
        QFile::remove(m_journal);
        QFile::remove(m_journal + QStringLiteral(".new"));
        return movetest::writePatternFile(m_image, kImageSize, kSeed);
    }

    MoveOutcome runWithCut(const MoveRequest &request, long cutAt, std::uint64_t seed, bool resume,
                           long *writes = nullptr)
    {
        auto state = std::make_shared<movetest::PowerCutState>();
        state->cutAtWrite = cutAt;
        state->seed = seed;
        DataMover mover;
        mover.setBlockIoOpener(movetest::powerCutOpener(state));
        const MoveOutcome result = resume ? mover.resume(m_journal) : mover.run(request, m_journal);
        if (writes)
            *writes = state->writesSeen;
        return result;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_image = m_dir.filePath(QStringLiteral("disk.img"));
        m_journal = m_dir.filePath(QStringLiteral("disk.img.partwise-move"));
    }

    void powerCutAnywhereThenResume_data()
    {
        QTest::addColumn<MoveRequest>("request");
        QTest::addColumn<long>("cuts"); // at random writes; fewer in the sanitizer stage
        const std::uint64_t chunk = MoveRequest::kDefaultChunkSize;
        const std::vector<Extent> used{{0, 3 * MiB}, {6 * MiB, 5 * MiB}, {20 * MiB, 4 * MiB}};
        const OverlapWay flush = OverlapWay::FlushPerShift;
        const OverlapWay journal = OverlapWay::JournalWindow;
        using movetest::withWay;
        QTest::newRow("GPT 34 to 2048, 1 MiB chunks")
            << withWay(requestFor(34 * 512, 2048 * 512, 24 * MiB, MiB), flush) << 25L;
        QTest::newRow("GPT 34 to 2048, default chunks")
            << withWay(requestFor(34 * 512, 2048 * 512, 24 * MiB, chunk), flush) << 25L;
        QTest::newRow("3 KiB shift, 34 to 40")
            << requestFor(34 * 512, 40 * 512, 24 * MiB, MiB) << 25L;
        QTest::newRow("shift larger than a chunk")
            << requestFor(MiB, 4 * MiB, 24 * MiB, MiB) << 25L;
        QTest::newRow("1 MiB to the left, default chunks")
            << withWay(requestFor(6 * MiB, 5 * MiB, 24 * MiB, chunk), flush) << 25L;
        QTest::newRow("to the left, 1 MiB chunks")
            << requestFor(6 * MiB, 40 * 512, 24 * MiB, MiB) << 25L;
        QTest::newRow("256 KiB shift, journaled 4 MiB chunks")
            << requestFor(34 * 512, 546 * 512, 24 * MiB, 4 * MiB) << 25L;
        QTest::newRow("used blocks only")
            << withWay(requestFor(34 * 512, 2048 * 512, 24 * MiB, chunk, used), flush) << 25L;
        // The journal-window way: a fixed 12 cuts each (the way shares the flush-per-shift way's
        // plan and its table, and differs in the window records and their order of writes).
        QTest::newRow("4001 to 2048, 4 MiB windows journaled")
            << withWay(requestFor(4001 * 512, 2048 * 512, 24 * MiB, 4 * MiB), journal) << 12L;
        QTest::newRow("GPT 34 to 2048, one window journaled")
            << withWay(requestFor(34 * 512, 2048 * 512, 12 * MiB, chunk), journal) << 8L;
        QTest::newRow("used blocks only, windows journaled")
            << withWay(requestFor(34 * 512, 2048 * 512, 24 * MiB, 4 * MiB, used), journal) << 12L;
        // Timed: twelve 2 MiB windows, the first four both ways in turn, then either way, which
        // may change window by window.
        QTest::newRow("4001 to 2048, 2 MiB windows timed")
            << requestFor(4001 * 512, 2048 * 512, 24 * MiB, 2 * MiB) << 12L;
    }

    void powerCutAnywhereThenResume()
    {
        QFETCH(MoveRequest, request);
        QFETCH(long, cuts);
        request.devicePath = m_image;
        bool fromEnv = false;
        std::uint64_t seed = qEnvironmentVariable("PARTWISE_MOVE_SEED").toULongLong(&fromEnv);
        if (!fromEnv)
            seed = QRandomGenerator::global()->generate64();
        qInfo() << "power-cut seed (set PARTWISE_MOVE_SEED to repeat):" << seed;
        std::mt19937_64 random(seed);

        // An uncut run counts the writes, so the cuts can land on any of them.
        QVERIFY(freshImage());
        long writes = 0;
        const MoveOutcome whole = runWithCut(request, -1, 0, false, &writes);
        QVERIFY2(whole.ok(), qPrintable(whole.message));
        QVERIFY(movetest::moveProblem(m_image, request, kImageSize, kSeed).isEmpty());
        QVERIFY(writes > 2);

        // `cuts` at random writes; 8 of 25 in the sanitizer stage (reducedrun.h), after the main
        // build's full number.
        cuts = std::min<long>(writes, pwtest::reducedRun() ? std::max(3L, cuts * 8 / 25) : cuts);
        for (long n = 0; n < cuts; ++n) {
            const long cutAt = cuts == writes ? n + 1 : 1 + static_cast<long>(random() % writes);
            QVERIFY(freshImage());
            const MoveOutcome cut = runWithCut(request, cutAt, random(), false);
            QVERIFY2(
                !cut.ok(),
                qPrintable(
                    QStringLiteral("cut at write %1 of %2 went unnoticed").arg(cutAt).arg(writes)));
            // Half the time the power fails again while the move is being resumed.
            const bool journalLeft = QFile::exists(m_journal);
            if (journalLeft && random() % 2)
                runWithCut(request, 1 + static_cast<long>(random() % (writes / 2 + 1)), random(),
                           true);

            DataMover mover;
            if (QFile::exists(m_journal)) {
                const MoveOutcome resumed = mover.resume(m_journal);
                QVERIFY2(
                    resumed.ok(),
                    qPrintable(
                        QStringLiteral("cut at write %1: %2").arg(cutAt).arg(resumed.message)));
            } else if (!journalLeft) {
                // Cut before the journal existed: the disk must be untouched, and a new run
                // must work.
                QCOMPARE(movetest::firstMismatch(m_image, 0, kImageSize, 0, kSeed),
                         std::int64_t(-1));
                const MoveOutcome again = mover.run(request, m_journal);
                QVERIFY2(again.ok(), qPrintable(again.message));
            }
            const QString problem = movetest::moveProblem(m_image, request, kImageSize, kSeed);
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("cut at write %1 of %2: %3")
                                                       .arg(cutAt)
                                                       .arg(writes)
                                                       .arg(problem)));
            QVERIFY(!QFile::exists(m_journal));
        }
    }

    // A record written while the previous chunk is still being written is torn by a power cut:
    // its header reached the disk, its copy of the next chunk did not. That chunk's source is
    // still intact, so a resume can take it from there; but the chunk overlaps its own source,
    // and writing it puts the only good copy at risk. Power fails again during that write: the
    // resume after it must still find every byte (the data must have been journaled again first).
    void tornRecordThenCutReplay_data()
    {
        QTest::addColumn<long>("resumeCutAt");
        QTest::newRow("cut at the resume's first device write") << 1L;
        QTest::newRow("cut at its second") << 2L;
        QTest::newRow("cut at its third") << 3L;
    }

    void tornRecordThenCutReplay()
    {
        QFETCH(long, resumeCutAt);
        MoveRequest request = requestFor(34 * 512, 40 * 512, 24 * MiB, MiB);
        request.devicePath = m_image;
        QVERIFY(freshImage());
        const auto isJournal = [](const QString &file) {
            return file.contains(QStringLiteral(".partwise-move"));
        };

        auto tear = std::make_shared<movetest::PowerCutState>();
        tear->counts = [isJournal](const QString &file, std::size_t length) {
            return isJournal(file) && length > 4096; // records that carry a chunk's data
        };
        tear->cutAtWrite = 4; // a record written beside the chunk before it
        tear->survives = [](const movetest::PowerCutState::Unsynced &write, std::uint64_t block,
                            bool cutWrite) { return cutWrite && block == write.offset; };
        DataMover first;
        first.setBlockIoOpener(movetest::powerCutOpener(tear));
        QVERIFY(!first.run(request, m_journal).ok());
        QVERIFY(tear->cut);
        QVERIFY(QFile::exists(m_journal));

        auto again = std::make_shared<movetest::PowerCutState>();
        again->counts = [isJournal](const QString &file, std::size_t) { return !isJournal(file); };
        again->cutAtWrite = resumeCutAt;
        again->survives = [](const movetest::PowerCutState::Unsynced &, std::uint64_t block, bool) {
            return block / 4096 % 2 == 0;
        };
        DataMover second;
        second.setBlockIoOpener(movetest::powerCutOpener(again));
        const MoveOutcome cut = second.resume(m_journal);
        QVERIFY2(!cut.ok() && again->cut, "the resume's power cut did not happen");

        DataMover last;
        const MoveOutcome resumed = last.resume(m_journal);
        QVERIFY2(resumed.ok(), qPrintable(resumed.message));
        const QString problem = movetest::moveProblem(m_image, request, kImageSize, kSeed);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
};

QTEST_GUILESS_MAIN(TestPowerCut)
#include "tst_powercut.moc"
