// The data mover's journal against its own corruption. Moves of every kind (windows of chunks
// cut to the shift, journaled chunks, direct chunks, the verify phase, power cuts that tear
// writes) are interrupted; then bytes are flipped in each region of the journal file (header
// fields, JSON, header padding, the table of chunk checksums, each record's header, padding
// and data) and resume must either refuse with the image untouched, or finish with every moved
// byte equal to the original: never silently wrong data. Damage the journal can tell (the
// header, the table entries a record vouches for, a record's header) must be refused.

#include "buildsetting.h"
#include "filebytes.h"
#include "move/datamover.h"
#include "movetestdata.h"
#include "powercutblockio.h"
#include "reducedrun.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

using namespace partwise;

using namespace partwise::move;
using pwtest::readWholeFile;
using pwtest::writeWholeFile;

namespace {

constexpr std::uint64_t MiB = 1 << 20;
constexpr std::uint64_t kImageSize = 8 * MiB;
constexpr std::uint64_t kSeed = 0xDA7A;
constexpr std::uint64_t kBlock = 4096;

std::uint64_t roundUp(std::uint64_t value)
{
    return (value + kBlock - 1) / kBlock * kBlock;
}

std::uint64_t u64At(const QByteArray &data, std::uint64_t offset)
{
    std::uint64_t value = 0;
    std::memcpy(&value, data.constData() + offset, 8);
    return value;
}

// A region of the journal file, from its documented layout (movejournal.h).
struct Region
{
    QString name;
    std::vector<std::uint64_t> offsets; // the bytes to flip, one trial each
    bool mustRefuse = false;            // the journal can tell this damage
};

struct Interrupted
{
    QString name;
    MoveRequest request;
    QByteArray image, journal;
};

} // namespace

