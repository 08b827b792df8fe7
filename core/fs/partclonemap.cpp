#include "fs/partclonemap.h"

#include "base/toolrunner.h"
#include "device/loopattachment.h"
#include "fs/resizesupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtEndian>

#include <algorithm>
#include <cctype>

namespace partwise {

using move::Extent;

namespace {

// The boot sector and whatever a filesystem keeps before its first block (boot code, the
// primary superblock of btrfs at 64 KiB starts right after): always copied.
constexpr std::uint64_t kAlwaysCopied = 64 * 1024;
// btrfs keeps copies of its superblock at 64 MiB, 256 GiB and 1 PiB.
constexpr std::uint64_t kBtrfsSuperblockCopies[] = {64ULL << 20, 256ULL << 30, 1ULL << 50};
constexpr std::uint64_t kBtrfsSuperblockBytes = 4096;
// The first gap coarsening fills in; doubled until the extents fit.
constexpr std::uint64_t kFirstMergeGap = 64 * 1024;
// A map line is about 30 characters; anything far longer is not a map.
constexpr qint64 kLongestLine = 4096;
// partclone reads only metadata, but btrfs and XFS metadata of a large filesystem takes a while.
constexpr int kPartcloneTimeoutMs = 60 * 60 * 1000;

bool parseHex(const QByteArray &field, std::uint64_t *value)
{
    if (field.size() < 3 || field.size() > 18 || field.at(0) != '0' ||
        (field.at(1) != 'x' && field.at(1) != 'X'))
        return false;
    for (int i = 2; i < field.size(); ++i) {
        if (!std::isxdigit(static_cast<unsigned char>(field.at(i))))
            return false;
    }
    bool ok = false;
    *value = field.mid(2).toULongLong(&ok, 16);
    return ok;
}

// Sorted, disjoint, merged; touching extents become one.
void normalise(std::vector<Extent> &extents)
{
    std::sort(extents.begin(), extents.end(),
              [](const Extent &a, const Extent &b) { return a.offset < b.offset; });
    std::vector<Extent> merged;
    merged.reserve(extents.size());
    for (const Extent &extent : extents) {
        if (extent.length == 0)
            continue;
        if (!merged.empty() && extent.offset <= merged.back().offset + merged.back().length) {
            Extent &last = merged.back();
            last.length =
                std::max(last.offset + last.length, extent.offset + extent.length) - last.offset;
            continue;
        }
        merged.push_back(extent);
    }
    extents.swap(merged);
}

QByteArray readBytes(const QString &node, qint64 offset, qint64 length)
{
    QFile file(node);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(offset))
        return {};
    return file.read(length);
}

// Why the allocation state on the disk (or partclone's reading of it) cannot be trusted; empty
// when it can. `where` starts the sentence ("The xfs filesystem at byte N of DEVICE").
QString whyNoMap(const QString &node, const QString &filesystem, const QString &where)
{
    if (filesystem == QLatin1String("xfs")) {
        // Allocations of the last transactions may live only in the log until it is replayed.
        const ToolResult r = runTool(QStringLiteral("xfs_logprint"), {QStringLiteral("-t"), node},
                                     QStringLiteral("xfsprogs"));
        if (r.output.contains(QLatin1String("state: <CLEAN>")))
            return {};
        if (r.output.contains(QLatin1String("state: <DIRTY>")))
            return where + QStringLiteral(" has changes in its log not yet written to the "
                                          "filesystem; mount and unmount it to replay them.");
        return where + QStringLiteral(": cannot tell whether its log is clean: %1")
                           .arg(r.error.isEmpty() ? r.output.trimmed().right(300) : r.error);
    }
    if (filesystem == QLatin1String("btrfs")) {
        // A log tree (fsync'd data after the last commit) is replayed at the next mount; its
        // blocks are not in the extent tree.
        const QByteArray super = readBytes(node, 64 * 1024, 4096);
        if (super.size() < 4096 || super.mid(64, 8) != "_BHRfS_M")
            return where + QStringLiteral(" has no readable btrfs superblock.");
        if (qFromLittleEndian<quint64>(super.constData() + 96) != 0)
            return where + QStringLiteral(" has a log tree still to replay; mount and unmount "
                                          "it first.");
        return {};
    }
    if (filesystem == QLatin1String("f2fs")) {
        // Data fsync'd after the last checkpoint is recovered at mount, and the checkpoint's
        // segment table does not count its blocks yet.
        const ToolResult r =
            runTool(QStringLiteral("dump.f2fs"), {node}, QStringLiteral("f2fs-tools"));
        static const QRegularExpression state(
            QStringLiteral("checkpoint state = ([0-9a-fA-F]+) :"));
        const QRegularExpressionMatch m = state.match(r.output);
        if (!r.ok || !m.hasMatch())
            return where + QStringLiteral(": cannot read its checkpoint: %1")
                               .arg(r.error.isEmpty() ? r.output.trimmed().right(300) : r.error);
        bool ok = false;
        const quint32 flags = m.captured(1).toUInt(&ok, 16);
        constexpr quint32 kUnmount = 0x1, kError = 0x8, kFsck = 0x10, kQuotaFsck = 0x800,
                          kDisabled = 0x1000, kDisabledQuick = 0x2000;
        if (!ok || !(flags & kUnmount))
            return where + QStringLiteral(" was not unmounted cleanly (data to recover at the "
                                          "next mount); mount and unmount it first.");
        if (flags & (kError | kFsck | kQuotaFsck | kDisabled | kDisabledQuick))
            return where + QStringLiteral(" needs a check (checkpoint state %1); run fsck.f2fs "
                                          "on it.")
                               .arg(m.captured(1));
        return {};
    }
    if (filesystem == QLatin1String("exfat")) {
        const QByteArray boot = readBytes(node, 0, 512);
        if (boot.size() < 512 || boot.mid(3, 8) != "EXFAT   ")
            return where + QStringLiteral(" has no readable exFAT boot sector.");
        constexpr quint16 kVolumeDirty = 0x2;
        if (qFromLittleEndian<quint16>(boot.constData() + 106) & kVolumeDirty)
            return where + QStringLiteral(" is marked dirty (not unmounted cleanly); run "
                                          "fsck.exfat on it.");
        return {};
    }
    if (filesystem == QLatin1String("vfat")) {
        // partclone.fat 0.3.23 maps FAT12 wrongly: files copied by its map come out damaged
        // (tests/fs/tst_usedmaps_copy proves it). FAT12 is the FAT with fewer than 4085 clusters
        // (Microsoft's FAT specification), which is how drivers tell it apart.
        const QByteArray boot = readBytes(node, 0, 512);
        if (boot.size() < 512)
            return where + QStringLiteral(" has no readable boot sector.");
        const uchar *b = reinterpret_cast<const uchar *>(boot.constData());
        const quint32 bytesPerSector = qFromLittleEndian<quint16>(b + 11);
        const quint32 sectorsPerCluster = b[13];
        const quint32 reserved = qFromLittleEndian<quint16>(b + 14);
        const quint32 fats = b[16];
        const quint32 rootEntries = qFromLittleEndian<quint16>(b + 17);
        const quint32 total16 = qFromLittleEndian<quint16>(b + 19);
        const quint32 fatSize16 = qFromLittleEndian<quint16>(b + 22);
        const quint64 total = total16 ? total16 : qFromLittleEndian<quint32>(b + 32);
        const quint64 fatSize = fatSize16 ? fatSize16 : qFromLittleEndian<quint32>(b + 36);
        if (bytesPerSector < 512 || sectorsPerCluster == 0 || fats == 0)
            return where + QStringLiteral(" has no valid FAT boot sector.");
        const quint64 rootSectors = (rootEntries * 32ULL + bytesPerSector - 1) / bytesPerSector;
        const quint64 meta = reserved + fats * fatSize + rootSectors;
        const quint64 clusters = total > meta ? (total - meta) / sectorsPerCluster : 0;
        if (clusters < 4085)
            return where + QStringLiteral(" is FAT12, which partclone maps wrongly.");
        return {};
    }
    if (filesystem == QLatin1String("hfsplus")) {
        const QByteArray header = readBytes(node, 1024, 512);
        if (header.size() < 512 || (header.left(2) != "H+" && header.left(2) != "HX"))
            return where + QStringLiteral(" has no HFS+ volume header at byte 1024.");
        constexpr quint32 kUnmounted = 1u << 8, kInconsistent = 1u << 11;
        const quint32 attributes = qFromBigEndian<quint32>(header.constData() + 4);
        if (!(attributes & kUnmounted) || (attributes & kInconsistent))
            return where + QStringLiteral(" was not unmounted cleanly; run fsck.hfsplus on it.");
        return {};
    }
    return {};
}

QString tail(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const qint64 size = file.size();
    file.seek(std::max<qint64>(0, size - 2000));
    return QString::fromLocal8Bit(file.readAll()).trimmed().section(QLatin1Char('\n'), -3);
}

} // namespace

