// Power cuts during a filesystem's shrink (fs/journaledresize.h). ext4 (resize2fs), NTFS
// (ntfsresize) and FAT32 (libparted's resizer), each in a partition at the misaligned GPT
// sector 34 with files past the new end, shrink through the copy-on-write view; the writes that
// apply the redo record are recorded instead of reaching the image (a simulated disk whose cache
// loses what was not flushed: the apply flushes once, at its end). The image is then rebuilt as
// a cut would leave it — none, all, a prefix or a random subset of those writes with one torn,
// a second cut during resume, or the record itself cut before its commit marker — and resumed.
// The same for ext4 on a loop device's partition node, and for ext4 and NTFS growing from 40 to
// 64 MiB (resize2fs, ntfsresize) into a larger partition, and btrfs shrinking 300 -> 264 MiB and
// growing 256 -> 300 MiB (btrfs filesystem resize on a private mount of the view; btrfs check
// --readonly and dump-super judge it). Every state must come back to the old
// filesystem (untouched) or the new one, judged by the filesystems' own tools: e2fsck -fn, ntfsfix
// -n, fsck.fat -n, the size dumpe2fs, ntfsresize
// --info and minfo report, and the SHA-256 of every file read through a mount, ntfs-3g or mcopy.
#include "fs/journaledresize.h"

#include "filechecksum.h"
#include "filetree.h"
#include "fsfixture.h"
#include "reducedrun.h"
#include "shrinkfixtures.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;
using namespace shrinktest;

namespace {

struct Write
{
    qint64 offset = 0; // in the image
    QByteArray data;
};

// The size the filesystem's own tool reports.
qint64 reportedBytes(const QString &node, const QString &fs)
{
    if (fs == QLatin1String("ext4")) {
        const QString s =
            out(pwtest::runTool(QStringLiteral("dumpe2fs"), {QStringLiteral("-h"), node}));
        return number(s, QStringLiteral("^Block count:\\s+(\\d+)")) *
               number(s, QStringLiteral("^Block size:\\s+(\\d+)"));
    }
    if (fs == QLatin1String("btrfs"))
        return number(
            out(pwtest::runTool(QStringLiteral("btrfs"), {QStringLiteral("inspect-internal"),
                                                          QStringLiteral("dump-super"), node})),
            QStringLiteral("^dev_item.total_bytes\\s+(\\d+)"));
    if (fs == QLatin1String("ntfs"))
        return number(out(pwtest::runTool(QStringLiteral("ntfsresize"),
                                          {QStringLiteral("--info"), QStringLiteral("--force"),
                                           QStringLiteral("--no-progress-bar"), node})),
                      QStringLiteral("Current volume size: (\\d+) bytes"));
    const QString s = out(pwtest::mtools(QStringLiteral("minfo"),
                                         {QStringLiteral("-i"), node, QStringLiteral("::")}));
    return number(s, QStringLiteral("big size: (\\d+) sectors")) * 512;
}

bool writeAt(const QString &image, qint64 offset, const QByteArray &data)
{
    QFile f(image);
    return f.open(QIODevice::ReadWrite) && f.seek(offset) && f.write(data) == data.size();
}

QByteArray readAt(const QString &image, qint64 offset, qint64 length)
{
    QFile f(image);
    return f.open(QIODevice::ReadOnly) && f.seek(offset) ? f.read(length) : QByteArray();
}

} // namespace

