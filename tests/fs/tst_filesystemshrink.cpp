// Shrinking FAT16, FAT32, btrfs and F2FS by a few MiB through resizeFilesystem, as the
// realignment planner does for a partition that is missing a few MiB. Each filesystem sits in
// a partition at the classic misaligned GPT start (sector 34), inside an image file and on a loop
// device with a partition node. Every result is judged by independent tools: the filesystem's
// own check (fsck.fat -n, btrfs check --readonly, fsck.f2fs), the size its own tool reports
// (fsck.fat -v, btrfs inspect-internal dump-super, dump.f2fs) and the SHA-256 of every file read
// back through mtools, a read-only mount or dump.f2fs.
#include "fs/filesystemresize.h"

#include "diskimagebuilder.h"
#include "filechecksum.h"
#include "filetree.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "toolrun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr qint64 kMiB = 1024 * 1024;
constexpr qint64 kStartSector = 34; // GPT's first usable sector: misaligned on 4 KiB drives
constexpr qint64 kOffset = kStartSector * 512;
constexpr qint64 kShrink = 3 * kMiB;

// mtools refuses FAT geometries that do not match a cylinder layout unless told not to care.
pwtest::ToolResult mtools(const QString &program, const QStringList &args)
{
    return pwtest::runTool(QStringLiteral("env"),
                           QStringList{QStringLiteral("MTOOLS_SKIP_CHECK=1"), program} + args);
}

qint64 number(const QString &text, const QString &pattern)
{
    const QRegularExpressionMatch m =
        QRegularExpression(pattern, QRegularExpression::MultilineOption).match(text);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

QString out(const pwtest::ToolResult &r)
{
    return QString::fromUtf8(r.out + r.err);
}

// SHA-256 of [from, from+length) of a file: the bytes around a partition must not change.
QByteArray rangeSha256(const QString &path, qint64 from, qint64 length)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(from))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    while (length > 0) {
        const QByteArray chunk = f.read(std::min<qint64>(length, kMiB));
        if (chunk.isEmpty())
            break;
        hash.addData(chunk);
        length -= chunk.size();
    }
    return hash.result().toHex();
}

// SHA-256 of a sparse file's data extents and where they lie: unchanged bytes give the same
// value (a write into a hole counts as a change, zeros or not) and only the data is read, not
// hundreds of MiB of holes.
QByteArray sparseSha256(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    const off_t size = off_t(f.size());
    off_t data = 0;
    while (data < size && (data = ::lseek(f.handle(), data, SEEK_DATA)) >= 0) {
        const off_t hole = ::lseek(f.handle(), data, SEEK_HOLE);
        hash.addData(QByteArray::number(qint64(data)) + ':' + QByteArray::number(qint64(hole)));
        hash.addData(rangeSha256(path, data, hole - data));
        data = hole;
    }
    return hash.result().toHex() + ' ' + QByteArray::number(qint64(size));
}

bool writeAt(const QString &path, qint64 offset, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::ReadWrite) && f.seek(offset) && f.write(bytes) == bytes.size();
}

// A sparse image holding one GPT partition of `partBytes` at sector 34.
QString makeDisk(const QString &dir, const QString &name, qint64 partBytes)
{
    const QString path = QDir(dir).filePath(name + QStringLiteral(".img"));
    QFile::remove(path);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !f.resize(partBytes + 2 * kMiB))
        return {};
    f.close();
    QString error;
    const QString script = QStringLiteral("label: gpt\nfirst-lba: 34\n\nstart=%1, size=%2\n")
                               .arg(kStartSector)
                               .arg(partBytes / 512);
    return pwtest::DiskImageBuilder::sfdisk(path, script, &error) ? path : QString();
}