QString partcloneProgram(const QString &filesystem)
{
    // No map for anything else: ext2/3/4 are read through libext2fs (usedblocks); swap holds
    // nothing; classic HFS, JFS, ReiserFS, ... have no partclone tool in Debian's package, and
    // partclone.apfs and partclone.minix are for filesystems Partwise does not move.
    if (filesystem == QLatin1String("ntfs"))
        return QStringLiteral("partclone.ntfs");
    if (filesystem == QLatin1String("vfat")) // FAT12, FAT16 and FAT32 alike
        return QStringLiteral("partclone.fat");
    if (filesystem == QLatin1String("exfat"))
        return QStringLiteral("partclone.exfat");
    if (filesystem == QLatin1String("xfs"))
        return QStringLiteral("partclone.xfs");
    if (filesystem == QLatin1String("btrfs"))
        return QStringLiteral("partclone.btrfs");
    if (filesystem == QLatin1String("f2fs"))
        return QStringLiteral("partclone.f2fs");
    if (filesystem == QLatin1String("hfsplus"))
        return QStringLiteral("partclone.hfsp");
    return {};
}

PartcloneDomainParser::PartcloneDomainParser(std::uint64_t partitionBytes, std::size_t maxExtents)
    : m_partitionBytes(partitionBytes), m_maxExtents(std::max<std::size_t>(maxExtents, 2))
{
}

