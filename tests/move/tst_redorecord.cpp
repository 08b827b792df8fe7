// The redo record of a filesystem tool's writes (core/move/redorecord) read back as hostile
// input: blocks outside the filesystem's range, out of order or of the wrong length, another
// step's or place's record, a record cut at any length or with any byte flipped, a link in its
// place. None of them may hand a single byte to the disk; a whole record hands every block to
// its place once.
#include "move/redorecord.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>
#include <vector>

using namespace partwise::move;

namespace {

struct Block
{
    qint64 offset;
    qint64 length;
    char fill;
};

constexpr RedoRegion kRegion{1048576 + 17408, 10 * 4096 + 512, 0x4701};

// Records the writes a record hands to the disk.
struct Disk
{
    std::vector<std::pair<qint64, QByteArray>> writes;
    RedoBlockWriter writer()
    {
        return [this](qint64 at, const char *data, qint64 length) {
            writes.push_back({at, QByteArray(data, int(length))});
            return true;
        };
    }
};

bool write(const QString &path, const std::vector<Block> &blocks, QString *error,
           const RedoRegion &region = kRegion)
{
    return writeRedoRecord(
        path, region, qint64(blocks.size()),
        [&](qint64 i, qint64 *offset, qint64 *length, char *data) {
            *offset = blocks[size_t(i)].offset;
            *length = blocks[size_t(i)].length;
            std::memset(data, blocks[size_t(i)].fill, size_t(*length));
            return true;
        },
        error);
}

QByteArray bytesOf(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void put(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size());
}

} // namespace

class TestRedoRecord : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString path() const { return m_dir.filePath(QStringLiteral("job.redo")); }

    // Applies the record at path(); true when it was applied. `disk` gets what reached it.
    bool apply(Disk *disk, const RedoRegion &region = kRegion)
    {
        QString error;
        const bool ok = applyRedoRecord(path(), region, disk->writer(), &error);
        if (!ok && error.isEmpty())
            qWarning("refused without a reason");
        return ok;
    }

