// A plain user shrinks filesystems inside an image: the partition is served as a file through
// FUSE (core/device/partitionfile.h), so the filesystems' own tools work on it without a loop
// device. The user is created here, and Partwise's entry points run as that user in
// partition-file-worker (through setpriv). On an image with three partitions, ext4, NTFS and
// FAT32 in partition 2 shrink (ext4 grows back too); their own tools, reading the image as root,
// find them shrunk and clean, the FAT keeps its label, partitions 1 and 3 keep every byte and the
// image its size. Checks and used-block maps read through the file. Without FUSE the shrink is
// refused with nothing written, and a tool or a Partwise killed in the middle leaves no mount.
#include "buildsetting.h"
#include "fsfixture.h"
#include "fuseaccess.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "testuser.h"
#include "toolrun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace pwtest;

namespace {

constexpr char kUser[] = "pwpartfile";
constexpr qint64 kMiB = 1024 * 1024;

struct Range
{
    qint64 offset = 0;
    qint64 bytes = 0;
};

// An image made by sfdisk, with partitions 1 and 3 full of random bytes around partition 2.
struct Image
{
    QString path;
    Range partition[4]; // by number, as sfdisk -J reads them
    qint64 size = 0;
};

QByteArray rangeSha256(const QString &path, const Range &r)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(r.offset))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (qint64 left = r.bytes; left > 0;) {
        const QByteArray chunk = f.read(std::min<qint64>(left, kMiB));
        if (chunk.isEmpty())
            return {};
        hash.addData(chunk);
        left -= chunk.size();
    }
    return hash.result().toHex();
}

QByteArray wholeSha256(const QString &path)
{
    return rangeSha256(path, {0, QFileInfo(path).size()});
}

// Everything of the image but partition 2, hashed.
QByteArray outsideSha256(const Image &image)
{
    const Range &p2 = image.partition[2];
    return rangeSha256(image.path, {0, p2.offset}) + '/' +
           rangeSha256(image.path, {p2.offset + p2.bytes, image.size - p2.offset - p2.bytes});
}

// The value of "Name: N" in a tool's report; -1 when missing.
qint64 field(const QByteArray &text, const QString &name)
{
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("^\\s*%1\\s*[:=]?\\s*(\\d+)").arg(name),
                           QRegularExpression::MultilineOption |
                               QRegularExpression::CaseInsensitiveOption)
            .match(QString::fromUtf8(text));
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

// Whether `path` is a mount point, as /proc/self/mountinfo's fifth field says.
bool mounted(const QString &path)
{
    QFile info(QStringLiteral("/proc/self/mountinfo"));
    if (!info.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray &line : info.readAll().split('\n'))
        if (line.split(' ').value(4) == QFile::encodeName(path))
            return true;
    return false;
}

QString describe(const ToolResult &r)
{
    return r.describe() + QLatin1Char('\n') + QString::fromUtf8(r.out);
}

} // namespace

class TestPartitionFile : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void ext4ShrinksAndGrowsInPlace();
    void ntfsShrinks();
    void fat32ShrinksAndKeepsItsLabel();
    void checksAndMapsReadThroughTheFile();
    void theFileNeverOutgrowsThePartition();
    void withoutFuseTheShrinkIsRefused();
    void killedToolLeavesNoMount();
    void killedPartwiseLeavesNoMount();

private:
    Image makeImage(const QString &name, qint64 partitionMiB);
    QStringList asUser(const QStringList &workerArguments, const QString &path = {}) const;
    ToolResult worker(const QStringList &arguments) const;
    QStringList resizeArguments(const Image &image, const QString &fs, qint64 partitionBytes,
                                qint64 newBytes) const;
    // Starts a shrink of the ext4 of `image` whose resize2fs is a stand-in that holds the
    // partition's file open and waits; *tool gets its pid, *file the file it holds.
    bool startHeldShrink(QProcess *process, const Image &image, qint64 *tool, QString *file);
    Image ext4Image(const QString &name);

    QTemporaryDir m_dir;
    QString m_home; // the user's folder
    TestUser m_user;
};