class TestJournalCorruption : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_image, m_journal;
    std::vector<Interrupted> m_states;

    MoveRequest request(std::uint64_t source, std::uint64_t destination) const
    {
        MoveRequest r;
        r.devicePath = m_image;
        r.sourceOffset = source;
        r.destinationOffset = destination;
        r.length = 4 * MiB;
        r.chunkSize = MiB;
        return r;
    }

    // Runs `r` until it is stopped part way (by a cancel in `phase` after `after` bytes, or a
    // power cut at write `cutAt`), and keeps the image and the journal it left.
    void interrupt(const QString &name, const MoveRequest &r, MoveProgress::Phase phase,
                   std::uint64_t after, long cutAt = -1)
    {
        QFile::remove(m_journal);
        QVERIFY(movetest::writePatternFile(m_image, kImageSize, kSeed));
        DataMover mover;
        std::atomic<bool> cancel{false};
        mover.setCancelFlag(&cancel);
        mover.setProgressCallback([&](const MoveProgress &p) {
            if (p.phase == phase && p.bytesDone >= after)
                cancel = true;
        });
        auto cut = std::make_shared<movetest::PowerCutState>();
        cut->cutAtWrite = cutAt;
        cut->seed = 7;
        mover.setBlockIoOpener(movetest::powerCutOpener(cut));
        const MoveOutcome stopped = mover.run(r, m_journal);
        QVERIFY2(!stopped.ok() && QFile::exists(m_journal), qPrintable(name + stopped.message));
        m_states.push_back({name, r, readWholeFile(m_image), readWholeFile(m_journal)});
    }

    std::vector<Region> regionsOf(const QByteArray &journal) const
    {
        std::vector<Region> regions;
        const std::uint64_t jsonLength = u64At(journal, 8);
        const QJsonObject header =
            QJsonDocument::fromJson(journal.mid(24, qsizetype(jsonLength))).object();
        const std::uint64_t chunks =
            header.value(QStringLiteral("chunkCount")).toString().toULongLong();
        // A record slot holds up to recordData bytes (a chunk, or a journaled window).
        const std::uint64_t largest =
            header.value(QStringLiteral("recordData")).toString().toULongLong();
        const std::uint64_t headerSize = roundUp(24 + jsonLength);
        const std::uint64_t tableSize = roundUp(chunks * 8);

        Region fixed{QStringLiteral("header fields"), {}, true};
        for (std::uint64_t i = 0; i < 24; ++i)
            fixed.offsets.push_back(i);
        Region json{QStringLiteral("header JSON"), {}, true};
        for (std::uint64_t i = 24; i < 24 + jsonLength; i += 23)
            json.offsets.push_back(i);
        json.offsets.push_back(24 + jsonLength - 1);
        Region padding{QStringLiteral("header padding"),
                       {24 + jsonLength, 24 + jsonLength + 1, headerSize - 1},
                       true};
        // The table: each entry (a different byte of each), then its padding.
        Region table{QStringLiteral("table entries"), {}, false};
        for (std::uint64_t i = 0; i < chunks; ++i)
            table.offsets.push_back(headerSize + i * 8 + i % 8);
        Region tablePadding{QStringLiteral("table padding"),
                            {headerSize + chunks * 8, headerSize + tableSize - 1},
                            false};
        regions = {fixed, json, padding, table, tablePadding};
        const std::uint64_t slotSize = kBlock + roundUp(largest);
        for (int slot = 0; slot < 2; ++slot) {
            const std::uint64_t at = headerSize + tableSize + slot * slotSize;
            bool empty = true;
            for (std::uint64_t i = at; i < at + kBlock; ++i)
                empty = empty && journal.at(qsizetype(i)) == 0;
            // Two bytes of each of the 10 fields of a record's header, then its padding.
            Region record{QStringLiteral("slot %1 header").arg(slot), {}, !empty};
            for (std::uint64_t field = 0; field < 10; ++field)
                record.offsets.insert(record.offsets.end(), {at + field * 8, at + field * 8 + 5});
            for (std::uint64_t i : {80, 81, 2048, 4095})
                record.offsets.push_back(at + i);
            Region data{QStringLiteral("slot %1 data").arg(slot), {}, false};
            for (std::uint64_t i = 0; i < 4; ++i)
                data.offsets.push_back(at + kBlock + i * (roundUp(largest) - 1) / 3);
            regions.push_back(record);
            regions.push_back(data);
        }
        if (pwtest::reducedRun())
            thin(regions);
        return regions;
    }

    // The reduced set (tests/support/reducedrun.h): every region keeps its first and last byte
    // and every third one between, from a start that differs per region.
    static void thin(std::vector<Region> &regions)
    {
        for (std::size_t r = 0; r < regions.size(); ++r) {
            std::vector<std::uint64_t> &all = regions[r].offsets;
            if (all.size() <= 3)
                continue;
            std::vector<std::uint64_t> kept{all.front()};
            for (std::size_t i = 1 + r % 3; i + 1 < all.size(); i += 3)
                kept.push_back(all[i]);
            kept.push_back(all.back());
            all = std::move(kept);
        }
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_image = m_dir.filePath(QStringLiteral("disk.img"));
        m_journal = m_dir.filePath(QStringLiteral("disk.img.partwise-move"));
        using Phase = MoveProgress::Phase;
        // One window of 4 MiB (a window holds a chunk's worth of bytes): its record vouches for
        // every table entry.
        MoveRequest windows = request(34 * 512, 2048 * 512);
        windows.chunkSize = 4 * MiB;
        const MoveRequest journaled = request(34 * 512, 40 * 512);
        interrupt(QStringLiteral("windows"), windows, Phase::Copying, 2 * MiB);
        interrupt(QStringLiteral("journaled chunks"), journaled, Phase::Copying, 2 * MiB);
        interrupt(QStringLiteral("direct chunks"), request(MiB, 3 * MiB + MiB / 2), Phase::Copying,
                  2 * MiB);
        // Cancelled with the last chunk copied: verification stops at its first read.
        interrupt(QStringLiteral("verifying"), windows, Phase::Copying, 4 * MiB);
        // Torn writes: the power fails part way, each unsynced 4 KiB block kept or lost.
        interrupt(QStringLiteral("power cut, journaled"), journaled, Phase::Copying, UINT64_MAX,
                  12);
        interrupt(QStringLiteral("power cut, windows"), windows, Phase::Copying, UINT64_MAX, 9);
        // Its sources in the newest record, half written (OverlapWay::JournalWindow).
        interrupt(QStringLiteral("journaled window"),
                  movetest::withWay(windows, OverlapWay::JournalWindow), Phase::Copying, 2 * MiB);
    }

    void flippedBytes_data()
    {
        QTest::addColumn<int>("state");
        for (int i = 0; i < int(m_states.size()); ++i)
            QTest::newRow(qPrintable(m_states.at(i).name)) << i;
    }

    void flippedBytes()
    {
        QFETCH(int, state);
        const Interrupted &s = m_states.at(state);
        static const unsigned char masks[] = {0x01, 0x10, 0x80, 0xFF};
        QStringList failures;
        int trial = 0;
        for (const Region &region : regionsOf(s.journal)) {
            int refused = 0, finished = 0;
            for (const std::uint64_t offset : region.offsets) {
                QByteArray journal = s.journal;
                journal[qsizetype(offset)] =
                    char(journal.at(qsizetype(offset)) ^ masks[trial++ % 4]);
                QVERIFY(writeWholeFile(m_image, s.image) && writeWholeFile(m_journal, journal));
                const MoveOutcome result = DataMover().resume(m_journal);
                const QString what = QStringLiteral("%1, byte %2: ").arg(region.name).arg(offset);
                if (result.status == MoveOutcome::Status::Refused) {
                    ++refused;
                    if (readWholeFile(m_image) != s.image)
                        failures << what + QStringLiteral("refused, but the image changed");
                    if (!result.message.contains(m_journal))
                        failures << what + QStringLiteral("the message does not name the journal");
                } else if (result.ok()) {
                    ++finished;
                    if (region.mustRefuse)
                        failures << what + QStringLiteral("resumed from damage it can tell");
                    const QString problem =
                        movetest::moveProblem(m_image, s.request, kImageSize, kSeed);
                    if (!problem.isEmpty())
                        failures << what + QStringLiteral("finished with wrong data: ") + problem;
                } else {
                    failures << what + result.message;
                }
            }
            qInfo("%s: %d refused, %d finished correctly", qPrintable(region.name), refused,
                  finished);
        }
        for (const QString &failure : failures.mid(0, 20))
            qWarning().noquote() << failure.left(300);
        QVERIFY2(failures.isEmpty(),
                 qPrintable(QStringLiteral("%1 failures").arg(failures.size())));
    }

    // A flipped table entry that a record vouches for would send resume to copy a finished
    // chunk again from a source already overwritten, or to keep a wrong one: refused, before
    // anything is written. (Without the table's checksum in the records, this fails.)
    void vouchedTableEntriesAreRefused()
    {
        for (const Interrupted &s : m_states) {
            if (s.name != QLatin1String("windows") && s.name != QLatin1String("verifying"))
                continue; // their newest record vouches for every entry
            const Region table = regionsOf(s.journal).at(3);
            for (const std::uint64_t offset : table.offsets) {
                QByteArray journal = s.journal;
                journal[qsizetype(offset)] = char(journal.at(qsizetype(offset)) ^ 0x04);
                QVERIFY(writeWholeFile(m_image, s.image) && writeWholeFile(m_journal, journal));
                const MoveOutcome result = DataMover().resume(m_journal);
                QVERIFY2(result.status == MoveOutcome::Status::Refused,
                         qPrintable(s.name + QStringLiteral(", byte %1: ").arg(offset) +
                                    result.message));
                QVERIFY(result.message.contains(QStringLiteral("table")));
                QVERIFY(readWholeFile(m_image) == s.image);
            }
        }
    }

    // A journal of format 4, made by the version before the checksum became XXH3 (a 64 KiB
    // shift by 4 KiB, killed at its 10th write): its checksums cannot be checked, so it is
    // refused as another format, by name, before anything is opened for writing, and kept as
    // it is. Read as format 5, its header would look damaged instead.
    void oldChecksumJournalIsRefused()
    {
        const QByteArray old = readWholeFile((pwtest::buildSetting("MOVE_TEST_DATA") +
                                              QStringLiteral("/journal-format4.partwise-move")));
        QVERIFY(old.startsWith("PWMOVEJ1"));
        QVERIFY(writeWholeFile(m_journal, old));
        const MoveOutcome result = DataMover().resume(m_journal);
        QCOMPARE(result.status, MoveOutcome::Status::Refused);
        QVERIFY2(result.message.contains(QStringLiteral("has format 4")) &&
                     result.message.contains(QStringLiteral("reads format 6")) &&
                     result.message.contains(QStringLiteral("Nothing was changed")),
                 qPrintable(result.message));
        QCOMPARE(readWholeFile(m_journal), old);

        // The same journal with its version unreadable is still refused, as damaged.
        QByteArray garbled = old;
        garbled.replace("\"version\":4", "\"version\":x");
        QVERIFY(garbled != old);
        QVERIFY(writeWholeFile(m_journal, garbled));
        const MoveOutcome damaged = DataMover().resume(m_journal);
        QCOMPARE(damaged.status, MoveOutcome::Status::Refused);
        QVERIFY2(damaged.message.contains(QStringLiteral("format 4 or older")),
                 qPrintable(damaged.message));
        QFile::remove(m_journal);
    }

    // Each interrupted state resumes to the right data when nothing is damaged.
    void intactJournalsResume()
    {
        for (const Interrupted &s : m_states) {
            QVERIFY(writeWholeFile(m_image, s.image) && writeWholeFile(m_journal, s.journal));
            const MoveOutcome result = DataMover().resume(m_journal);
            QVERIFY2(result.ok(), qPrintable(s.name + result.message));
            QVERIFY2(movetest::moveProblem(m_image, s.request, kImageSize, kSeed).isEmpty(),
                     qPrintable(s.name));
        }
    }
};

QTEST_GUILESS_MAIN(TestJournalCorruption)
#include "tst_journalcorruption.moc"