bool PartcloneDomainParser::fail(const QString &why)
{
    if (m_error.isEmpty())
        m_error = QStringLiteral("line %1 of partclone's map: %2").arg(m_lineNumber).arg(why);
    m_extents.clear();
    m_extents.shrink_to_fit();
    return false;
}

bool PartcloneDomainParser::addLine(const QByteArray &rawLine)
{
    if (!m_error.isEmpty())
        return false;
    ++m_lineNumber;
    const QByteArray line = rawLine.trimmed();
    if (line.isEmpty() || line.startsWith('#'))
        return true;
    const QList<QByteArray> fields = line.simplified().split(' ');
    if (!m_sawStatus) {
        // "current_pos current_status": where partclone stopped, i.e. the bytes it describes.
        if (fields.size() != 2 || !parseHex(fields.at(0), &m_mappedBytes) ||
            fields.at(1).size() != 1)
            return fail(QStringLiteral("expected \"position status\", found \"%1\"")
                            .arg(QString::fromLatin1(line.left(80))));
        if (m_mappedBytes == 0)
            return fail(QStringLiteral("the map describes no bytes at all"));
        if (m_mappedBytes > m_partitionBytes)
            return fail(QStringLiteral("the filesystem (%1 bytes) is larger than its partition "
                                       "(%2 bytes)")
                            .arg(m_mappedBytes)
                            .arg(m_partitionBytes));
        m_sawStatus = true;
        return true;
    }
    std::uint64_t position = 0;
    std::uint64_t size = 0;
    if (fields.size() != 3 || !parseHex(fields.at(0), &position) ||
        !parseHex(fields.at(1), &size) || fields.at(2).size() != 1)
        return fail(QStringLiteral("expected \"position size status\", found \"%1\"")
                        .arg(QString::fromLatin1(line.left(80))));
    const char status = fields.at(2).at(0);
    if (status != '+' && status != '?')
        return fail(QStringLiteral("unknown status '%1'").arg(QLatin1Char(status)));
    if (position != m_nextPosition)
        return fail(QStringLiteral("the run at 0x%1 should start at 0x%2")
                        .arg(position, 0, 16)
                        .arg(m_nextPosition, 0, 16));
    if (size == 0 || position + size < position || position + size > m_mappedBytes)
        return fail(QStringLiteral("the run of 0x%1 bytes at 0x%2 is empty or ends past 0x%3")
                        .arg(size, 0, 16)
                        .arg(position, 0, 16)
                        .arg(m_mappedBytes, 0, 16));
    m_nextPosition = position + size;
    if (status == '+')
        addUsed(position, position + size);
    return true;
}

void PartcloneDomainParser::addUsed(std::uint64_t offset, std::uint64_t end)
{
    if (!m_extents.empty()) {
        Extent &last = m_extents.back();
        if (offset <= last.offset + last.length + m_mergeGap) {
            last.length = end - last.offset;
            return;
        }
    }
    m_extents.push_back({offset, end - offset});
    if (m_extents.size() > m_maxExtents)
        coarsen();
}