private slots:
    void wholeRecordWritesEveryBlockInPlace()
    {
        QString error;
        // The last block of the range is short: 512 bytes.
        QVERIFY2(write(path(), {{0, 4096, 'a'}, {8192, 4096, 'b'}, {40960, 512, 'c'}}, &error),
                 qPrintable(error));
        QFileInfo info(path());
        QCOMPARE(info.permissions() & (QFile::ReadOther | QFile::ReadGroup), QFile::Permissions());
        const RedoCheck c = checkRedoRecord(path(), kRegion);
        QCOMPARE(c.state, RedoState::Committed);
        QCOMPARE(c.blocks, 3);
        Disk disk;
        QVERIFY(apply(&disk));
        QCOMPARE(disk.writes.size(), size_t(3));
        QCOMPARE(disk.writes[0].first, kRegion.offset);
        QCOMPARE(disk.writes[0].second, QByteArray(4096, 'a'));
        QCOMPARE(disk.writes[1].first, kRegion.offset + 8192);
        QCOMPARE(disk.writes[2].first, kRegion.offset + 40960);
        QCOMPARE(disk.writes[2].second, QByteArray(512, 'c'));
        // Applied again (a resume after a cut during the first): the same writes.
        Disk again;
        QVERIFY(apply(&again));
        QCOMPARE(again.writes, disk.writes);
        QVERIFY(removeRedoRecord(path()));
        QCOMPARE(checkRedoRecord(path(), kRegion).state, RedoState::None);
    }

    void hostileBlocksAreRefused_data()
    {
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<qint64>("length");
        QTest::newRow("past the range") << qint64(11 * 4096) << qint64(4096);
        QTest::newRow("far past the range") << qint64(1) << qint64(4096); // replaced below
        QTest::newRow("not on a block") << qint64(4096 + 512) << qint64(4096);
        QTest::newRow("longer than its block") << qint64(40960) << qint64(4096);
        QTest::newRow("shorter than its block") << qint64(4096) << qint64(512);
        QTest::newRow("before the previous") << qint64(0) << qint64(4096);
    }

    void hostileBlocksAreRefused()
    {
        QFETCH(qint64, offset);
        QFETCH(qint64, length);
        if (QByteArray(QTest::currentDataTag()) == "far past the range")
            offset = qint64(1) << 60;
        QString error;
        // A good block first, then the hostile one; its checksums are all correct.
        QVERIFY2(write(path(), {{8192, 4096, 'g'}, {offset, length, 'h'}}, &error),
                 qPrintable(error));
        QVERIFY(checkRedoRecord(path(), kRegion).state != RedoState::Committed);
        Disk disk;
        QVERIFY(!apply(&disk));
        QVERIFY(disk.writes.empty()); // not even the good block
    }

    void anotherStepsRecordIsNotApplied()
    {
        QString error;
        QVERIFY2(write(path(), {{0, 4096, 'a'}}, &error), qPrintable(error));
        for (RedoRegion other : {RedoRegion{kRegion.offset + 512, kRegion.bytes, kRegion.tag},
                                 RedoRegion{kRegion.offset, kRegion.bytes + 4096, kRegion.tag},
                                 RedoRegion{kRegion.offset, kRegion.bytes, kRegion.tag + 1}}) {
            QCOMPARE(checkRedoRecord(path(), other).state, RedoState::Other);
            Disk disk;
            QVERIFY(!apply(&disk, other));
            QVERIFY(disk.writes.empty());
        }
    }

    // Cut at every length and each byte flipped: only the whole record is applied.
    void cutOrFlippedRecordWritesNothing()
    {
        QString error;
        QVERIFY2(write(path(), {{0, 4096, 'a'}, {4096, 4096, 'b'}, {40960, 512, 'c'}}, &error),
                 qPrintable(error));
        const QByteArray whole = bytesOf(path());
        for (int cut = 0; cut < whole.size();
             cut += (cut < 200 || cut > whole.size() - 200) ? 1 : 97) {
            put(path(), whole.left(cut));
            Disk disk;
            QVERIFY2(!apply(&disk), qPrintable(QStringLiteral("cut at %1").arg(cut)));
            QVERIFY(disk.writes.empty());
        }
        for (int at = 0; at < whole.size(); at += (at < 200 || at > whole.size() - 200) ? 1 : 61) {
            QByteArray flipped = whole;
            flipped[at] = char(flipped[at] ^ 0x01);
            put(path(), flipped);
            Disk disk;
            QVERIFY2(!apply(&disk), qPrintable(QStringLiteral("byte %1 flipped").arg(at)));
            QVERIFY(disk.writes.empty());
        }
        put(path(), whole + QByteArray(1, '\0')); // a byte past its end
        Disk disk;
        QVERIFY(!apply(&disk));
        QVERIFY(disk.writes.empty());
    }

    void linkInItsPlaceIsNotFollowed()
    {
        QString error;
        const QString elsewhere = m_dir.filePath(QStringLiteral("elsewhere.redo"));
        QVERIFY2(write(elsewhere, {{0, 4096, 'a'}}, &error), qPrintable(error));
        QFile::remove(path());
        QVERIFY(QFile::link(elsewhere, path()));
        Disk disk;
        QVERIFY(!apply(&disk));
        QVERIFY(disk.writes.empty());
        // Writing a record replaces the link; the file it pointed to stays as it was.
        const QByteArray before = bytesOf(elsewhere);
        QVERIFY2(write(path(), {{4096, 4096, 'z'}}, &error), qPrintable(error));
        QVERIFY(!QFileInfo(path()).isSymLink());
        QCOMPARE(bytesOf(elsewhere), before);
    }

    // A record another user put in the journal's folder, whole and correct, is never applied.
    void someoneElsesRecordIsNotApplied()
    {
        if (::geteuid() != 0)
            QSKIP("giving the record to another user needs root (CI runs this as root)");
        QString error;
        QVERIFY2(write(path(), {{0, 4096, 'a'}}, &error), qPrintable(error));
        QVERIFY(::chown(QFile::encodeName(path()).constData(), 65534, 65534) == 0);
        QVERIFY(checkRedoRecord(path(), kRegion).state != RedoState::Committed);
        Disk disk;
        QVERIFY(!apply(&disk));
        QVERIFY(disk.writes.empty());
    }

    // A finished job's records go with it, and nothing else: not another job's whose name
    // starts alike, not a record a link names, whatever wildcards the journal's name holds.
    void aJobsRecordsGoAndNothingElse()
    {
        QString error;
        const QDir dir(m_dir.filePath(QStringLiteral("jobs")));
        QVERIFY(dir.mkpath(QStringLiteral(".")));
        const QString journal = dir.filePath(QStringLiteral("disk[1]*.img.json"));
        const QStringList ours = {journal + QStringLiteral(".redo"),
                                  journal + QStringLiteral(".p2.grow.redo"),
                                  journal + QStringLiteral(".paste.ids.redo")};
        const QStringList others = {dir.filePath(QStringLiteral("disk1x.img.json.redo")),
                                    journal + QStringLiteral("2.redo"),
                                    journal + QStringLiteral(".redo.keep"),
                                    dir.filePath(QStringLiteral("target.redo"))};
        for (const QString &p : ours + others)
            QVERIFY2(write(p, {{0, 4096, 'a'}}, &error), qPrintable(error));
        const QString link = journal + QStringLiteral(".link.redo");
        QVERIFY(QFile::link(others.last(), link));
        put(journal, "{}");
        QVERIFY(removeRedoRecordsOf(journal));
        for (const QString &p : ours)
            QVERIFY2(!QFile::exists(p), qPrintable(p));
        for (const QString &p : others)
            QVERIFY2(QFile::exists(p), qPrintable(p));
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(QFile::exists(journal)); // the journal itself is its owner's to remove
    }
};

QTEST_GUILESS_MAIN(TestRedoRecord)
#include "tst_redorecord.moc"