class TestShrinkPowerCut : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_fs;
    QString m_image;
    qint64 m_partBytes = 0;
    qint64 m_oldBytes = 0; // the filesystem before: the partition's size for a shrink
    qint64 m_newBytes = 0;
    QMap<QString, QByteArray> m_files;
    QByteArray m_oldSha; // the partition's bytes before the shrink
    std::vector<Write> m_writes;
    std::vector<QByteArray> m_before; // each write's place before the shrink
    QByteArray m_record;
    QString m_recordPath;
    std::unique_ptr<Place> m_place; // the image, or a loop device's partition node
    qint64 m_base = 0;              // where the record's offsets start in the image

    FilesystemLocation where() const { return m_place->location(); }

    RedoJournal redo() const
    {
        RedoJournal r;
        r.path = m_recordPath;
        r.tag = 0x101;
        return r;
    }

    QByteArray partitionSha() const
    {
        QFile f(m_image);
        return f.open(QIODevice::ReadOnly) && f.seek(kOffset) ? [&] {
            QCryptographicHash h(QCryptographicHash::Sha256);
            qint64 left = m_partBytes;
            while (left > 0) {
                const QByteArray chunk = f.read(std::min<qint64>(left, 4 * kMiB));
                if (chunk.isEmpty())
                    break;
                h.addData(chunk);
                left -= chunk.size();
            }
            return h.result().toHex();
        }()
                                                              : QByteArray();
    }

    bool makeFilesystemWithHoles(QString *error);
    // The image as a cut during the apply leaves it: `reached` of the writes, and `torn`'s first
    // `tornBytes` bytes; the committed record in place.
    void rebuild(const std::vector<bool> &reached, int torn = -1, qint64 tornBytes = 0);
    void expectFilesystem(qint64 low, qint64 high, const QString &state);
    void resumeAndExpectNew(const QString &state);

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void cleanup() { m_place.reset(); } // detaches a loop device a failed row left
    void cutsDuringShrink_data();
    void cutsDuringShrink();
    void cutsDuringGrow_data();
    void cutsDuringGrow() { cutsDuringShrink(); }
};

bool TestShrinkPowerCut::makeFilesystemWithHoles(QString *error)
{
    const QString tree = m_dir.filePath(m_fs + QStringLiteral("-tree"));
    QDir().mkpath(tree);
    const QStringList doomed = makeTree(tree, 47);
    removeFromTree(tree, doomed);
    m_files = pwtest::treeSha256(tree);
    pwtest::LoopRange range(m_image, kOffset, m_oldBytes);
    if (!range.ok()) {
        *error = range.error();
        return false;
    }
    if (!pwtest::makeFilesystem(range.path(), m_fs, QStringLiteral("PWCUT"), kStartSector, error))
        return false;
    if (m_newBytes > m_oldBytes) // a grow: the files anywhere
        return pwtest::fillFilesystem(range.path(), m_fs, tree, error);
    // A filler first, then the files, then the filler goes: the files lie past the new end.
    const qint64 filler = m_partBytes - m_newBytes + 6 * kMiB;
    if (m_fs == QLatin1String("fat32"))
        return fillFatWithHoles(range.path(), filler, tree, {}, error);
    QTemporaryDir fillerDir;
    QFile f(QDir(fillerDir.path()).filePath(QStringLiteral("filler.bin")));
    if (!f.open(QIODevice::WriteOnly) || f.write(QByteArray(int(filler), 'x')) != filler) {
        *error = f.errorString();
        return false;
    }
    f.close();
    if (!pwtest::fillFilesystem(range.path(), m_fs, fillerDir.path(), error) ||
        !pwtest::fillFilesystem(range.path(), m_fs, tree, error))
        return false;
    pwtest::ToolResult r;
    if (m_fs == QLatin1String("ext4")) {
        r = pwtest::runTool(QStringLiteral("debugfs"),
                            {QStringLiteral("-w"), QStringLiteral("-R"),
                             QStringLiteral("rm /filler.bin"), range.path()});
    } else if (m_fs == QLatin1String("btrfs")) {
        QTemporaryDir mnt;
        pwtest::forgetBtrfsDevices();
        r = pwtest::runTool(QStringLiteral("mount"), {range.path(), mnt.path()});
        if (r.ok()) {
            QFile::remove(QDir(mnt.path()).filePath(QStringLiteral("filler.bin")));
            pwtest::runTool(QStringLiteral("sync"), {});
            r = pwtest::runTool(QStringLiteral("umount"), {mnt.path()});
        }
    } else {
        QTemporaryDir mnt;
        r = pwtest::runTool(QStringLiteral("ntfs-3g"), {range.path(), mnt.path()});
        if (r.ok()) {
            QFile::remove(QDir(mnt.path()).filePath(QStringLiteral("filler.bin")));
            r = pwtest::runTool(QStringLiteral("umount"), {mnt.path()});
        }
    }
    if (!r.ok())
        *error = r.describe();
    return r.ok();
}