void TestPartitionFile::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // to create a user and become it, and to read what it made
    QVERIFY(m_dir.isValid());
    // No --shell: the worker is started through setpriv, never through a login shell.
    QVERIFY2(m_user.create(QString::fromLatin1(kUser), QString()), qPrintable(m_user.error()));
    QVERIFY(::chmod(QFile::encodeName(m_dir.path()).constData(), 0711) == 0);
    m_home = m_dir.filePath(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(m_home));
    QVERIFY(::chown(QFile::encodeName(m_home).constData(), m_user.uid(), m_user.gid()) == 0);
    QVERIFY(::chmod(QFile::encodeName(m_home).constData(), 0700) == 0);
}

void TestPartitionFile::cleanupTestCase()
{
    m_user.remove();
}

QStringList TestPartitionFile::asUser(const QStringList &workerArguments, const QString &path) const
{
    QStringList command{QStringLiteral("env"), QStringLiteral("HOME=") + m_home,
                        QStringLiteral("TMPDIR=") + m_home};
    if (!path.isEmpty())
        command << QStringLiteral("PATH=") + path;
    return m_user.asUserArgs(command + QStringList{pwtest::buildSetting("PARTITION_FILE_WORKER")} +
                             workerArguments);
}

ToolResult TestPartitionFile::worker(const QStringList &arguments) const
{
    return runTool(QStringLiteral("setpriv"), asUser(arguments));
}

QStringList TestPartitionFile::resizeArguments(const Image &image, const QString &fs,
                                               qint64 partitionBytes, qint64 newBytes) const
{
    return {QStringLiteral("resize"),        image.path, QString::number(image.partition[2].offset),
            QString::number(partitionBytes), fs,         QString::number(newBytes)};
}

Image TestPartitionFile::makeImage(const QString &name, qint64 partitionMiB)
{
    Image image;
    image.path = QDir(m_home).filePath(name);
    const qint64 p2 = partitionMiB * 2048;
    const QByteArray script = QStringLiteral("label: dos\nstart=2048, size=16384\n"
                                             "start=18432, size=%1\nstart=%2, size=16384\n")
                                  .arg(p2)
                                  .arg(18432 + p2)
                                  .toLatin1();
    QString error;
    if (!SfdiskTable::writeImage(image.path, (18432 + p2 + 16384 + 2048) * 512, script, &error)) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    const SfdiskTable table = SfdiskTable::read(image.path);
    for (const SfdiskPartition &p : table.partitions)
        if (p.number >= 1 && p.number <= 3)
            image.partition[p.number] = {p.start * table.sectorSize, p.size * table.sectorSize};
    QFile f(image.path);
    if (!table.ok || image.partition[3].bytes == 0 || !f.open(QIODevice::ReadWrite))
        return {};
    QRandomGenerator random(quint32(qHash(name)));
    for (int n : {1, 3}) {
        QByteArray noise(int(image.partition[n].bytes), Qt::Uninitialized);
        random.fillRange(reinterpret_cast<quint32 *>(noise.data()), noise.size() / 4);
        if (!f.seek(image.partition[n].offset) || f.write(noise) != noise.size())
            return {};
    }
    f.close();
    image.size = QFileInfo(image.path).size();
    if (::chown(QFile::encodeName(image.path).constData(), m_user.uid(), m_user.gid()) != 0)
        return {};
    return image;
}

Image TestPartitionFile::ext4Image(const QString &name)
{
    Image image = makeImage(name, 40);
    if (image.path.isEmpty())
        return image;
    QTemporaryDir tree;
    QFile big(tree.filePath(QStringLiteral("big.bin")));
    QByteArray data(6 * int(kMiB), Qt::Uninitialized);
    QRandomGenerator(7).fillRange(reinterpret_cast<quint32 *>(data.data()), data.size() / 4);
    if (!big.open(QIODevice::WriteOnly) || big.write(data) != data.size())
        return {};
    big.close();
    const ToolResult made = runTool(
        QStringLiteral("mkfs.ext4"),
        {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-b"), QStringLiteral("4096"),
         QStringLiteral("-E"), QStringLiteral("offset=%1").arg(image.partition[2].offset),
         QStringLiteral("-d"), tree.path(), image.path,
         QStringLiteral("%1k").arg(image.partition[2].bytes / 1024)});
    if (!made.ok()) {
        qWarning("%s", qPrintable(made.describe()));
        return {};
    }
    return image;
}