// The file tree to store: many small files and a large one. Every fourth small file is deleted
// from the filesystem afterwards (and from `dir`, which then holds what must survive).
QStringList makeTree(const QString &dir, quint32 seed)
{
    QString error;
    if (!pwtest::makeFileTree(dir, 120, 5 * kMiB + 12345, seed, &error))
        return {};
    QStringList doomed;
    const QStringList files = pwtest::treeSha256(dir).keys();
    for (int i = 0; i < files.size(); ++i)
        if (i % 4 == 1 && files[i] != QLatin1String("large.bin"))
            doomed << files[i];
    return doomed;
}

void removeFromTree(const QString &dir, const QStringList &files)
{
    for (const QString &f : files)
        QFile::remove(QDir(dir).filePath(f));
}

// Where the filesystem under test lives: a partition inside an image (set up and checked through
// loop devices over its range) or a partition node of a loop device.
class Place
{
public:
    Place(const QString &image, qint64 partBytes, bool onLoopPartition)
        : m_image(image), m_partBytes(partBytes)
    {
        if (!onLoopPartition)
            return;
        m_loop = std::make_unique<pwtest::LoopDevice>(image);
        if (m_loop->ok() && m_loop->addPartitions())
            m_node = m_loop->partitionNode(1);
    }

    bool ok() const { return !m_loop || !m_node.isEmpty(); }
    bool isImage() const { return !m_loop; }

    FilesystemLocation location() const
    {
        FilesystemLocation where;
        where.path = isImage() ? m_image : m_node;
        where.offset = isImage() ? kOffset : 0;
        where.isImage = isImage();
        return where;
    }

    // A node for tools that need one: the partition node, or a loop device over the range
    // (held until the next call or the end).
    QString node(bool readOnly = false)
    {
        if (!isImage())
            return m_node;
        m_range.reset();
        m_range = std::make_unique<pwtest::LoopRange>(m_image, kOffset, m_partBytes, readOnly);
        return m_range->ok() ? m_range->path() : QString();
    }
    void release() { m_range.reset(); }

    // The image's bytes outside the partition, hashed.
    QByteArray outside() const
    {
        return rangeSha256(m_image, 0, kOffset) +
               rangeSha256(m_image, kOffset + m_partBytes, QFileInfo(m_image).size());
    }
    QString image() const { return m_image; }

private:
    QString m_image;
    qint64 m_partBytes;
    QString m_node;
    std::unique_ptr<pwtest::LoopDevice> m_loop;
    std::unique_ptr<pwtest::LoopRange> m_range;
};

// dump.f2fs's superblock field ("block_count   [0x c500 : 50432]").
qint64 f2fsField(const QString &dump, const QString &name)
{
    return number(dump, QStringLiteral("^%1\\s+\\[0x\\s*[0-9a-f]+ : (\\d+)\\]").arg(name));
}

// Every file of an F2FS read back without the kernel driver: fsck.f2fs -t lists the tree with
// inode numbers, dump.f2fs -i writes each file to ./lost_found.
QMap<QString, QByteArray> f2fsTreeSha256(const QString &node, QString *error)
{
    const pwtest::ToolResult tree = pwtest::runTool(
        QStringLiteral("fsck.f2fs"), {QStringLiteral("--dry-run"), QStringLiteral("-t"), node});
    QTemporaryDir work;
    QTemporaryDir result;
    QStringList parents;
    const QRegularExpression line(
        QStringLiteral("^((?:\\|   |    )*)[|`]-- (.+) <ino = 0x([0-9a-f]+)>"));
    for (const QString &l : out(tree).split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch m = line.match(l);
        if (!m.hasMatch())
            continue;
        const int depth = int(m.captured(1).size() / 4);
        const QString name = m.captured(2);
        parents = parents.mid(0, depth);
        const QString rel = (parents + QStringList{name}).join(QLatin1Char('/'));
        parents << name;
        QProcess dump;
        dump.setWorkingDirectory(work.path());
        dump.start(QStringLiteral("dump.f2fs"),
                   {QStringLiteral("-i"), QStringLiteral("0x") + m.captured(3), node});
        dump.write("y\n");
        dump.closeWriteChannel();
        dump.waitForFinished(60000);
        const QString dumped = QDir(work.path()).filePath(QStringLiteral("lost_found/") + name);
        if (!QFile::exists(dumped))
            continue; // a folder
        QDir(result.path()).mkpath(QFileInfo(rel).path());
        if (!QFile::rename(dumped, QDir(result.path()).filePath(rel)))
            *error = QStringLiteral("cannot move %1").arg(dumped);
    }
    return pwtest::treeSha256(result.path(), error);
}