void TestShrinkPowerCut::rebuild(const std::vector<bool> &reached, int torn, qint64 tornBytes)
{
    for (size_t i = 0; i < m_writes.size(); ++i)
        QVERIFY(writeAt(m_image, m_base + m_writes[i].offset,
                        reached[i] ? m_writes[i].data : m_before[i]));
    if (torn >= 0)
        QVERIFY(writeAt(m_image, m_base + m_writes[size_t(torn)].offset,
                        m_writes[size_t(torn)].data.left(int(tornBytes))));
    QFile record(m_recordPath);
    QVERIFY(record.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
            record.write(m_record) == m_record.size());
}

void TestShrinkPowerCut::expectFilesystem(qint64 low, qint64 high, const QString &state)
{
    // Read as the partition will be: NTFS keeps its backup boot sector in the partition's last.
    pwtest::LoopRange range(m_image, kOffset, high, true);
    QVERIFY2(range.ok(), qPrintable(range.error()));
    const pwtest::ToolResult check = pwtest::checkFilesystemReadOnly(range.path(), m_fs);
    QVERIFY2(check.ok(), qPrintable(state + QStringLiteral(": ") + check.describe()));
    const qint64 size = reportedBytes(range.path(), m_fs);
    QVERIFY2(size > low && size <= high,
             qPrintable(QStringLiteral("%1: %2 bytes").arg(state).arg(size)));
    QString error;
    const QMap<QString, QByteArray> files =
        pwtest::filesystemTreeSha256(range.path(), m_fs, &error);
    QVERIFY2(error.isEmpty(), qPrintable(state + QStringLiteral(": ") + error));
    const QStringList differ = pwtest::compareTrees(m_files, files);
    QVERIFY2(differ.isEmpty(), qPrintable(state + QStringLiteral(": ") + differ.join(u'\n')));
}

void TestShrinkPowerCut::resumeAndExpectNew(const QString &state)
{
    const ToolResult r = resizeFilesystemJournaled(where(), m_partBytes, m_fs, m_newBytes, redo());
    QVERIFY2(r.ok, qPrintable(state + QStringLiteral(": ") + r.error));
    expectFilesystem(m_newBytes - kMiB, m_newBytes, state);
}

void TestShrinkPowerCut::cutsDuringShrink_data()
{
    QTest::addColumn<QString>("fs");
    QTest::addColumn<qint64>("partBytes");
    QTest::addColumn<qint64>("newBytes");
    QTest::addColumn<bool>("onLoop");
    QTest::addColumn<qint64>("oldBytes"); // the filesystem's size before
    QTest::newRow("ext4") << QStringLiteral("ext4") << 64 * kMiB << 40 * kMiB << false << 64 * kMiB;
    QTest::newRow("ntfs") << QStringLiteral("ntfs") << 64 * kMiB << 40 * kMiB << false << 64 * kMiB;
    // libparted keeps FAT32 at 65520 clusters of 4 KiB or more.
    QTest::newRow("fat32") << QStringLiteral("fat32") << 300 * kMiB << 296 * kMiB << false
                           << 300 * kMiB;
    // The kernel resizes btrfs only while mounted, and no device below 256 MiB: mounted from a
    // loop device over the view.
    QTest::newRow("btrfs") << QStringLiteral("btrfs") << 300 * kMiB << 264 * kMiB << false
                           << 300 * kMiB;
    // The view then reads the loop device, the record is applied through the partition node.
    QTest::newRow("ext4 on a loop partition")
        << QStringLiteral("ext4") << 64 * kMiB << 40 * kMiB << true << 64 * kMiB;
}

