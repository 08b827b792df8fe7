// The data mover on real files and loop devices: every case checks what a user would check,
// that the bytes at the destination are the bytes that were at the source. Kills at random
// instants and inside writes are in tst_movecrash.cpp.

#include "faultyblockio.h"
#include "loopdevice.h"
#include "move/datamover.h"
#include "move/movejournal.h"
#include "move/moveplan.h"
#include "movetestdata.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace partwise;

using namespace partwise::move;
using movetest::firstMismatch;
using movetest::requestFor;

namespace {

constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = 1024 * KiB;
constexpr std::uint64_t kImageSize = 48 * MiB;
constexpr std::uint64_t kSeed = 0x5EED;

} // namespace

class TestDataMover : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_image;
    QString m_journal;

    void freshImage(std::uint64_t size = kImageSize)
    {
        QVERIFY(movetest::writePatternFile(m_image, size, kSeed));
        QFile::remove(m_journal);
    }

    void expectMoved(const QString &image, const MoveRequest &request,
                     std::uint64_t imageSize = kImageSize)
    {
        const QString problem = movetest::moveProblem(image, request, imageSize, kSeed);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_image = m_dir.filePath(QStringLiteral("disk.img"));
        m_journal = m_dir.filePath(QStringLiteral("disk.img.partwise-move"));
    }

    void planRunsBackwardsWhenMovingRight()
    {
        const MovePlan plan = planMove(requestFor(m_image, 17408, 20480, 20 * MiB, 8 * MiB));
        QVERIFY(plan.backwards);
        QCOMPARE(plan.chunks.size(), std::size_t(3));
        QVERIFY(plan.chunks.front().sourceOffset > plan.chunks.back().sourceOffset);
        for (const MoveChunk &chunk : plan.chunks)
            QVERIFY(chunk.needsJournal); // a 3 KiB shift overlaps every chunk's own source
        QCOMPARE(plan.bytesToCopy, 20 * MiB);
    }

    void planRunsForwardsWhenMovingLeftAndSkipsJournalForLargeShifts()
    {
        const MovePlan plan = planMove(requestFor(m_image, 6 * MiB, 2 * MiB, 20 * MiB, 8 * MiB));
        QVERIFY(!plan.backwards);
        QVERIFY(plan.chunks.front().sourceOffset < plan.chunks.back().sourceOffset);
        for (const MoveChunk &chunk : plan.chunks) {
            QVERIFY(!chunk.needsJournal); // chunks are cut to the 4 MiB shift
            QVERIFY(chunk.length <= 4 * MiB);
        }
    }

    void planCutsLargeShiftsInsteadOfJournaling()
    {
        // A 12 MiB shift with the default 32 MiB chunks is cut into shift-sized chunks, so
        // nothing is written twice; a 256 KiB shift is journaled in whole chunks.
        MoveRequest request = requestFor(m_image, 1 * MiB, 13 * MiB, 64 * MiB, 32 * MiB);
        MovePlan plan = planMove(request);
        for (const MoveChunk &chunk : plan.chunks) {
            QVERIFY(!chunk.needsJournal);
            QVERIFY(chunk.length <= 12 * MiB);
        }
        request.sourceOffset = 34 * 512;
        request.destinationOffset = 546 * 512;
        plan = planMove(request);
        QCOMPARE(plan.chunks.size(), std::size_t(2));
        QVERIFY(plan.chunks.front().needsJournal);
    }

    void planMergesCloseExtents()
    {
        MoveRequest request = requestFor(m_image, 0, 8 * MiB, 32 * MiB, 8 * MiB);
        request.extents = {{20 * MiB, 100}, {0, 5000}, {4096 * 3, 4096}, {30 * MiB, MiB}};
        const MovePlan plan = planMove(request);
        QCOMPARE(plan.chunks.size(), std::size_t(3));
        QCOMPARE(plan.bytesToCopy, 16 * KiB + 4 * KiB + MiB);
    }

    void moveRightOverlapping_data()
    {
        QTest::addColumn<std::uint64_t>("source");
        QTest::addColumn<std::uint64_t>("destination");
        QTest::addColumn<std::uint64_t>("length");
        QTest::newRow("GPT 34 to 2048")
            << std::uint64_t(34 * 512) << std::uint64_t(2048 * 512) << std::uint64_t(40 * MiB);
        QTest::newRow("3 KiB shift, 34 to 40")
            << std::uint64_t(34 * 512) << std::uint64_t(40 * 512) << std::uint64_t(40 * MiB);
        QTest::newRow("MBR 63 to 2048") << std::uint64_t(63 * 512) << std::uint64_t(2048 * 512)
                                        << std::uint64_t(33 * MiB + 512);
        QTest::newRow("shift of 5 MiB")
            << std::uint64_t(MiB) << std::uint64_t(6 * MiB) << std::uint64_t(40 * MiB);
        QTest::newRow("unaligned bytes")
            << std::uint64_t(1001ULL) << std::uint64_t(4097ULL) << std::uint64_t(20 * MiB + 13);
    }
    void moveRightOverlapping()
    {
        QFETCH(std::uint64_t, source);
        QFETCH(std::uint64_t, destination);
        QFETCH(std::uint64_t, length);
        freshImage();
        const MoveRequest request = requestFor(m_image, source, destination, length);
        const MoveOutcome result = DataMover().run(request, m_journal);
        QVERIFY2(result.ok(), qPrintable(result.message));
        QVERIFY(!QFile::exists(m_journal));
        expectMoved(m_image, request);
    }

    void moveLeftOverlapping_data()
    {
        QTest::addColumn<std::uint64_t>("source");
        QTest::addColumn<std::uint64_t>("destination");
        QTest::newRow("2048 to 40") << std::uint64_t(2048 * 512) << std::uint64_t(40 * 512);
        QTest::newRow("3 KiB shift left") << std::uint64_t(40 * 512) << std::uint64_t(34 * 512);
        QTest::newRow("shift of 6 MiB") << std::uint64_t(7 * MiB) << std::uint64_t(MiB);
    }
    void moveLeftOverlapping()
    {
        QFETCH(std::uint64_t, source);
        QFETCH(std::uint64_t, destination);
        freshImage();
        const MoveRequest request = requestFor(m_image, source, destination, 40 * MiB);
        const MoveOutcome result = DataMover().run(request, m_journal);
        QVERIFY2(result.ok(), qPrintable(result.message));
        expectMoved(m_image, request);
    }

    // A mostly empty partition in a sparse image: its zeros are punched, not written, so the
    // image stays about as small on disk as it was, and reads back the same.
    void sparseImageStaysSparse()
    {
        const QString image = m_dir.filePath(QStringLiteral("sparse.img"));
        QFile file(image);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.resize(64 * MiB));
        QByteArray data(int(MiB), Qt::Uninitialized);
        for (int i = 0; i < data.size(); ++i)
            data[i] = char(0x5a ^ (i * 7));
        QVERIFY(file.seek(34 * 512 + 4 * MiB) && file.write(data) == data.size());
        file.close();
        auto allocated = [&image] {
            struct stat st;
            return ::stat(QFile::encodeName(image).constData(), &st) == 0
                       ? qint64(st.st_blocks) * 512
                       : qint64(-1);
        };
        QVERIFY(allocated() <= qint64(2 * MiB));
        const MoveRequest request = requestFor(image, 34 * 512, 2048 * 512, 40 * MiB);
        const MoveOutcome result = DataMover().run(request, image + QStringLiteral(".journal"));
        QVERIFY2(result.ok(), qPrintable(result.message));
        QVERIFY2(allocated() <= qint64(4 * MiB), qPrintable(QString::number(allocated())));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.seek(2048 * 512 + 4 * MiB));
        QCOMPARE(file.read(data.size()), data);
        QVERIFY(file.seek(2048 * 512));
        QCOMPARE(file.read(4 * MiB), QByteArray(int(4 * MiB), '\0'));
    }

    void moveWithoutOverlap()
    {
        freshImage();
        const MoveRequest request = requestFor(m_image, MiB, 30 * MiB, 17 * MiB + 4096);
        const MoveOutcome result = DataMover().run(request, m_journal);
        QVERIFY2(result.ok(), qPrintable(result.message));
        expectMoved(m_image, request);
        // The source is untouched when the ranges do not overlap.
        QCOMPARE(firstMismatch(m_image, MiB, 17 * MiB, MiB, kSeed), std::int64_t(-1));
    }

    void extentsOnlyCopiesTheExtents()
    {
        freshImage();
        MoveRequest request = requestFor(m_image, 34 * 512, 2048 * 512, 40 * MiB);
        request.extents = {
            {0, 64 * KiB}, {3 * MiB + 512, 1000}, {10 * MiB, 5 * MiB}, {39 * MiB, MiB}};
        DataMover mover;
        const MoveOutcome result = mover.run(request, m_journal);
        QVERIFY2(result.ok(), qPrintable(result.message));
        expectMoved(m_image, request);
        // Far fewer bytes than the range were copied (copy + verify read).
        QVERIFY2(result.bytesCopied < 2 * 8 * MiB, qPrintable(QString::number(result.bytesCopied)));
    }

    void progressReportsBytesRateAndTimeLeft()
    {
        freshImage();
        DataMover mover;
        std::vector<MoveProgress> seen;
        mover.setProgressCallback([&](const MoveProgress &p) { seen.push_back(p); });
        const MoveRequest request = requestFor(m_image, 34 * 512, 40 * 512, 32 * MiB, MiB);
        QVERIFY(mover.run(request, m_journal).ok());
        QVERIFY(seen.size() >= 33); // 32 copy chunks, then verify reads of up to 32 MiB
        QCOMPARE(seen.front().phase, MoveProgress::Phase::Copying);
        QCOMPARE(seen.back().phase, MoveProgress::Phase::Verifying);
        QCOMPARE(seen.back().bytesDone, 32 * MiB);
        QCOMPARE(seen.back().bytesTotal, 32 * MiB);
        QVERIFY(seen.front().bytesPerSecond > 0);
        QVERIFY(seen.front().secondsLeft > 0);
        QCOMPARE(seen.back().secondsLeft, 0.0);
    }

    void cancelThenResume()
    {
        freshImage();
        const MoveRequest request = requestFor(m_image, 34 * 512, 2048 * 512, 40 * MiB, MiB);
        std::atomic<bool> cancel{false};
        DataMover mover;
        mover.setCancelFlag(&cancel);
        mover.setProgressCallback([&](const MoveProgress &p) {
            if (p.bytesDone >= 10 * MiB)
                cancel = true;
        });
        const MoveOutcome paused = mover.run(request, m_journal);
        QCOMPARE(paused.status, MoveOutcome::Status::Cancelled);
        QVERIFY(paused.resumable());
        QVERIFY(paused.message.contains(QStringLiteral("partwise-cli resume --journal")));
        QVERIFY(QFile::exists(m_journal));
        // A new move of the same image is refused while one is unfinished.
        QCOMPARE(DataMover().run(request, m_journal).status, MoveOutcome::Status::Refused);

        const MoveOutcome finished = resumeMove(m_journal);
        QVERIFY2(finished.ok(), qPrintable(finished.message));
        QVERIFY(!QFile::exists(m_journal));
        expectMoved(m_image, request);
    }

    // A fresh move reads each chunk back as soon as it is durable; a resumed one has not seen
    // the chunks copied before the stop, so it must read them back after the copy. Here one of
    // those is damaged while the move is stopped, outside the window the resume rescans.
    void resumedMoveVerifiesWhatWasCopiedBeforeTheStop()
    {
        freshImage(96 * MiB);
        const MoveRequest request = requestFor(m_image, 34 * 512, 2048 * 512, 80 * MiB, MiB);
        std::atomic<bool> cancel{false};
        DataMover mover;
        mover.setCancelFlag(&cancel);
        mover.setProgressCallback([&](const MoveProgress &p) {
            if (p.bytesDone >= 40 * MiB)
                cancel = true;
        });
        QCOMPARE(mover.run(request, m_journal).status, MoveOutcome::Status::Cancelled);

        // The first chunk of a move to the right is the top of the range, copied long ago.
        QFile image(m_image);
        QVERIFY(image.open(QIODevice::ReadWrite));
        const qint64 damaged = qint64(request.destinationOffset + request.length - 100);
        QVERIFY(image.seek(damaged));
        char byte = 0;
        QVERIFY(image.getChar(&byte));
        QVERIFY(image.seek(damaged));
        QVERIFY(image.putChar(char(byte ^ 0x5A)));
        image.close();

        const MoveOutcome finished = resumeMove(m_journal);
        QCOMPARE(finished.status, MoveOutcome::Status::VerifyFailed);
        // It names the damaged chunk: at most a shift (1031168 bytes) below the damaged byte.
        static const QRegularExpression atByte(QStringLiteral("at byte (\\d+) of"));
        const QRegularExpressionMatch at = atByte.match(finished.message);
        QVERIFY2(at.hasMatch(), qPrintable(finished.message));
        const qint64 chunkStart = at.captured(1).toLongLong();
        QVERIFY2(chunkStart <= damaged && damaged < chunkStart + 1031168,
                 qPrintable(finished.message));
    }

    void ioErrorStopsCleanlyThenResumes_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<std::uint64_t>("destination");
        QTest::newRow("read error, journaled chunks")
            << QString("read") << std::uint64_t(546 * 512);
        QTest::newRow("write error, journaled chunks")
            << QString("write") << std::uint64_t(546 * 512);
        QTest::newRow("read error, chunks cut to the shift")
            << QString("read") << std::uint64_t(2048 * 512);
        QTest::newRow("write error, chunks cut to the shift")
            << QString("write") << std::uint64_t(2048 * 512);
        QTest::newRow("read error, direct chunks") << QString("read") << std::uint64_t(9 * MiB);
        QTest::newRow("write error, direct chunks") << QString("write") << std::uint64_t(9 * MiB);
        QTest::newRow("journal full, journaled chunks")
            << QString("journal") << std::uint64_t(546 * 512);
        QTest::newRow("journal full, chunks cut to the shift")
            << QString("journal") << std::uint64_t(2048 * 512);
    }
    void ioErrorStopsCleanlyThenResumes()
    {
        QFETCH(QString, kind);
        QFETCH(std::uint64_t, destination);
        // 40 MiB: more than one window of chunks cut to the shift, so the journal is written to
        // after 12 MiB in every kind of plan.
        const std::uint64_t imageSize = 56 * MiB;
        freshImage(imageSize);
        const MoveRequest request = requestFor(m_image, 34 * 512, destination, 40 * MiB, MiB);
        auto faults = std::make_shared<movetest::FaultState>();
        faults->file = m_image;
        DataMover mover;
        mover.setBlockIoOpener(movetest::faultyOpener(faults));
        if (kind == QLatin1String("read")) {
            faults->failReadAt = request.sourceOffset + 15 * MiB + 777;
        } else if (kind == QLatin1String("write")) {
            faults->failWriteAt = request.destinationOffset + 15 * MiB + 777;
        } else {
            // The journal's disk fills up once the move is under way: the checksum table
            // (the block after the 4 KiB header) is written with every record.
            faults->file = m_journal;
            faults->writeError = ENOSPC;
            mover.setProgressCallback([&](const MoveProgress &p) {
                if (p.bytesDone >= 12 * MiB)
                    faults->failWriteAt = 4096;
            });
        }
        const MoveOutcome stopped = mover.run(request, m_journal);
        QCOMPARE(stopped.status, MoveOutcome::Status::IoError);
        QVERIFY(stopped.resumable());
        QVERIFY(QFile::exists(m_journal));
        qInfo().noquote() << stopped.message;
        const QString verb =
            kind == QLatin1String("read") ? QStringLiteral("Reading") : QStringLiteral("Writing");
        QVERIFY(stopped.message.startsWith(verb));
        QVERIFY(stopped.message.contains(QStringLiteral("The move is paused; ")));
        QVERIFY(stopped.message.contains(DataMover::resumeCommand(m_journal, m_image)));
        if (kind != QLatin1String("journal"))
            QVERIFY(stopped.message.contains(QStringLiteral("Input/output error")));
        else
            QVERIFY(stopped.message.contains(QStringLiteral("No space left on device")));

        // While the fault persists, resume stops cleanly again.
        if (kind != QLatin1String("journal")) {
            DataMover stillFaulty;
            stillFaulty.setBlockIoOpener(movetest::faultyOpener(faults));
            QCOMPARE(stillFaulty.resume(m_journal).status, MoveOutcome::Status::IoError);
        }
        const MoveOutcome finished = resumeMove(m_journal); // the disk is fine again
        QVERIFY2(finished.ok(), qPrintable(finished.message));
        expectMoved(m_image, request, imageSize);
    }

    void verifyCatchesCorruptedWrites()
    {
        freshImage();
        const MoveRequest request = requestFor(m_image, 34 * 512, 40 * 512, 20 * MiB, MiB);
        auto faults = std::make_shared<movetest::FaultState>();
        faults->file = m_image;
        faults->corruptWriteAt = request.destinationOffset + 7 * MiB + 5;
        DataMover mover;
        mover.setBlockIoOpener(movetest::faultyOpener(faults));
        const MoveOutcome result = mover.run(request, m_journal);
        QCOMPARE(result.status, MoveOutcome::Status::VerifyFailed);
        QVERIFY(result.message.contains(QStringLiteral("Verification failed")));

        // Without verification the same corruption goes unnoticed: that is what it is for.
        freshImage();
        MoveRequest unverified = request;
        unverified.verify = false;
        faults->corruptWriteAt = request.destinationOffset + 7 * MiB + 5;
        QVERIFY(mover.run(unverified, m_journal).ok());
    }

    void readOnlyTargetIsRefused()
    {
        freshImage();
        const MoveRequest injected = requestFor(m_image, 34 * 512, 40 * 512, 8 * MiB);
        DataMover mover;
        mover.setBlockIoOpener([](const QString &path, BlockIo::Access access, int *error) {
            if (access == BlockIo::Access::ReadWrite && path.endsWith(QLatin1String(".img"))) {
                *error = EROFS;
                return std::unique_ptr<BlockIo>();
            }
            return openFileBlockIo(path, access, error);
        });
        const MoveOutcome result = mover.run(injected, m_journal);
        QCOMPARE(result.status, MoveOutcome::Status::Refused);
        QVERIFY(result.message.contains(QStringLiteral("read-only")));
        QVERIFY(!QFile::exists(m_journal));
        QCOMPARE(firstMismatch(m_image, 0, kImageSize, 0, kSeed), std::int64_t(-1));

        if (::geteuid() != 0) { // root ignores file permissions; the loop test covers root
            QVERIFY(::chmod(QFile::encodeName(m_image).constData(), 0444) == 0);
            const MoveOutcome denied = DataMover().run(injected, m_journal);
            ::chmod(QFile::encodeName(m_image).constData(), 0644);
            QCOMPARE(denied.status, MoveOutcome::Status::Refused);
            QVERIFY(!QFile::exists(m_journal));
            QCOMPARE(firstMismatch(m_image, 0, kImageSize, 0, kSeed), std::int64_t(-1));
        }
    }

    void resumeOnAnotherDeviceIsRefused()
    {
        freshImage();
        const MoveRequest request = requestFor(m_image, 34 * 512, 2048 * 512, 20 * MiB, MiB);
        std::atomic<bool> cancel{true};
        DataMover mover;
        mover.setCancelFlag(&cancel);
        QCOMPARE(mover.run(request, m_journal).status, MoveOutcome::Status::Cancelled);
        const QString other = m_dir.filePath(QStringLiteral("other.img"));
        QVERIFY(movetest::writePatternFile(other, kImageSize / 2, kSeed));
        const MoveOutcome wrong = resumeMove(m_journal, other);
        QCOMPARE(wrong.status, MoveOutcome::Status::Refused);
        QVERIFY(wrong.message.contains(QStringLiteral("bytes")));
        QVERIFY(resumeMove(m_journal).ok());
        expectMoved(m_image, request);
    }

    void loopDeviceMoves_data()
    {
        QTest::addColumn<int>("sectorSize");
        QTest::addColumn<std::uint64_t>("source");
        QTest::addColumn<std::uint64_t>("destination");
        QTest::newRow("512-byte sectors, 34 to 40")
            << 512 << std::uint64_t(34 * 512) << std::uint64_t(40 * 512);
        QTest::newRow("512-byte sectors, 34 to 2048")
            << 512 << std::uint64_t(34 * 512) << std::uint64_t(2048 * 512);
        QTest::newRow("4Kn, 6 to 256")
            << 4096 << std::uint64_t(6 * 4096) << std::uint64_t(256 * 4096);
        QTest::newRow("4Kn, to the left")
            << 4096 << std::uint64_t(300 * 4096) << std::uint64_t(256 * 4096);
    }
    void loopDeviceMoves()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        QFETCH(int, sectorSize);
        QFETCH(std::uint64_t, source);
        QFETCH(std::uint64_t, destination);
        freshImage();
        MoveRequest request;
        {
            pwtest::LoopDevice loop(m_image, sectorSize);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            request = requestFor(loop.path(), source, destination, 30 * MiB);
            const MoveOutcome result = DataMover().run(request, m_journal);
            QVERIFY2(result.ok(), qPrintable(result.message));
        }
        request.devicePath = m_image;
        expectMoved(m_image, request);
    }

    void readOnlyLoopDeviceIsRefused()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        freshImage();
        {
            pwtest::LoopDevice loop(m_image, 0, true);
            QVERIFY2(loop.ok(), qPrintable(loop.error()));
            const MoveOutcome result =
                DataMover().run(requestFor(loop.path(), 34 * 512, 40 * 512, 8 * MiB), m_journal);
            QCOMPARE(result.status, MoveOutcome::Status::Refused);
            qInfo().noquote() << result.message;
            QVERIFY(result.message.contains(QStringLiteral("read-only")));
            QVERIFY(!QFile::exists(m_journal));
        }
        QCOMPARE(firstMismatch(m_image, 0, kImageSize, 0, kSeed), std::int64_t(-1));
    }
};

QTEST_GUILESS_MAIN(TestDataMover)
#include "tst_datamover.moc"