// Runs `body` in a forked child (which may change its mount namespace or drop root without
// touching this process) and returns what it returned.
QByteArray inChild(const std::function<QByteArray()> &body)
{
    int fds[2];
    if (::pipe(fds) != 0)
        return "pipe failed";
    const pid_t pid = ::fork();
    if (pid < 0)
        return "fork failed";
    if (pid == 0) {
        ::close(fds[0]);
        const QByteArray report = body();
        (void)!::write(fds[1], report.constData(), size_t(report.size()));
        ::_exit(0);
    }
    ::close(fds[1]);
    QByteArray report;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
        report.append(buf, n);
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return report;
}

} // namespace

class TestFilesystemShrink : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void canShrink();
    void fat_data();
    void fat();
    void btrfs_data();
    void btrfs();
    void f2fs_data();
    void f2fs();
    void fat12IsRefused();
    void damagedIsRefused_data();
    void damagedIsRefused();
    void missingToolNamesPackage();
    void withoutRootSaysSo();

private:
    QTemporaryDir m_dir;
};

void TestFilesystemShrink::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestFilesystemShrink::canShrink()
{
    for (const char *fs : {"ext2", "ext3", "ext4", "ntfs", "vfat", "btrfs", "f2fs", "swap", ""})
        QVERIFY2(filesystemCanShrink(QLatin1String(fs)), fs);
    for (const char *fs : {"xfs", "exfat", "hfsplus", "crypto_LUKS"})
        QVERIFY2(!filesystemCanShrink(QLatin1String(fs)), fs);
    // The resize dialog and apply keep their old answers.
    QVERIFY(!canShrinkUnmounted(QStringLiteral("vfat")));
    QVERIFY(canShrinkUnmounted(QStringLiteral("ext4")));
}

void TestFilesystemShrink::fat_data()
{
    QTest::addColumn<int>("bits");
    QTest::addColumn<bool>("onLoop");
    QTest::newRow("FAT16 in an image") << 16 << false;
    QTest::newRow("FAT16 on a loop partition") << 16 << true;
    QTest::newRow("FAT32 in an image") << 32 << false;
    QTest::newRow("FAT32 on a loop partition") << 32 << true;
}