void PartcloneDomainParser::coarsen()
{
    // Fill in the smallest gaps (they are copied as if used) until half the budget is left, so
    // the next coarsening is as far away again.
    while (m_extents.size() > m_maxExtents / 2) {
        m_mergeGap = m_mergeGap == 0 ? kFirstMergeGap : m_mergeGap * 2;
        std::size_t kept = 0;
        for (std::size_t i = 1; i < m_extents.size(); ++i) {
            Extent &last = m_extents[kept];
            const Extent &next = m_extents[i];
            if (next.offset <= last.offset + last.length + m_mergeGap)
                last.length = next.offset + next.length - last.offset;
            else
                m_extents[++kept] = next;
        }
        m_extents.resize(kept + 1);
    }
}

std::optional<std::vector<Extent>> PartcloneDomainParser::finish(QString *error)
{
    auto fails = [&](const QString &why) -> std::optional<std::vector<Extent>> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (!m_error.isEmpty())
        return fails(m_error);
    if (!m_sawStatus)
        return fails(QStringLiteral("partclone's map is empty or has no status line"));
    if (m_nextPosition != m_mappedBytes)
        return fails(QStringLiteral("partclone's map stops at byte %1 of the %2 it announces")
                         .arg(m_nextPosition)
                         .arg(m_mappedBytes));
    return std::move(m_extents);
}

void PartcloneProgressReader::add(const QByteArray &text)
{
    if (!m_progress)
        return;
    m_carry += text;
    static const QRegularExpression completed(QStringLiteral("Completed:\\s*([0-9.]+)%"));
    qsizetype start = 0;
    for (qsizetype i = 0; i < m_carry.size(); ++i) {
        if (m_carry.at(i) != '\r' && m_carry.at(i) != '\n')
            continue;
        const QString line = QString::fromLatin1(m_carry.mid(start, i - start));
        start = i + 1;
        if (line.contains(QLatin1String("done!")))
            m_listing = true;
        const QRegularExpressionMatch m = completed.match(line);
        bool ok = false;
        const double percent = m.hasMatch() ? m.captured(1).toDouble(&ok) : 0;
        if (ok)
            m_progress(m_listing ? QStringLiteral("listing the blocks in use")
                                 : QStringLiteral("reading the allocation bitmap"),
                       std::clamp(percent / 100.0, 0.0, 1.0));
    }
    m_carry.remove(0, start);
    if (m_carry.size() > kLongestLine)
        m_carry.clear(); // no progress line is that long
}

std::optional<std::vector<Extent>> parsePartcloneDomain(const QByteArray &text,
                                                        std::uint64_t partitionBytes,
                                                        QString *error, std::size_t maxExtents)
{
    PartcloneDomainParser parser(partitionBytes, maxExtents);
    qsizetype start = 0;
    while (start < text.size()) {
        qsizetype end = text.indexOf('\n', start);
        if (end < 0)
            end = text.size();
        if (!parser.addLine(text.mid(start, end - start)))
            break;
        start = end + 1;
    }
    return parser.finish(error);
}