void TestPartitionFile::ext4ShrinksAndGrowsInPlace()
{
    const FuseOpenToUsers fuse;
    QVERIFY2(fuse.ok(), qPrintable(fuse.error()));
    const Image image = ext4Image(QStringLiteral("ext4.img"));
    QVERIFY(!image.path.isEmpty());
    const QString name =
        QStringLiteral("%1?offset=%2").arg(image.path).arg(image.partition[2].offset);
    const QByteArray p1 = rangeSha256(image.path, image.partition[1]);
    const QByteArray p3 = rangeSha256(image.path, image.partition[3]);
    const QByteArray outside = outsideSha256(image);
    const qint64 full = image.partition[2].bytes;

    for (const qint64 newBytes : {full - 12 * kMiB, full}) { // shrink, then grow back
        const ToolResult r = worker(resizeArguments(
            image, QStringLiteral("ext4"), newBytes == full ? full - 12 * kMiB : full, newBytes));
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QVERIFY2(r.out.contains("/fuse/partition"), r.out.constData()); // through the file
        const ToolResult header = runTool(QStringLiteral("dumpe2fs"), {QStringLiteral("-h"), name});
        QVERIFY2(header.ok(), qPrintable(header.describe()));
        QCOMPARE(field(header.out, QStringLiteral("Block count")) *
                     field(header.out, QStringLiteral("Block size")),
                 newBytes);
        const ToolResult check = runTool(QStringLiteral("e2fsck"), {QStringLiteral("-fn"), name});
        QVERIFY2(check.ok(), qPrintable(check.describe() + QString::fromUtf8(check.out)));
        // resize2fs cuts a regular file to the filesystem's size and extends one to grow: the
        // image is neither cut nor extended, and nothing around the partition changes.
        QCOMPARE(QFileInfo(image.path).size(), image.size);
        QCOMPARE(rangeSha256(image.path, image.partition[1]), p1);
        QCOMPARE(rangeSha256(image.path, image.partition[3]), p3);
        QCOMPARE(outsideSha256(image), outside);
    }
}

void TestPartitionFile::ntfsShrinks()
{
    const FuseOpenToUsers fuse;
    QVERIFY2(fuse.ok(), qPrintable(fuse.error()));
    const Image image = makeImage(QStringLiteral("ntfs.img"), 40);
    QVERIFY(!image.path.isEmpty());
    const Range &p2 = image.partition[2];
    {
        // Made in a file of its own (mkntfs writes a whole device), then put in place.
        const QString alone = m_dir.filePath(QStringLiteral("ntfs-alone.img"));
        QFile f(alone);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(p2.bytes));
        f.close();
        const ToolResult made =
            runTool(QStringLiteral("mkntfs"),
                    {QStringLiteral("-Q"), QStringLiteral("-F"), QStringLiteral("-L"),
                     QStringLiteral("PWNTFS"), QStringLiteral("-p"),
                     QString::number(p2.offset / 512), QStringLiteral("-H"), QStringLiteral("255"),
                     QStringLiteral("-S"), QStringLiteral("63"), alone});
        QVERIFY2(made.ok(), qPrintable(made.describe()));
        const ToolResult placed =
            runTool(QStringLiteral("dd"),
                    {QStringLiteral("if=") + alone, QStringLiteral("of=") + image.path,
                     QStringLiteral("bs=1M"), QStringLiteral("seek=%1").arg(p2.offset),
                     QStringLiteral("oflag=seek_bytes"), QStringLiteral("conv=notrunc"),
                     QStringLiteral("status=none")});
        QVERIFY2(placed.ok(), qPrintable(placed.describe()));
        QFile::remove(alone);
    }
    const QByteArray outside = outsideSha256(image);
    const qint64 newBytes = p2.bytes - 10 * kMiB;

    const ToolResult r = worker(resizeArguments(image, QStringLiteral("ntfs"), p2.bytes, newBytes));
    QVERIFY2(r.ok(), qPrintable(describe(r)));
    QVERIFY2(r.out.contains("ntfsresize") && r.out.contains("/fuse/partition"), r.out.constData());

    QCOMPARE(QFileInfo(image.path).size(), image.size);
    QCOMPARE(outsideSha256(image), outside);
    // As the partition will be once its table entry shrinks too: NTFS keeps its backup boot
    // sector in the partition's last sector.
    LoopRange loop(image.path, p2.offset, newBytes, true);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const ToolResult info =
        runTool(QStringLiteral("ntfsresize"), {QStringLiteral("--info"), QStringLiteral("--force"),
                                               QStringLiteral("--no-progress-bar"), loop.path()});
    const qint64 size = field(info.out, QStringLiteral("Current volume size"));
    QVERIFY2(size > newBytes - kMiB && size <= newBytes, info.out.constData());
    const ToolResult fix = runTool(QStringLiteral("ntfsfix"), {QStringLiteral("-n"), loop.path()});
    QVERIFY2(fix.ok(), qPrintable(describe(fix)));
}