void TestFilesystemShrink::fat()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // fsck.fat needs a device node: a loop device over the image
    QFETCH(int, bits);
    QFETCH(bool, onLoop);
    // libparted keeps FAT32 at 65520 clusters of 4 KiB or more: 300 MiB with 4 KiB clusters.
    // The 64 MiB FAT16's 2 KiB clusters fall below its 32760-cluster floor, so it halves them.
    const qint64 partBytes = (bits == 16 ? 64 : 300) * kMiB;
    const QString image =
        makeDisk(m_dir.path(), QStringLiteral("fat%1-%2").arg(bits).arg(onLoop), partBytes);
    QVERIFY(!image.isEmpty());
    Place place(image, partBytes, onLoop);
    QVERIFY(place.ok());
    // mtools addresses the partition inside the image directly.
    const QString mt =
        onLoop ? place.location().path : QStringLiteral("%1@@%2").arg(image).arg(kOffset);

    const QString node = place.node();
    auto mkfs = pwtest::runTool(QStringLiteral("mkfs.fat"),
                                {QStringLiteral("-F"), QString::number(bits), QStringLiteral("-s"),
                                 bits == 16 ? QStringLiteral("4") : QStringLiteral("8"),
                                 QStringLiteral("-h"), QString::number(kStartSector),
                                 QStringLiteral("-n"), QStringLiteral("SHRINK"), node});
    QVERIFY2(mkfs.ok(), qPrintable(mkfs.describe()));
    place.release();

    // A filler first, so the tree lands near the end; deleting the filler then leaves files
    // past the new end that the resizer has to move.
    QTemporaryDir src;
    const QStringList doomed = makeTree(src.path(), 1000 + bits);
    QVERIFY(!doomed.isEmpty());
    QTemporaryDir fillerDir;
    {
        QFile filler(QDir(fillerDir.path()).filePath(QStringLiteral("FILLER.BIN")));
        QVERIFY(filler.open(QIODevice::WriteOnly));
        QVERIFY(filler.resize(partBytes - 8 * kMiB));
    }
    auto r = mtools(QStringLiteral("mcopy"),
                    {QStringLiteral("-Q"), QStringLiteral("-i"), mt,
                     QDir(fillerDir.path()).filePath(QStringLiteral("FILLER.BIN")),
                     QStringLiteral("::/")});
    QVERIFY2(r.ok(), qPrintable(r.describe()));
    QStringList copy{QStringLiteral("-s"), QStringLiteral("-Q"), QStringLiteral("-i"), mt};
    for (const QString &e : QDir(src.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot))
        copy << QDir(src.path()).filePath(e);
    r = mtools(QStringLiteral("mcopy"), copy << QStringLiteral("::/"));
    QVERIFY2(r.ok(), qPrintable(r.describe()));
    QStringList del{QStringLiteral("-i"), mt, QStringLiteral("::/FILLER.BIN")};
    for (const QString &f : doomed)
        del << QStringLiteral("::/") + f;
    r = mtools(QStringLiteral("mdel"), del);
    QVERIFY2(r.ok(), qPrintable(r.describe()));
    removeFromTree(src.path(), doomed);
    const QMap<QString, QByteArray> expected = pwtest::treeSha256(src.path());
    const QByteArray outside = place.outside();

    const qint64 newBytes = partBytes - kShrink;
    {
        // large.bin went in last: its last cluster lies past the new end, so the resizer must
        // move data, not just cut free space off.
        const QString layout =
            out(pwtest::runTool(QStringLiteral("fsck.fat"),
                                {QStringLiteral("-n"), QStringLiteral("-v"), place.node(true)}));
        place.release();
        const QString chain =
            out(mtools(QStringLiteral("mshowfat"),
                       {QStringLiteral("-i"), mt, QStringLiteral("::/large.bin")}));
        const qint64 last = number(chain, QStringLiteral("-(\\d+)>"));
        const qint64 lastByte =
            number(layout, QStringLiteral("Data area starts at byte (\\d+)")) +
            (last - 1) * number(layout, QStringLiteral("(\\d+) bytes per cluster"));
        QVERIFY2(last > 0 && lastByte > newBytes, qPrintable(chain + layout));
    }
    const ToolResult shrunk =
        resizeFilesystem(place.location(), partBytes, QStringLiteral("vfat"), newBytes);
    QVERIFY2(shrunk.ok, qPrintable(shrunk.error));

    const pwtest::ToolResult check = pwtest::runTool(
        QStringLiteral("fsck.fat"), {QStringLiteral("-n"), QStringLiteral("-v"), place.node(true)});
    QVERIFY2(check.ok(), qPrintable(check.describe() + out(check)));
    const QString report = out(check);
    QCOMPARE(number(report, QStringLiteral("^\\s*(\\d+) sectors total")) *
                 number(report, QStringLiteral("^\\s*(\\d+) bytes per logical sector")),
             newBytes);
    QCOMPARE(number(report, QStringLiteral("(\\d+) bit entries")), qint64(bits));
    // Boot code finds the partition by the hidden sectors: still the partition's start.
    QCOMPARE(number(report, QStringLiteral("^\\s*(\\d+) hidden sectors")), kStartSector);
    place.release();

    QTemporaryDir back;
    r = mtools(QStringLiteral("mcopy"),
               {QStringLiteral("-s"), QStringLiteral("-Q"), QStringLiteral("-i"), mt,
                QStringLiteral("::/*"), back.path() + QLatin1Char('/')});
    QVERIFY2(r.ok(), qPrintable(r.describe()));
    const QStringList diff = pwtest::compareTrees(expected, pwtest::treeSha256(back.path()));
    QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    QCOMPARE(place.outside(), outside);
}