std::optional<std::vector<Extent>> partcloneUsedExtents(const QString &device, qint64 offsetBytes,
                                                        qint64 sizeBytes, const QString &filesystem,
                                                        QString *error, const MapProgress &progress)
{
    const QString where = QStringLiteral("The %1 filesystem at byte %2 of %3")
                              .arg(filesystem)
                              .arg(offsetBytes)
                              .arg(device);
    auto unknown = [&](const QString &why) -> std::optional<std::vector<Extent>> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const QString programName = partcloneProgram(filesystem);
    if (programName.isEmpty())
        return unknown(QStringLiteral("partclone cannot map %1 filesystems.").arg(filesystem));
    if (offsetBytes < 0 || sizeBytes <= 0)
        return unknown(QStringLiteral("Invalid range %1+%2 for %3.")
                           .arg(offsetBytes)
                           .arg(sizeBytes)
                           .arg(device));
    const QString program = findTool(programName);
    if (program.isEmpty())
        return unknown(QStringLiteral("%1 is not installed; install the partclone package to "
                                      "copy only the blocks %2 filesystems use.")
                           .arg(programName, filesystem));

    // partclone reads a filesystem from its first byte: a file that starts with it is read as
    // it is, anything else through a read-only FilesystemNode over the range.
    std::optional<FilesystemNode> range;
    QString node = device;
    if (offsetBytes != 0 || !QFileInfo(device).isFile()) {
        range.emplace(FilesystemLocation{device, offsetBytes, true}, sizeBytes, true);
        if (range->node().isEmpty())
            return unknown(where + QStringLiteral(": no used-block map: ") + range->error());
        node = range->node();
    }
    if (const QString why = whyNoMap(node, filesystem, where); !why.isEmpty())
        return unknown(why);

    QTemporaryDir scratch;
    if (!scratch.isValid())
        return unknown(QStringLiteral("Cannot create a temporary folder for partclone's log: %1")
                           .arg(scratch.errorString()));
    const QString logPath = scratch.filePath(QStringLiteral("partclone.log"));
    const QString errPath = scratch.filePath(QStringLiteral("stderr.txt"));
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    process.setProcessEnvironment(env);
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardErrorFile(errPath);
    // Read-only: --domain only writes the map (to our pipe) and the log (to our folder).
    // --UI-fresh 0: partclone's progress thread sleeps that many seconds between updates, and
    // partclone waits for it before exiting (up to 2 s by default, longer than most maps take);
    // it only runs while the map is written out, which takes a moment.
    // With progress asked for on a large filesystem, partclone reports each second instead.
    const bool reporting = progress && sizeBytes >= kMapProgressFrom;
    process.start(program,
                  {QStringLiteral("--quiet"),
                   reporting ? QStringLiteral("--UI-fresh=1") : QStringLiteral("--UI-fresh=0"),
                   QStringLiteral("--domain"), QStringLiteral("--source"), node,
                   QStringLiteral("--output"), QStringLiteral("-"), QStringLiteral("--logfile"),
                   logPath});
    if (!process.waitForStarted())
        return unknown(QStringLiteral("Cannot run %1: %2").arg(program, process.errorString()));

    PartcloneDomainParser parser(static_cast<std::uint64_t>(sizeBytes));
    QElapsedTimer timer;
    timer.start();
    bool parsing = true;
    bool timedOut = false;
    QString outputError;
    auto readLines = [&] {
        while (parsing && process.canReadLine())
            parsing = parser.addLine(process.readLine());
        if (parsing && !process.canReadLine() && process.bytesAvailable() > kLongestLine) {
            outputError = QStringLiteral("partclone's output has a line of more than %1 "
                                         "bytes, which no map has")
                              .arg(kLongestLine);
            parsing = false;
        }
        if (!parsing)
            process.readAll(); // discard the rest
    };
    PartcloneProgressReader progressReader(reporting ? progress : MapProgress{});
    QFile progressText(errPath);
    auto readProgress = [&] {
        if (!reporting)
            return;
        if (!progressText.isOpen() && !progressText.open(QIODevice::ReadOnly))
            return;
        progressReader.add(progressText.read(64 * 1024));
    };
    while (process.state() != QProcess::NotRunning) {
        readLines();
        readProgress();
        if (!parsing || timer.hasExpired(kPartcloneTimeoutMs)) {
            timedOut = parsing;
            process.kill();
            process.waitForFinished();
            break;
        }
        process.waitForReadyRead(250);
    }
    readLines();
    if (parsing && process.bytesAvailable() > 0)
        parser.addLine(process.readAll()); // a last line without its line break
    if (timedOut)
        return unknown(where + QStringLiteral(": %1 did not finish within %2 minutes.")
                                   .arg(programName)
                                   .arg(kPartcloneTimeoutMs / 60000));
    if (parsing && (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)) {
        QString why = tail(logPath);
        if (why.isEmpty())
            why = tail(errPath);
        return unknown(where + QStringLiteral(": %1 could not map it (exit %2): %3")
                                   .arg(programName)
                                   .arg(process.exitCode())
                                   .arg(why));
    }
    QString parseError = outputError;
    auto used = outputError.isEmpty() ? parser.finish(&parseError) : std::nullopt;
    if (!used)
        return unknown(where + QStringLiteral(": ") + parseError + QLatin1Char('.'));

    // Besides what the map marks used: the start of the filesystem, btrfs's superblock copies,
    // and whatever lies past the end of the map (NTFS's backup boot sector, HFS+'s alternate
    // volume header, the bytes after the last whole block).
    const auto size = static_cast<std::uint64_t>(sizeBytes);
    used->push_back({0, std::min(kAlwaysCopied, size)});
    if (filesystem == QLatin1String("btrfs")) {
        for (const std::uint64_t copy : kBtrfsSuperblockCopies) {
            if (copy + kBtrfsSuperblockBytes <= size)
                used->push_back({copy, kBtrfsSuperblockBytes});
        }
    }
    if (parser.mappedBytes() < size)
        used->push_back({parser.mappedBytes(), size - parser.mappedBytes()});
    normalise(*used);
    return used;
}

} // namespace partwise