void TestPartitionFile::fat32ShrinksAndKeepsItsLabel()
{
    const FuseOpenToUsers fuse;
    QVERIFY2(fuse.ok(), qPrintable(fuse.error()));
    // libparted keeps FAT32 at 65520 clusters of 4 KiB or more: 300 MiB, sparse.
    const Image image = makeImage(QStringLiteral("fat32.img"), 300);
    QVERIFY(!image.path.isEmpty());
    const Range &p2 = image.partition[2];
    const ToolResult made =
        runTool(QStringLiteral("mkfs.fat"),
                {QStringLiteral("-F"), QStringLiteral("32"), QStringLiteral("-s"),
                 QStringLiteral("8"), QStringLiteral("-h"), QString::number(p2.offset / 512),
                 QStringLiteral("-n"), QStringLiteral("PWLABEL"), QStringLiteral("--offset"),
                 QString::number(p2.offset / 512), image.path, QString::number(p2.bytes / 1024)});
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    const QByteArray outside = outsideSha256(image);
    const qint64 newBytes = p2.bytes - 4 * kMiB;

    // libparted resizes inside the image itself; fatlabel then writes the label back (libparted
    // leaves "NO NAME" in the boot sector) and fsck.fat -n checks it, both through the file.
    const ToolResult r = worker(resizeArguments(image, QStringLiteral("vfat"), p2.bytes, newBytes));
    QVERIFY2(r.ok(), qPrintable(describe(r)));

    QCOMPARE(QFileInfo(image.path).size(), image.size);
    QCOMPARE(outsideSha256(image), outside);
    const ToolResult minfo =
        runTool(QStringLiteral("minfo"),
                {QStringLiteral("-i"), QStringLiteral("%1@@%2").arg(image.path).arg(p2.offset)});
    QVERIFY2(minfo.ok(), qPrintable(describe(minfo)));
    QCOMPARE(field(minfo.out, QStringLiteral("big size")) * 512, newBytes);
    LoopRange loop(image.path, p2.offset, newBytes, true);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    const ToolResult blkid = runTool(QStringLiteral("blkid"), {QStringLiteral("-p"), loop.path()});
    QVERIFY2(blkid.out.contains("LABEL_FATBOOT=\"PWLABEL\"") &&
                 blkid.out.contains(" LABEL=\"PWLABEL\""),
             blkid.out.constData());
    const ToolResult check =
        runTool(QStringLiteral("fsck.fat"), {QStringLiteral("-n"), loop.path()});
    QVERIFY2(check.ok(), qPrintable(describe(check)));
}

void TestPartitionFile::checksAndMapsReadThroughTheFile()
{
    const FuseOpenToUsers fuse;
    QVERIFY2(fuse.ok(), qPrintable(fuse.error()));
    const Image image = makeImage(QStringLiteral("read.img"), 40);
    QVERIFY(!image.path.isEmpty());
    const Range &p2 = image.partition[2];
    const ToolResult made =
        runTool(QStringLiteral("mkfs.fat"),
                {QStringLiteral("-F"), QStringLiteral("16"), QStringLiteral("--offset"),
                 QString::number(p2.offset / 512), image.path, QString::number(p2.bytes / 1024)});
    QVERIFY2(made.ok(), qPrintable(made.describe()));
    const QByteArray before = wholeSha256(image.path);
    const QStringList where{image.path, QString::number(p2.offset), QString::number(p2.bytes),
                            QStringLiteral("vfat")};

    const ToolResult check = worker(QStringList{QStringLiteral("check")} + where);
    QVERIFY2(check.ok(), qPrintable(describe(check)));
    QVERIFY2(check.out.contains("fsck.fat") && check.out.contains("/fuse/partition"),
             check.out.constData());
    const ToolResult map = worker(QStringList{QStringLiteral("map")} + where);
    QVERIFY2(map.ok(), qPrintable(describe(map)));
    QVERIFY2(field(map.out, QStringLiteral("used bytes")) > 0, map.out.constData());
    QCOMPARE(wholeSha256(image.path), before);
}