void TestFilesystemShrink::btrfs_data()
{
    QTest::addColumn<bool>("onLoop");
    QTest::newRow("in an image") << false;
    QTest::newRow("on a loop partition") << true;
}

void TestFilesystemShrink::btrfs()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // btrfs shrinks only while mounted
    QFETCH(bool, onLoop);
    const qint64 partBytes = 512 * kMiB; // the kernel resizes btrfs down to 256 MiB only
    const QString image = makeDisk(m_dir.path(), QStringLiteral("btrfs-%1").arg(onLoop), partBytes);
    QVERIFY(!image.isEmpty());
    Place place(image, partBytes, onLoop);
    QVERIFY(place.ok());

    QTemporaryDir src;
    QStringList doomed = makeTree(src.path(), 2000 + onLoop);
    QVERIFY(!doomed.isEmpty());
    {
        const QString node = place.node();
        QString error;
        QVERIFY2(pwtest::makeFilesystem(node, QStringLiteral("btrfs"), QStringLiteral("shrink"),
                                        kStartSector, &error),
                 qPrintable(error));
        // Fill, then delete a filler and some files, through a mount.
        QTemporaryDir mnt;
        pwtest::forgetBtrfsDevices();
        auto r = pwtest::runTool(QStringLiteral("mount"),
                                 {QStringLiteral("-t"), QStringLiteral("btrfs"), node, mnt.path()});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        QFile filler(QDir(mnt.path()).filePath(QStringLiteral("filler")));
        QVERIFY(filler.open(QIODevice::WriteOnly));
        const QByteArray block(kMiB, 'f');
        for (int i = 0; i < 90; ++i)
            QCOMPARE(filler.write(block), qint64(block.size()));
        filler.close();
        r = pwtest::runTool(QStringLiteral("cp"),
                            {QStringLiteral("-r"), src.path() + QStringLiteral("/."), mnt.path()});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        removeFromTree(mnt.path(), doomed << QStringLiteral("filler"));
        pwtest::runTool(QStringLiteral("sync"), {});
        r = pwtest::runTool(QStringLiteral("umount"), {mnt.path()});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        place.release();
        pwtest::forgetBtrfsDevices();
    }
    removeFromTree(src.path(), doomed);
    const QMap<QString, QByteArray> expected = pwtest::treeSha256(src.path());
    const QByteArray outside = place.outside();

    const qint64 newBytes = partBytes - kShrink;
    const ToolResult shrunk =
        resizeFilesystem(place.location(), partBytes, QStringLiteral("btrfs"), newBytes);
    QVERIFY2(shrunk.ok, qPrintable(shrunk.error));
    // Nothing left mounted under /run by Partwise.
    QFile mounts(QStringLiteral("/proc/self/mountinfo"));
    QVERIFY(mounts.open(QIODevice::ReadOnly));
    QVERIFY(!mounts.readAll().contains("partwise-btrfs"));

    const QString node = place.node(true);
    const pwtest::ToolResult check = pwtest::checkFilesystemReadOnly(node, QStringLiteral("btrfs"));
    QVERIFY2(check.ok(), qPrintable(check.describe()));
    const pwtest::ToolResult super =
        pwtest::runTool(QStringLiteral("btrfs"),
                        {QStringLiteral("inspect-internal"), QStringLiteral("dump-super"), node});
    QCOMPARE(number(out(super), QStringLiteral("^total_bytes\\s+(\\d+)")), newBytes);
    QCOMPARE(number(out(super), QStringLiteral("^dev_item.total_bytes\\s+(\\d+)")), newBytes);
    QString error;
    const QMap<QString, QByteArray> actual =
        pwtest::filesystemTreeSha256(node, QStringLiteral("btrfs"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList diff = pwtest::compareTrees(expected, actual);
    QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    place.release();
    pwtest::forgetBtrfsDevices();
    QCOMPARE(place.outside(), outside);
}

void TestFilesystemShrink::f2fs_data()
{
    QTest::addColumn<bool>("onLoop");
    QTest::newRow("in an image") << false;
    QTest::newRow("on a loop partition") << true;
}

void TestFilesystemShrink::f2fs()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // resize.f2fs needs a device node: a loop device over the image
    QFETCH(bool, onLoop);
    const qint64 partBytes = 200 * kMiB;
    const QString image = makeDisk(m_dir.path(), QStringLiteral("f2fs-%1").arg(onLoop), partBytes);
    QVERIFY(!image.isEmpty());
    Place place(image, partBytes, onLoop);
    QVERIFY(place.ok());

    // No F2FS driver in this kernel: files go in with sload.f2fs, which cannot delete, so this
    // tree keeps all its files.
    QTemporaryDir src;
    QVERIFY(!makeTree(src.path(), 3000 + onLoop).isEmpty());
    {
        const QString node = place.node();
        auto r = pwtest::runTool(QStringLiteral("mkfs.f2fs"),
                                 {QStringLiteral("-q"), QStringLiteral("-f"), node});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        r = pwtest::runTool(
            QStringLiteral("sload.f2fs"),
            {QStringLiteral("-f"), src.path(), QStringLiteral("-t"), QStringLiteral("/"), node});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        place.release();
    }
    const QMap<QString, QByteArray> expected = pwtest::treeSha256(src.path());
    const QByteArray outside = place.outside();

    const qint64 newBytes = partBytes - kShrink;
    const ToolResult shrunk =
        resizeFilesystem(place.location(), partBytes, QStringLiteral("f2fs"), newBytes);
    QVERIFY2(shrunk.ok, qPrintable(shrunk.error));

    const QString node = place.node(true);
    const pwtest::ToolResult check = pwtest::runTool(
        QStringLiteral("fsck.f2fs"), {QStringLiteral("--dry-run"), QStringLiteral("-f"), node});
    QVERIFY2(check.ok(), qPrintable(check.describe() + out(check)));
    const QString dump = out(pwtest::runTool(QStringLiteral("dump.f2fs"),
                                             {QStringLiteral("-d"), QStringLiteral("1"), node}));
    const qint64 blockSize = qint64(1) << f2fsField(dump, QStringLiteral("log_blocksize"));
    const qint64 segment = blockSize << f2fsField(dump, QStringLiteral("log_blocks_per_seg"));
    const qint64 bytes = f2fsField(dump, QStringLiteral("block_count")) * blockSize;
    // F2FS keeps whole segments: at most the new size, and less than a segment below it.
    QVERIFY2(bytes <= newBytes && bytes > newBytes - segment,
             qPrintable(QStringLiteral("%1 bytes for %2").arg(bytes).arg(newBytes)));
    QString error;
    const QMap<QString, QByteArray> actual = f2fsTreeSha256(node, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList diff = pwtest::compareTrees(expected, actual);
    QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    place.release();
    QCOMPARE(place.outside(), outside);
}

void TestFilesystemShrink::fat12IsRefused()
{
    // libblkid tells FAT12 apart before anything else runs: no root needed.
    const qint64 partBytes = 4 * kMiB;
    const QString image = makeDisk(m_dir.path(), QStringLiteral("fat12"), partBytes);
    QVERIFY(!image.isEmpty());
    const auto mkfs =
        pwtest::runTool(QStringLiteral("mkfs.fat"),
                        {QStringLiteral("-F"), QStringLiteral("12"), QStringLiteral("--offset"),
                         QString::number(kStartSector), image, QString::number(partBytes / 1024)});
    QVERIFY2(mkfs.ok(), qPrintable(mkfs.describe()));
    const QByteArray before = pwtest::fileSha256(image);
    FilesystemLocation where;
    where.path = image;
    where.offset = kOffset;
    where.isImage = true;
    const ToolResult r =
        resizeFilesystem(where, partBytes, QStringLiteral("vfat"), partBytes - kMiB);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("FAT12")), qPrintable(r.error));
    QCOMPARE(pwtest::fileSha256(image), before);
}

