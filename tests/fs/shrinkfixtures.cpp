#include "shrinkfixtures.h"

#include "diskimagebuilder.h"
#include "filetree.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <sys/wait.h>
#include <unistd.h>

using namespace partwise;

namespace shrinktest {

namespace {

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

bool failWith(const pwtest::ToolResult &r, QString *error)
{
    if (!r.ok())
        *error = r.describe();
    return r.ok();
}

// dump.f2fs's superblock field ("block_count   [0x c500 : 50432]").
qint64 f2fsField(const QString &dump, const QString &name)
{
    return number(dump, QStringLiteral("^%1\\s+\\[0x\\s*[0-9a-f]+ : (\\d+)\\]").arg(name));
}

} // namespace

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

QString makeDisk(const QString &dir, const QString &name, qint64 partBytes)
{
    QString error;
    const QString path =
        pwtest::DiskImageBuilder(dir).createSparse(name, partBytes + 2 * kMiB, &error);
    const QString script = QStringLiteral("label: gpt\nfirst-lba: 34\n\nstart=%1, size=%2\n")
                               .arg(kStartSector)
                               .arg(partBytes / 512);
    return !path.isEmpty() && pwtest::DiskImageBuilder::sfdisk(path, script, &error) ? path
                                                                                     : QString();
}

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

Place::Place(const QString &image, qint64 partBytes, bool onLoopPartition)
    : m_image(image), m_partBytes(partBytes)
{
    if (!onLoopPartition)
        return;
    m_loop = std::make_unique<pwtest::LoopDevice>(image);
    if (m_loop->ok() && m_loop->addPartitions())
        m_node = m_loop->partitionNode(1);
}

FilesystemLocation Place::location() const
{
    FilesystemLocation where;
    where.path = isImage() ? m_image : m_node;
    where.offset = isImage() ? kOffset : 0;
    where.isImage = isImage();
    return where;
}

QString Place::node(bool readOnly)
{
    if (!isImage())
        return m_node;
    m_range.reset();
    m_range = std::make_unique<pwtest::LoopRange>(m_image, kOffset, m_partBytes, readOnly);
    return m_range->ok() ? m_range->path() : QString();
}

QByteArray Place::outside() const
{
    return rangeSha256(m_image, 0, kOffset) +
           rangeSha256(m_image, kOffset + m_partBytes, QFileInfo(m_image).size());
}

pwtest::ToolResult fsckFatVerbose(const QString &node)
{
    return pwtest::runTool(QStringLiteral("fsck.fat"),
                           {QStringLiteral("-n"), QStringLiteral("-v"), node});
}

bool fillFatWithHoles(const QString &mt, qint64 fillerBytes, const QString &src,
                      const QStringList &doomed, QString *error)
{
    QTemporaryDir fillerDir;
    {
        QFile filler(QDir(fillerDir.path()).filePath(QStringLiteral("FILLER.BIN")));
        if (!filler.open(QIODevice::WriteOnly) || !filler.resize(fillerBytes)) {
            *error = filler.errorString();
            return false;
        }
    }
    if (!pwtest::fillFilesystem(mt, QStringLiteral("vfat"), fillerDir.path(), error) ||
        !pwtest::fillFilesystem(mt, QStringLiteral("vfat"), src, error))
        return false;
    QStringList del{QStringLiteral("-i"), mt, QStringLiteral("::/FILLER.BIN")};
    for (const QString &f : doomed)
        del << QStringLiteral("::/") + f;
    return failWith(pwtest::mtools(QStringLiteral("mdel"), del), error);
}

qint64 fatFileEnd(const QString &mt, const QString &layout, const QString &file, QString *report)
{
    *report = out(pwtest::mtools(QStringLiteral("mshowfat"),
                                 {QStringLiteral("-i"), mt, QStringLiteral("::/") + file}));
    const qint64 last = number(*report, QStringLiteral("-(\\d+)>"));
    if (last <= 0)
        return -1;
    return number(layout, QStringLiteral("Data area starts at byte (\\d+)")) +
           (last - 1) * number(layout, QStringLiteral("(\\d+) bytes per cluster"));
}

bool makeBtrfsWithHoles(const QString &node, const QString &src, const QStringList &doomed,
                        QString *error)
{
    if (!pwtest::makeFilesystem(node, QStringLiteral("btrfs"), QStringLiteral("shrink"),
                                kStartSector, error))
        return false;
    QTemporaryDir mnt;
    pwtest::forgetBtrfsDevices();
    if (!failWith(
            pwtest::runTool(QStringLiteral("mount"),
                            {QStringLiteral("-t"), QStringLiteral("btrfs"), node, mnt.path()}),
            error))
        return false;
    QFile filler(QDir(mnt.path()).filePath(QStringLiteral("filler")));
    bool written = filler.open(QIODevice::WriteOnly);
    const QByteArray block(kMiB, 'f');
    for (int i = 0; written && i < 90; ++i)
        written = filler.write(block) == block.size();
    filler.close();
    if (!written)
        *error = QStringLiteral("cannot write the filler: %1").arg(filler.errorString());
    const bool copied =
        written &&
        failWith(pwtest::runTool(QStringLiteral("cp"),
                                 {QStringLiteral("-r"), src + QStringLiteral("/."), mnt.path()}),
                 error);
    removeFromTree(mnt.path(), doomed + QStringList{QStringLiteral("filler")});
    pwtest::runTool(QStringLiteral("sync"), {});
    const bool unmounted = failWith(pwtest::runTool(QStringLiteral("umount"), {mnt.path()}), error);
    return copied && unmounted;
}

bool makeLoadedF2fs(const QString &node, const QString &src, QString *error)
{
    return failWith(pwtest::runTool(QStringLiteral("mkfs.f2fs"),
                                    {QStringLiteral("-q"), QStringLiteral("-f"), node}),
                    error) &&
           failWith(pwtest::runTool(QStringLiteral("sload.f2fs"),
                                    {QStringLiteral("-f"), src, QStringLiteral("-t"),
                                     QStringLiteral("/"), node}),
                    error);
}

F2fsSize f2fsSize(const QString &node)
{
    const QString dump = out(pwtest::runTool(QStringLiteral("dump.f2fs"),
                                             {QStringLiteral("-d"), QStringLiteral("1"), node}));
    const qint64 blockSize = qint64(1) << f2fsField(dump, QStringLiteral("log_blocksize"));
    F2fsSize size;
    size.segmentBytes = blockSize << f2fsField(dump, QStringLiteral("log_blocks_per_seg"));
    size.bytes = f2fsField(dump, QStringLiteral("block_count")) * blockSize;
    return size;
}

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

} // namespace shrinktest