void TestPartitionFile::theFileNeverOutgrowsThePartition()
{
    const FuseOpenToUsers fuse;
    QVERIFY2(fuse.ok(), qPrintable(fuse.error()));
    const Image image = makeImage(QStringLiteral("bounds.img"), 8);
    QVERIFY(!image.path.isEmpty());
    const Range &p2 = image.partition[2];
    const QByteArray outside = outsideSha256(image);
    auto onFile = [&](const QString &mode, const QString &script) {
        return worker({QStringLiteral("run"), image.path, QString::number(p2.offset),
                       QString::number(p2.bytes), mode, QStringLiteral("sh"), QStringLiteral("-c"),
                       script});
    };
    // One write of 8 KiB from the partition's last 4 KiB on.
    const QString last =
        QStringLiteral("bs=8192 iflag=fullblock oflag=seek_bytes seek=%1").arg(p2.bytes - 4096);

    // A smaller size is accepted and changes nothing; a larger one is refused.
    ToolResult r = onFile(QStringLiteral("rw"), QStringLiteral("truncate -s 1M {} && "
                                                               "test $(stat -c %s {}) = %1")
                                                    .arg(p2.bytes));
    QVERIFY2(r.ok(), qPrintable(describe(r)));
    r = onFile(QStringLiteral("rw"), QStringLiteral("truncate -s +1 {}"));
    QVERIFY2(!r.ok(), qPrintable(describe(r)));
    // Read-only: not one byte reaches the image.
    const QByteArray before = rangeSha256(image.path, p2);
    r = onFile(QStringLiteral("ro"),
               QStringLiteral("head -c 8192 /dev/zero | dd of={} %1 conv=notrunc").arg(last));
    QVERIFY2(!r.ok(), qPrintable(describe(r)));
    QCOMPARE(rangeSha256(image.path, p2), before);
    // Read-write: the partition's last 4 KiB are written (a short write), the rest is refused.
    r = onFile(QStringLiteral("rw"),
               QStringLiteral("head -c 8192 /dev/zero | dd of={} %1 conv=notrunc").arg(last));
    QVERIFY2(!r.ok(), qPrintable(describe(r)));
    QVERIFY2(r.err.contains("No space left"), r.err.constData());
    QCOMPARE(rangeSha256(image.path, {p2.offset + p2.bytes - 4096, 4096}),
             QCryptographicHash::hash(QByteArray(4096, 0), QCryptographicHash::Sha256).toHex());
    QCOMPARE(QFileInfo(image.path).size(), image.size);
    QCOMPARE(outsideSha256(image), outside);
}

void TestPartitionFile::withoutFuseTheShrinkIsRefused()
{
    // Closed to users as on a bare live system, whatever this machine's mode (a desktop's udev
    // rule opens it to everyone).
    const FuseClosedToUsers closed;
    QVERIFY2(closed.ok(), qPrintable(closed.error()));
    const Image image = ext4Image(QStringLiteral("nofuse.img"));
    QVERIFY(!image.path.isEmpty());
    const QByteArray before = wholeSha256(image.path);

    const ToolResult available = worker({QStringLiteral("available")});
    QCOMPARE(available.exitCode, 1);
    QVERIFY2(available.out.contains("/dev/fuse"), available.out.constData());
    const ToolResult r =
        worker(resizeArguments(image, QStringLiteral("ext4"), image.partition[2].bytes,
                               image.partition[2].bytes - 12 * kMiB));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.out.contains("FUSE"), r.out.constData());
    QCOMPARE(wholeSha256(image.path), before);
}