void TestFilesystemShrink::damagedIsRefused_data()
{
    QTest::addColumn<QString>("fs");
    QTest::addColumn<bool>("onLoop");
    QTest::addColumn<QString>("tool");
    QTest::newRow("FAT16, FATs differ, image") << "fat16" << false << "fsck.fat";
    QTest::newRow("FAT32, sectors per FAT, loop") << "fat32" << true << "fsck.fat";
    QTest::newRow("btrfs superblock, image") << "btrfs" << false << "btrfs check";
    QTest::newRow("btrfs superblock, loop") << "btrfs" << true << "btrfs check";
    QTest::newRow("F2FS superblocks, image") << "f2fs" << false << "fsck.f2fs";
}

void TestFilesystemShrink::damagedIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QFETCH(QString, fs);
    QFETCH(bool, onLoop);
    QFETCH(QString, tool);
    const qint64 partBytes = (fs == QLatin1String("btrfs") ? 272 : 128) * kMiB;
    const QString image =
        makeDisk(m_dir.path(), QStringLiteral("damaged-%1-%2").arg(fs).arg(onLoop), partBytes);
    QVERIFY(!image.isEmpty());
    {
        pwtest::LoopRange range(image, kOffset, partBytes);
        QVERIFY(range.ok());
        pwtest::ToolResult r;
        if (fs.startsWith(QLatin1String("fat")))
            r = pwtest::runTool(QStringLiteral("mkfs.fat"),
                                {QStringLiteral("-F"), fs.mid(3), range.path()});
        else if (fs == QLatin1String("btrfs"))
            r = pwtest::runTool(QStringLiteral("mkfs.btrfs"),
                                {QStringLiteral("-q"), QStringLiteral("-f"), range.path()});
        else
            r = pwtest::runTool(QStringLiteral("mkfs.f2fs"),
                                {QStringLiteral("-q"), QStringLiteral("-f"), range.path()});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
    }
    pwtest::forgetBtrfsDevices();
    // Damage that libblkid still accepts but the filesystem's own check does not.
    if (fs == QLatin1String("fat16")) { // the first FAT no longer matches the second
        pwtest::LoopRange range(image, kOffset, partBytes, true);
        const QString layout =
            out(pwtest::runTool(QStringLiteral("fsck.fat"),
                                {QStringLiteral("-n"), QStringLiteral("-v"), range.path()}));
        const qint64 fat = number(layout, QStringLiteral("First FAT starts at byte (\\d+)"));
        QVERIFY2(fat > 0, qPrintable(layout));
        QVERIFY(writeAt(image, kOffset + fat + 6, QByteArray("\x55\x55", 2)));
    } else if (fs == QLatin1String("fat32")) // sectors per FAT: 1, no longer the backup's value
        QVERIFY(writeAt(image, kOffset + 36, QByteArray("\x01\x00\x00\x00", 4)));
    else if (fs == QLatin1String("btrfs")) // a superblock field: its checksum no longer matches
        QVERIFY(writeAt(image, kOffset + 65536 + 0x50, QByteArray("\x77\x77\x77\x77", 4)));
    else // both F2FS superblocks' magic
        QVERIFY(writeAt(image, kOffset + 0x400, QByteArray(4, '\xff')) &&
                writeAt(image, kOffset + 0x1400, QByteArray(4, '\xff')));

    const QByteArray before = sparseSha256(image);
    {
        Place place(image, partBytes, onLoop);
        QVERIFY(place.ok());
        const QString name = fs.startsWith(QLatin1String("fat")) ? QStringLiteral("vfat") : fs;
        const ToolResult r =
            resizeFilesystem(place.location(), partBytes, name, partBytes - kShrink);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(tool), qPrintable(r.error));
    }
    QCOMPARE(sparseSha256(image), before);
}

