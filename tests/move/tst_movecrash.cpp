// The data mover killed where a power cut or a crash would stop it: SIGKILL at random instants
// of a move (the helper process, then sometimes its resume too), and a process that dies in
// the middle of a write, leaving it torn. After each, resume must finish the move with every
// byte where the source had it.

#include "buildsetting.h"
#include "move/datamover.h"
#include "move/moveplan.h"
#include "move/moverequest.h"
#include "movetestdata.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <random>
#include <thread>

using namespace partwise;

using namespace partwise::move;
using movetest::firstMismatch;
using movetest::requestFor;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;
constexpr std::uint64_t kImageSize = 48 * MiB;
constexpr std::uint64_t kSeed = 0x5EED;

} // namespace

class TestMoveCrash : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_image;
    QString m_journal;

    void freshImage()
    {
        QVERIFY(movetest::writePatternFile(m_image, kImageSize, kSeed));
        QFile::remove(m_journal);
    }

    void expectMoved(const QString &image, const MoveRequest &request)
    {
        const QString problem = movetest::moveProblem(image, request, kImageSize, kSeed);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void runHelper(QProcess &helper, const QStringList &arguments)
    {
        helper.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        helper.start(pwtest::buildSetting("MOVE_CRASH_HELPER"), arguments);
        QVERIFY(helper.waitForStarted());
    }

    static QStringList helperRunArguments(const MoveRequest &request, const QString &journal)
    {
        return {QStringLiteral("run"),
                request.devicePath,
                journal,
                QString::number(request.sourceOffset),
                QString::number(request.destinationOffset),
                QString::number(request.length),
                QString::number(request.chunkSize),
                QStringLiteral("--way"),
                movetest::wayArgument(request.overlapWay)};
    }

    // After a kill: finish the move in-process, whatever state the helper left.
    void finishAfterKill(const MoveRequest &request)
    {
        DataMover mover;
        if (QFile::exists(m_journal)) {
            const MoveOutcome resumed = mover.resume(m_journal);
            QVERIFY2(resumed.ok(), qPrintable(resumed.message));
        } else if (firstMismatch(m_image, 0, kImageSize, 0, kSeed) == -1) {
            // Killed before the journal existed: nothing may have been written.
            const MoveOutcome again = mover.run(request, m_journal);
            QVERIFY2(again.ok(), qPrintable(again.message));
        }
        QVERIFY(!QFile::exists(m_journal));
        expectMoved(m_image, request);
    }

    std::uint64_t crashSeed()
    {
        bool ok = false;
        const std::uint64_t fromEnv = qEnvironmentVariable("PARTWISE_MOVE_SEED").toULongLong(&ok);
        return ok ? fromEnv : QRandomGenerator::global()->generate64();
    }

    // The layouts the crash tests cycle through: the classic GPT 34 -> 2048 move (cut to the
    // shift, copied in windows, a flush per shift), the 3 KiB shift 34 -> 40, a shift larger than
    // a chunk, a move to the left, and a 256 KiB shift in larger chunks (journaled, pipelined).
    static std::vector<MoveRequest> crashCases(const QString &image)
    {
        return {movetest::withWay(requestFor(image, 34 * 512, 2048 * 512, 24 * MiB, MiB),
                                  OverlapWay::FlushPerShift),
                requestFor(image, 34 * 512, 40 * 512, 24 * MiB, MiB),
                requestFor(image, 1 * MiB, 4 * MiB, 24 * MiB, MiB),
                requestFor(image, 6 * MiB, 40 * 512, 24 * MiB, MiB),
                requestFor(image, 34 * 512, 546 * 512, 24 * MiB, 4 * MiB)};
    }

    // The journal-window way, a fixed few more iterations: 4001 -> 2048 to the left in six
    // windows of 4 MiB, GPT 34 -> 2048 in one 24 MiB window, and 4001 -> 2048 timed (twelve 2 MiB
    // windows: both ways in turn, then the one chosen).
    static constexpr int kJournalWindowIterations = 6;
    static std::vector<MoveRequest> journalWindowCases(const QString &image)
    {
        return {movetest::withWay(requestFor(image, 4001 * 512, 2048 * 512, 24 * MiB, 4 * MiB),
                                  OverlapWay::JournalWindow),
                movetest::withWay(requestFor(image, 34 * 512, 2048 * 512, 24 * MiB),
                                  OverlapWay::JournalWindow),
                requestFor(image, 4001 * 512, 2048 * 512, 24 * MiB, 2 * MiB)};
    }

    // Waits until the move's journal exists (the move has begun) or the process has ended.
    void waitForJournal(QProcess &process)
    {
        QElapsedTimer bound; // only against a hang
        bound.start();
        while (!QFile::exists(m_journal) && process.state() != QProcess::NotRunning &&
               bound.elapsed() < 120000)
            std::this_thread::sleep_for(std::chrono::microseconds(100));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_image = m_dir.filePath(QStringLiteral("disk.img"));
        m_journal = m_dir.filePath(QStringLiteral("disk.img.partwise-move"));
    }

    void crashAtRandomInstantsThenResume()
    {
        const std::uint64_t seed = crashSeed();
        qInfo() << "crash test seed (set PARTWISE_MOVE_SEED to repeat):" << seed;
        std::mt19937_64 random(seed);
        std::vector<MoveRequest> cases = crashCases(m_image);
        for (const MoveRequest &request : journalWindowCases(m_image))
            cases.push_back(request);

        // How long each uninterrupted move takes from the moment its journal exists, so the
        // kills land all over the move itself, not over the process starting (which the
        // sanitizer build makes several times longer than the move).
        std::vector<qint64> fullRunUs;
        for (const MoveRequest &request : cases) {
            freshImage();
            QProcess calibration;
            runHelper(calibration, helperRunArguments(request, m_journal));
            QElapsedTimer timer;
            waitForJournal(calibration);
            timer.start();
            QVERIFY(calibration.waitForFinished(120000));
            QCOMPARE(calibration.exitCode(), 0);
            fullRunUs.push_back(std::max<qint64>(timer.nsecsElapsed() / 1000, 1000));
        }

        // At random among the first layouts, then each journal-window case in turn.
        const std::size_t flushCases = crashCases(m_image).size();
        const int iterations = 15 + kJournalWindowIterations;
        int interrupted = 0;
        for (int i = 0; i < iterations; ++i) {
            const std::size_t which =
                i < 15 ? random() % flushCases
                       : flushCases + static_cast<std::size_t>(i) % (cases.size() - flushCases);
            const MoveRequest &request = cases[which];
            freshImage();
            QProcess helper;
            runHelper(helper, helperRunArguments(request, m_journal));
            waitForJournal(helper);
            const auto delay = std::chrono::microseconds(random() % (fullRunUs[which] * 11 / 10));
            std::this_thread::sleep_for(delay);
            helper.kill();
            QVERIFY(helper.waitForFinished(60000));
            const bool left = QFile::exists(m_journal);
            interrupted += left ? 1 : 0;
            // Sometimes kill the resume too, before the final in-process resume.
            if (left && random() % 2) {
                QProcess second;
                runHelper(second, {QStringLiteral("resume"), m_journal});
                std::this_thread::sleep_for(
                    std::chrono::microseconds(random() % (fullRunUs[which] / 2)));
                second.kill();
                QVERIFY(second.waitForFinished(60000));
            }
            qInfo() << "iteration" << i << "case" << which << "killed after" << delay.count()
                    << "us of" << fullRunUs[which] << "us, journal" << (left ? "left" : "absent");
            finishAfterKill(request);
        }
        // Most kills must land inside a move, or this test would prove little.
        QVERIFY2(interrupted >= iterations / 3, qPrintable(QString::number(interrupted)));
    }

    void crashInsideWritesThenResume()
    {
        const std::uint64_t seed = crashSeed();
        qInfo() << "torn-write test seed (set PARTWISE_MOVE_SEED to repeat):" << seed;
        std::mt19937_64 random(seed);
        const std::vector<MoveRequest> flush = crashCases(m_image);
        const std::vector<MoveRequest> journaled = journalWindowCases(m_image);
        const int iterations = 20 + kJournalWindowIterations;
        for (int i = 0; i < iterations; ++i) {
            const MoveRequest &request =
                i < 20 ? flush[i % flush.size()] : journaled[i % journaled.size()];
            // At least one write per chunk (its destination; chunks cut to a shift smaller than
            // a chunk are shift-sized) and two journal writes (a record, the end of the copy),
            // more where records are due: any of them may be torn.
            const std::uint64_t shift = request.destinationOffset > request.sourceOffset
                                            ? request.destinationOffset - request.sourceOffset
                                            : request.sourceOffset - request.destinationOffset;
            const std::uint64_t piece =
                cutsToShift(shift, request.chunkSize) ? shift : request.chunkSize;
            const long writes = static_cast<long>(request.length / piece + 2);
            const long killAt = 1 + static_cast<long>(random() % writes);
            freshImage();
            QProcess helper;
            runHelper(helper,
                      helperRunArguments(request, m_journal) +
                          QStringList{QStringLiteral("--kill-at-write"), QString::number(killAt),
                                      QStringLiteral("--tear-seed"), QString::number(random())});
            QVERIFY(helper.waitForFinished(120000));
            QCOMPARE(helper.exitStatus(), QProcess::CrashExit);
            finishAfterKill(request);
        }
    }
};

QTEST_GUILESS_MAIN(TestMoveCrash)
#include "tst_movecrash.moc"