bool TestPartitionFile::startHeldShrink(QProcess *process, const Image &image, qint64 *tool,
                                        QString *file)
{
    // The stand-in resize2fs: writes its pid and the file it was given, holds that file open
    // for writing and waits to be killed.
    const QString bin = QDir(m_home).filePath(QStringLiteral("bin"));
    const QString said = QDir(m_home).filePath(QStringLiteral("held.txt"));
    QFile::remove(said);
    QDir().mkpath(bin);
    QFile shim(bin + QStringLiteral("/resize2fs"));
    if (!shim.open(QIODevice::WriteOnly))
        return false;
    shim.write(QStringLiteral("#!/bin/sh\nexec 3<>\"$1\"\necho \"$$ $1\" > %1.new\n"
                              "mv %1.new %1\nexec sleep 600\n")
                   .arg(said)
                   .toUtf8());
    shim.close();
    if (::chmod(QFile::encodeName(shim.fileName()).constData(), 0755) != 0 ||
        ::chown(QFile::encodeName(bin).constData(), m_user.uid(), m_user.gid()) != 0)
        return false;
    process->setProcessChannelMode(QProcess::MergedChannels);
    process->start(QStringLiteral("setpriv"),
                   asUser(resizeArguments(image, QStringLiteral("ext4"), image.partition[2].bytes,
                                          image.partition[2].bytes - 12 * kMiB),
                          bin + QStringLiteral(":/usr/sbin:/usr/bin:/sbin:/bin")));
    if (!process->waitForStarted())
        return false;
    QElapsedTimer waited;
    waited.start();
    while (!QFile::exists(said) && waited.elapsed() < 60000 &&
           process->state() == QProcess::Running)
        QThread::msleep(20);
    QFile held(said);
    if (!held.open(QIODevice::ReadOnly))
        return false;
    const QList<QByteArray> fields = held.readAll().trimmed().split(' ');
    *tool = fields.value(0).toLongLong();
    *file = QString::fromUtf8(fields.value(1));
    return *tool > 0 && file->endsWith(QLatin1String("/fuse/partition"));
}

void TestPartitionFile::killedToolLeavesNoMount()
{
    const FuseOpenToUsers fuse;
    QVERIFY2(fuse.ok(), qPrintable(fuse.error()));
    const Image image = ext4Image(QStringLiteral("killtool.img"));
    QVERIFY(!image.path.isEmpty());
    const QByteArray outside = outsideSha256(image);
    QProcess process;
    qint64 tool = 0;
    QString file;
    QVERIFY2(startHeldShrink(&process, image, &tool, &file), process.readAll().constData());
    const QString mountPoint = QFileInfo(file).path();
    QVERIFY2(mounted(mountPoint), qPrintable(mountPoint));

    QVERIFY(::kill(pid_t(tool), SIGKILL) == 0);
    QVERIFY(process.waitForFinished(60000));
    const QByteArray said = process.readAll();
    QCOMPARE(process.exitCode(), 1); // the shrink failed, and said so
    QVERIFY2(said.contains("resize2fs"), said.constData());
    QVERIFY2(!mounted(mountPoint), qPrintable(mountPoint));
    QVERIFY2(!QFileInfo::exists(QFileInfo(mountPoint).path()), qPrintable(mountPoint));
    QCOMPARE(outsideSha256(image), outside);
}

void TestPartitionFile::killedPartwiseLeavesNoMount()
{
    const FuseOpenToUsers fuse;
    QVERIFY2(fuse.ok(), qPrintable(fuse.error()));
    const Image image = ext4Image(QStringLiteral("killworker.img"));
    QVERIFY(!image.path.isEmpty());
    QProcess process;
    qint64 tool = 0;
    QString file;
    QVERIFY2(startHeldShrink(&process, image, &tool, &file), process.readAll().constData());
    const QString mountPoint = QFileInfo(file).path();
    QVERIFY2(mounted(mountPoint), qPrintable(mountPoint));

    // setpriv became the worker: its pid is Partwise's. The tool lives on, holding the file.
    QVERIFY(::kill(pid_t(process.processId()), SIGKILL) == 0);
    QVERIFY(process.waitForFinished(10000));
    QElapsedTimer waited;
    waited.start();
    // The mount goes first, then its folder, then the folder made for it: wait for the last.
    const QString folder = QFileInfo(mountPoint).path();
    while ((mounted(mountPoint) || QFileInfo::exists(folder)) && waited.elapsed() < 10000)
        QThread::msleep(20);
    const bool stillMounted = mounted(mountPoint);
    const bool folderLeft = QFileInfo::exists(folder);
    ::kill(pid_t(tool), SIGKILL);
    QVERIFY2(!stillMounted, qPrintable(mountPoint));
    QVERIFY2(!folderLeft, qPrintable(mountPoint));
}

QTEST_GUILESS_MAIN(TestPartitionFile)
#include "tst_partitionfile.moc"