// Without the tools (hidden by empty folders over the program folders, in a private mount
// namespace of a child process) the error names the Debian package to install.
void TestFilesystemShrink::missingToolNamesPackage()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // unshare(CLONE_NEWNS)
    const QString fat = QDir(m_dir.path()).filePath(QStringLiteral("bare-fat.img"));
    {
        QFile f(fat);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(32 * kMiB));
    }
    const auto mkfs = pwtest::runTool(QStringLiteral("mkfs.fat"),
                                      {QStringLiteral("-F"), QStringLiteral("16"), fat});
    QVERIFY2(mkfs.ok(), qPrintable(mkfs.describe()));

    const QByteArray report = inChild([&] {
        QByteArray report;
        if (::unshare(CLONE_NEWNS) != 0 ||
            ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
            report = "cannot make a private mount namespace";
        for (const char *dir :
             {"/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/sbin", "/usr/local/bin"}) {
            struct stat st = {};
            if (report.isEmpty() && ::lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
                ::mount("tmpfs", dir, "tmpfs", 0, nullptr) != 0)
                report = QByteArray("cannot hide ") + dir;
        }
        ::setenv("PATH", "/nonexistent", 1);
        if (report.isEmpty()) {
            FilesystemLocation where;
            where.path = fat;
            report += resizeFilesystem(where, 32 * kMiB, QStringLiteral("vfat"), 30 * kMiB)
                          .error.toUtf8() +
                      '\n';
            where.path = QStringLiteral("/dev/null");
            report += resizeFilesystem(where, 512 * kMiB, QStringLiteral("btrfs"), 500 * kMiB)
                          .error.toUtf8() +
                      '\n';
            report += resizeFilesystem(where, 32 * kMiB, QStringLiteral("f2fs"), 30 * kMiB)
                          .error.toUtf8() +
                      '\n';
        }
        return report;
    });
    const QStringList lines = QString::fromUtf8(report).split(QLatin1Char('\n'));
    QVERIFY2(lines.size() >= 3, report.constData());
    QVERIFY2(lines[0].contains(QLatin1String("fsck.fat")) &&
                 lines[0].contains(QLatin1String("dosfstools")),
             qPrintable(lines[0]));
    QVERIFY2(lines[1].contains(QLatin1String("btrfs-progs")), qPrintable(lines[1]));
    QVERIFY2(lines[2].contains(QLatin1String("fsck.f2fs")) &&
                 lines[2].contains(QLatin1String("f2fs-tools")),
             qPrintable(lines[2]));
}