// A grow alone (as after a move into more room, or a paste into a larger partition): the
// filesystem fills 40 MiB of a 64 MiB partition and grows to all of it.
void TestShrinkPowerCut::cutsDuringGrow_data()
{
    QTest::addColumn<QString>("fs");
    QTest::addColumn<qint64>("partBytes");
    QTest::addColumn<qint64>("newBytes");
    QTest::addColumn<bool>("onLoop");
    QTest::addColumn<qint64>("oldBytes");
    QTest::newRow("ext4 grows") << QStringLiteral("ext4") << 64 * kMiB << 64 * kMiB << false
                                << 40 * kMiB;
    QTest::newRow("ntfs grows") << QStringLiteral("ntfs") << 64 * kMiB << 64 * kMiB << false
                                << 40 * kMiB;
    QTest::newRow("btrfs grows") << QStringLiteral("btrfs") << 300 * kMiB << 300 * kMiB << false
                                 << 256 * kMiB;
    // Partwise does not grow XFS (xfs_growfs works only on a mounted filesystem; resizeFilesystem
    // refuses it), so XFS has no row.
}

void TestShrinkPowerCut::cutsDuringShrink()
{
    QFETCH(QString, fs);
    QFETCH(qint64, partBytes);
    QFETCH(qint64, newBytes);
    QFETCH(bool, onLoop);
    m_fs = fs;
    m_partBytes = partBytes;
    m_newBytes = newBytes;
    QFETCH(qint64, oldBytes);
    m_oldBytes = oldBytes;
    const QString name = fs + (onLoop ? QStringLiteral("-loop") : QString()) +
                         (m_oldBytes < partBytes ? QStringLiteral("-grow") : QString());
    m_image = makeDisk(m_dir.path(), name + QStringLiteral(".img"), partBytes);
    QVERIFY(!m_image.isEmpty());
    m_recordPath = m_dir.filePath(name + QStringLiteral(".journal.redo"));
    QString error;
    QVERIFY2(makeFilesystemWithHoles(&error), qPrintable(error));
    expectFilesystem(m_oldBytes - kMiB, m_oldBytes, QStringLiteral("before"));
    m_oldSha = partitionSha();
    m_place = std::make_unique<Place>(m_image, partBytes, onLoop);
    QVERIFY(m_place->ok());
    m_base = where().isImage ? 0 : kOffset;

    // The shrink runs in the view and commits its record; the writes that apply it are taken by
    // the simulated disk, so the image still holds the old filesystem.
    m_writes.clear();
    m_before.clear();
    RedoJournal recording = redo();
    recording.writer = [this](qint64 at, const char *data, qint64 length) {
        m_writes.push_back({at, QByteArray(data, int(length))});
        return true;
    };
    const ToolResult shrunk =
        resizeFilesystemJournaled(where(), partBytes, fs, newBytes, recording);
    QVERIFY2(shrunk.ok, qPrintable(shrunk.error));
    QVERIFY(!m_writes.empty());
    QCOMPARE(partitionSha(), m_oldSha); // the tool never wrote to the partition
    for (const Write &w : m_writes) {
        const qint64 at = m_base + w.offset;
        QVERIFY(at >= kOffset && at + w.data.size() <= kOffset + partBytes);
        m_before.push_back(readAt(m_image, at, w.data.size()));
    }
    {
        QFile record(m_recordPath);
        QVERIFY(record.open(QIODevice::ReadOnly));
        m_record = record.readAll();
    }
    const size_t n = m_writes.size();
    qInfo("%s: %zu blocks journaled (%lld bytes of record)", qPrintable(fs), n,
          qint64(m_record.size()));

    // Cuts while the record is applied: nothing, everything, a prefix, a random subset with one
    // write torn at a sector; then resume.
    QRandomGenerator random(quint32(qHash(fs)) ^ 0x47u);
    // btrfs's check and mount cost about a second a state: it samples each kind of cut once.
    const bool few = pwtest::reducedRun() || fs == QLatin1String("btrfs");
    const int subsets = few ? 1 : 3;
    std::vector<std::pair<QString, std::vector<bool>>> states;
    states.push_back({QStringLiteral("none reached"), std::vector<bool>(n, false)});
    states.push_back({QStringLiteral("all reached"), std::vector<bool>(n, true)});
    std::vector<bool> prefix(n, false);
    std::fill(prefix.begin(), prefix.begin() + long(n / 2), true);
    states.push_back({QStringLiteral("the first half reached"), prefix});
    for (int s = 0; s < subsets; ++s) {
        std::vector<bool> some(n);
        for (size_t i = 0; i < n; ++i)
            some[i] = random.bounded(2) == 1;
        states.push_back({QStringLiteral("random subset %1, one torn").arg(s), some});
    }
    for (const auto &[name, reached] : states) {
        const bool tears = name.contains(QLatin1String("torn"));
        rebuild(reached, tears ? int(random.bounded(quint32(n))) : -1,
                512 * (1 + random.bounded(7)));
        resumeAndExpectNew(name);
        if (QTest::currentTestFailed())
            return;
    }

    // A second cut during resume: the first resume got some of its writes out, then power went
    // again; the second finishes.
    for (int s = 0; s < (few ? 1 : 2); ++s) {
        std::vector<bool> first(n);
        for (size_t i = 0; i < n; ++i)
            first[i] = random.bounded(2) == 1;
        rebuild(first, int(random.bounded(quint32(n))), 2048);
        // The interrupted resume: a prefix of the record's writes, in the order it applies them.
        const size_t upTo = random.bounded(quint32(n));
        for (size_t i = 0; i < upTo; ++i)
            QVERIFY(writeAt(m_image, m_base + m_writes[i].offset, m_writes[i].data));
        resumeAndExpectNew(QStringLiteral("second cut %1 during resume").arg(s));
        if (QTest::currentTestFailed())
            return;
    }

    // The record cut before its commit marker was synced: nothing of it was applied, so the disk
    // holds the old filesystem; resume discards the record and shrinks again.
    const std::vector<std::pair<QString, QByteArray>> torn = {
        {QStringLiteral("record cut in half"), m_record.left(m_record.size() / 2)},
        {QStringLiteral("record without its commit marker"), m_record.chopped(32)},
        {QStringLiteral("commit marker torn"), m_record.chopped(8) + QByteArray(8, '\0')},
    };
    for (const auto &[name, bytes] : torn) {
        if (few && name != torn.front().first)
            continue;
        rebuild(std::vector<bool>(n, false));
        QFile record(m_recordPath);
        QVERIFY(record.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
                record.write(bytes) == bytes.size());
        record.close();
        QCOMPARE(partitionSha(), m_oldSha);
        expectFilesystem(m_oldBytes - kMiB, m_oldBytes, name + QStringLiteral(", before resume"));
        resumeAndExpectNew(name);
        if (QTest::currentTestFailed())
            return;
    }

    // A committed record damaged afterwards (only a drive that ignores flushes does this) is
    // refused before a byte is written.
    rebuild(std::vector<bool>(n, false));
    QByteArray damaged = m_record;
    damaged[64 + 24 + 100] = char(damaged[64 + 24 + 100] ^ 0x5a); // in the first block's data
    {
        QFile record(m_recordPath);
        QVERIFY(record.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
                record.write(damaged) == damaged.size());
    }
    const ToolResult refused = resizeFilesystemJournaled(where(), partBytes, fs, newBytes, redo());
    QVERIFY(!refused.ok);
    QVERIFY2(refused.error.contains(QLatin1String("damaged")), qPrintable(refused.error));
    QCOMPARE(partitionSha(), m_oldSha);

    // Done: the caller's journal says so, then the record goes.
    QVERIFY(finishJournaledResize(redo()));
    QVERIFY(!QFile::exists(m_recordPath));
}

QTEST_GUILESS_MAIN(TestShrinkPowerCut)
#include "tst_shrinkpowercut.moc"