// Run as an ordinary user (a child process that dropped root), btrfs and F2FS inside an image
// say that they need root instead of failing somewhere in mount or losetup.
void TestFilesystemShrink::withoutRootSaysSo()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // to become someone else
    const QByteArray report = inChild([&] {
        QByteArray report;
        if (::setgid(65534) != 0 || ::setuid(65534) != 0) {
            report = "cannot become nobody";
        } else {
            FilesystemLocation where;
            where.path = QStringLiteral("/dev/null");
            report += resizeFilesystem(where, 512 * kMiB, QStringLiteral("btrfs"), 500 * kMiB)
                          .error.toUtf8() +
                      '\n';
            where.path = QStringLiteral("/nonexistent.img");
            where.offset = kOffset;
            where.isImage = true;
            report += resizeFilesystem(where, 512 * kMiB, QStringLiteral("f2fs"), 500 * kMiB)
                          .error.toUtf8() +
                      '\n';
        }
        return report;
    });
    const QStringList lines = QString::fromUtf8(report).split(QLatin1Char('\n'));
    QVERIFY2(lines.size() >= 2, report.constData());
    QVERIFY2(lines[0].contains(QLatin1String("root")), qPrintable(lines[0]));
    QVERIFY2(lines[1].contains(QLatin1String("root")), qPrintable(lines[1]));
}

QTEST_GUILESS_MAIN(TestFilesystemShrink)
#include "tst_filesystemshrink.moc"
