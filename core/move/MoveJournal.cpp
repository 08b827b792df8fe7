#include "MoveJournal.h"

#include "Checksum.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace partwise::move {

// The fixed part of a step record, at the start of its 4096-byte header block.
struct JournalRecordHeader
{
    char magic[8];
    std::uint64_t moveId;
    std::uint64_t sequence;
    std::uint64_t flags;
    std::uint64_t dataLength;
    std::uint64_t chunkChecksum;
    std::uint64_t doneBefore;
    std::uint64_t scanEnd;        // 0, or the end of the window a window record covers
    std::uint64_t tableChecksum;  // of the table entries the record vouches for
    std::uint64_t headerChecksum; // over every field above
};
static_assert(sizeof(JournalRecordHeader) == 80, "record header must have no padding");

namespace {

constexpr char kHeaderMagic[8] = {'P', 'W', 'M', 'O', 'V', 'E', 'J', '1'};
constexpr char kRecordMagic[8] = {'P', 'W', 'M', 'V', 'R', 'E', 'C', '1'};
constexpr std::uint64_t kBlock = 4096;
constexpr std::uint64_t kFlagHasData = 1;
// 3: window records (scanEnd), which a version-2 reader would take for plain records.
// 4: records carry the checksum of the table entries they vouch for. Format 3 journals are
// refused: nothing in them protects the table, whose entries decide what a resume rewrites.
constexpr int kFormatVersion = 4;
constexpr std::uint64_t kTableSeed = 0x7461626C65ULL; // "table"

std::uint64_t roundUp(std::uint64_t value, std::uint64_t to)
{
    return (value + to - 1) / to * to;
}

std::uint64_t headerChecksumOf(const JournalRecordHeader &header)
{
    return checksum64(&header, offsetof(JournalRecordHeader, headerChecksum));
}

QString u64String(std::uint64_t value)
{
    return QString::number(value);
}

bool allZero(const unsigned char *data, std::uint64_t length)
{
    for (std::uint64_t i = 0; i < length; ++i)
        if (data[i] != 0)
            return false;
    return true;
}

// Reads the header's JSON strictly: every field present, of its type. 64-bit values are
// stored as strings (JSON numbers are doubles).
struct HeaderReader
{
    QJsonObject object;
    QString problem;

    std::uint64_t u64(const QString &key)
    {
        bool ok = false;
        const QJsonValue value = object.value(key);
        const std::uint64_t number = value.toString().toULongLong(&ok);
        if ((!value.isString() || !ok) && problem.isEmpty())
            problem = QStringLiteral("its header's \"%1\" is not a number").arg(key);
        return number;
    }
    std::uint64_t u64(const QJsonArray &pair, int index)
    {
        bool ok = false;
        const std::uint64_t number = pair.at(index).toString().toULongLong(&ok);
        if ((!pair.at(index).isString() || !ok) && problem.isEmpty())
            problem = QStringLiteral("its header's extents are not pairs of numbers");
        return number;
    }
};

const QStringList kHeaderKeys{
    QStringLiteral("chunkCount"),      QStringLiteral("chunkSize"),  QStringLiteral("destination"),
    QStringLiteral("device"),          QStringLiteral("deviceSize"), QStringLiteral("extents"),
    QStringLiteral("largestChunk"),    QStringLiteral("length"),     QStringLiteral("moveId"),
    QStringLiteral("planFingerprint"), QStringLiteral("source"),     QStringLiteral("verify"),
    QStringLiteral("version")};

QByteArray headerJson(const MoveRequest &request, const MovePlan &plan, std::uint64_t moveId,
                      std::uint64_t deviceSize)
{
    QJsonArray extents;
    for (const Extent &extent : request.extents)
        extents.append(QJsonArray{u64String(extent.offset), u64String(extent.length)});
    const QJsonObject object{
        {QStringLiteral("version"), kFormatVersion},
        {QStringLiteral("moveId"), u64String(moveId)},
        {QStringLiteral("device"), request.devicePath},
        {QStringLiteral("deviceSize"), u64String(deviceSize)},
        {QStringLiteral("source"), u64String(request.sourceOffset)},
        {QStringLiteral("destination"), u64String(request.destinationOffset)},
        {QStringLiteral("length"), u64String(request.length)},
        {QStringLiteral("chunkSize"), u64String(request.chunkSize)},
        {QStringLiteral("verify"), request.verify},
        {QStringLiteral("extents"), extents},
        {QStringLiteral("chunkCount"), u64String(plan.chunks.size())},
        {QStringLiteral("largestChunk"), u64String(plan.largestChunk)},
        {QStringLiteral("planFingerprint"), u64String(plan.fingerprint())},
    };
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

// A new file's name only survives a power cut once its directory is synced too.
void syncDirectoryOf(const QString &path)
{
    const QByteArray dir = QFile::encodeName(QFileInfo(path).absolutePath());
    const int fd = ::open(dir.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

QString MoveJournal::defaultPath(const QString &devicePath, const QString &stateDir)
{
    const QFileInfo info(devicePath);
    struct stat st;
    const bool blockDevice =
        ::stat(QFile::encodeName(devicePath).constData(), &st) == 0 && S_ISBLK(st.st_mode);
    if (!blockDevice)
        return info.absoluteFilePath() + QStringLiteral(".partwise-move");
    const QString dir = stateDir.isEmpty() ? QStringLiteral("/var/lib/partwise/moves") : stateDir;
    return dir + QLatin1Char('/') + info.fileName() + QStringLiteral(".partwise-move");
}

QString MoveJournal::placementProblem(const QString &devicePath, const QString &journalPath)
{
    struct stat device;
    struct stat journalDir;
    const QString dir = QFileInfo(journalPath).absolutePath();
    if (::stat(QFile::encodeName(devicePath).constData(), &device) != 0)
        return {};
    if (S_ISBLK(device.st_mode) && ::stat(QFile::encodeName(dir).constData(), &journalDir) == 0 &&
        journalDir.st_dev == device.st_rdev)
        return QStringLiteral("The journal %1 would be stored on %2, the device being moved. "
                              "Choose a journal path on another disk.")
            .arg(journalPath, devicePath);
    if (QFileInfo(journalPath).absoluteFilePath() == QFileInfo(devicePath).absoluteFilePath())
        return QStringLiteral("The journal cannot be the image being moved (%1).").arg(devicePath);
    return {};
}

std::unique_ptr<MoveJournal> MoveJournal::create(const QString &path, const MoveRequest &request,
                                                 const MovePlan &plan, std::uint64_t deviceSize,
                                                 const BlockIoOpener &opener, QString *error)
{
    std::unique_ptr<MoveJournal> journal(new MoveJournal);
    journal->m_path = path;
    journal->m_request = request;
    journal->m_moveId = QRandomGenerator::system()->generate64();
    journal->m_planFingerprint = plan.fingerprint();
    journal->m_deviceSize = deviceSize;
    journal->m_chunkCount = plan.chunks.size();
    journal->m_largestChunk = plan.largestChunk;

    const QByteArray json = headerJson(request, plan, journal->m_moveId, deviceSize);
    journal->m_headerSize = roundUp(24 + static_cast<std::uint64_t>(json.size()), kBlock);
    journal->m_tableSize = roundUp(std::max<std::uint64_t>(1, journal->m_chunkCount) * 8, kBlock);
    journal->m_table = AlignedBuffer(journal->m_tableSize);
    const std::uint64_t fileSize =
        journal->slotOffset(1) + kRecordHeaderSize + roundUp(plan.largestChunk, kBlock);

    if (QFileInfo::exists(path)) {
        *error = QStringLiteral("A journal already exists at %1: an earlier move was not "
                                "finished. Resume it first.")
                     .arg(path);
        return nullptr;
    }
    // Built under a temporary name and renamed once complete, so a journal found at `path`
    // always has a valid header, whenever the process died.
    QDir().mkpath(QFileInfo(path).absolutePath());
    const QString building = path + QStringLiteral(".new");
    const QByteArray name = QFile::encodeName(building);
    const int fd = ::open(name.constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = QStringLiteral("Cannot create the move journal %1: %2.")
                     .arg(building, QString::fromLocal8Bit(std::strerror(errno)));
        return nullptr;
    }
    // Reserve the space now, so a full disk stops the move before it starts, not halfway.
    const int allocated = ::posix_fallocate(fd, 0, static_cast<off_t>(fileSize));
    const int truncated = allocated == 0 ? 0 : (::ftruncate(fd, fileSize) == 0 ? 0 : errno);
    ::close(fd);
    if (allocated != 0 && (allocated != EOPNOTSUPP || truncated != 0)) {
        const int code = allocated != EOPNOTSUPP ? allocated : truncated;
        ::unlink(name.constData());
        *error = QStringLiteral("Cannot reserve %1 bytes for the move journal %2: %3.")
                     .arg(fileSize)
                     .arg(path, QString::fromLocal8Bit(std::strerror(code)));
        return nullptr;
    }

    int code = 0;
    journal->m_io = opener(building, BlockIo::Access::ReadWrite, &code);
    if (journal->m_io) {
        AlignedBuffer head(journal->m_headerSize);
        std::memcpy(head.data(), kHeaderMagic, 8);
        const std::uint64_t jsonLength = static_cast<std::uint64_t>(json.size());
        const std::uint64_t jsonChecksum = checksum64(json.constData(), json.size());
        std::memcpy(head.data() + 8, &jsonLength, 8);
        std::memcpy(head.data() + 16, &jsonChecksum, 8);
        std::memcpy(head.data() + 24, json.constData(), json.size());
        code = journal->m_io->writeAt(head.data(), head.size(), 0);
        if (code == 0)
            code = journal->m_io->writeAt(journal->m_table.data(), journal->m_tableSize,
                                          journal->m_headerSize);
        if (code == 0)
            code = journal->m_io->sync();
        if (code == 0 && ::rename(name.constData(), QFile::encodeName(path).constData()) != 0)
            code = errno;
        // Reopened under its final name, which is the one messages and tests know.
        if (code == 0)
            journal->m_io = opener(path, BlockIo::Access::ReadWrite, &code);
        if (code == 0 && !journal->m_io)
            code = EIO;
    }
    if (code != 0) {
        journal.reset();
        ::unlink(name.constData());
        *error = QStringLiteral("Cannot write the move journal %1: %2.")
                     .arg(path, QString::fromLocal8Bit(std::strerror(code)));
        return nullptr;
    }
    syncDirectoryOf(path);
    return journal;
}

std::unique_ptr<MoveJournal> MoveJournal::open(const QString &path, const BlockIoOpener &opener,
                                               QString *error)
{
    std::unique_ptr<MoveJournal> journal(new MoveJournal);
    journal->m_path = path;
    int code = 0;
    journal->m_io = opener(path, BlockIo::Access::ReadWrite, &code);
    if (!journal->m_io) {
        *error = QStringLiteral("Cannot open the move journal %1: %2.")
                     .arg(path, QString::fromLocal8Bit(std::strerror(code)));
        return nullptr;
    }
    auto refuse = [&](const QString &what) {
        *error = journal->damageMessage(what);
        return nullptr;
    };
    const std::uint64_t fileSize = journal->m_io->size();
    AlignedBuffer first(kBlock);
    code = fileSize < kBlock ? EIO : journal->m_io->readAt(first.data(), kBlock, 0);
    if (code != 0 && fileSize >= kBlock) {
        *error = QStringLiteral("Reading the move journal %1 failed: %2. Nothing was changed.")
                     .arg(path, QString::fromLocal8Bit(std::strerror(code)));
        return nullptr;
    }
    std::uint64_t jsonLength = 0;
    std::uint64_t jsonChecksum = 0;
    std::memcpy(&jsonLength, first.data() + 8, 8);
    std::memcpy(&jsonChecksum, first.data() + 16, 8);
    if (code != 0 || std::memcmp(first.data(), kHeaderMagic, 8) != 0)
        return refuse(QStringLiteral("it does not start like a Partwise move journal"));
    if (jsonLength > (256ULL << 20) || 24 + jsonLength > fileSize)
        return refuse(QStringLiteral("the length of its header is impossible"));
    journal->m_headerSize = roundUp(24 + jsonLength, kBlock);
    AlignedBuffer head(journal->m_headerSize);
    code = journal->m_io->readAt(head.data(), head.size(), 0);
    const char *jsonStart = reinterpret_cast<const char *>(head.data() + 24);
    if (code != 0 || checksum64(jsonStart, jsonLength) != jsonChecksum)
        return refuse(QStringLiteral("the checksum of its header does not match"));
    if (!allZero(head.data() + 24 + jsonLength, journal->m_headerSize - 24 - jsonLength))
        return refuse(QStringLiteral("the padding after its header is not zero"));
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray(jsonStart, static_cast<int>(jsonLength)));
    HeaderReader r{doc.object(), {}};
    const QJsonValue version = r.object.value(QStringLiteral("version"));
    if (!doc.isObject() || !version.isDouble())
        return refuse(QStringLiteral("its header is not a journal's JSON"));
    if (version.toInt() != kFormatVersion) {
        *error = QStringLiteral("The move journal %1 has format %2, and this version of Partwise "
                                "reads format %3. Nothing was changed; finish the move with the "
                                "version of Partwise that started it.")
                     .arg(path)
                     .arg(version.toInt())
                     .arg(kFormatVersion);
        return nullptr;
    }
    for (const QString &key : kHeaderKeys)
        if (!r.object.contains(key))
            return refuse(QStringLiteral("its header has no \"%1\"").arg(key));
    if (r.object.size() != kHeaderKeys.size())
        return refuse(QStringLiteral("its header has unknown fields"));
    MoveRequest request;
    request.devicePath = r.object.value(QStringLiteral("device")).toString();
    request.sourceOffset = r.u64(QStringLiteral("source"));
    request.destinationOffset = r.u64(QStringLiteral("destination"));
    request.length = r.u64(QStringLiteral("length"));
    request.chunkSize = r.u64(QStringLiteral("chunkSize"));
    request.verify = r.object.value(QStringLiteral("verify")).toBool();
    if (!r.object.value(QStringLiteral("verify")).isBool() ||
        !r.object.value(QStringLiteral("device")).isString() ||
        !r.object.value(QStringLiteral("extents")).isArray())
        return refuse(QStringLiteral("its header has a field of the wrong type"));
    for (const QJsonValue &value : r.object.value(QStringLiteral("extents")).toArray()) {
        const QJsonArray pair = value.toArray();
        if (pair.size() != 2)
            return refuse(QStringLiteral("its header's extents are not pairs of numbers"));
        request.extents.push_back({r.u64(pair, 0), r.u64(pair, 1)});
    }
    journal->m_moveId = r.u64(QStringLiteral("moveId"));
    journal->m_deviceSize = r.u64(QStringLiteral("deviceSize"));
    journal->m_chunkCount = r.u64(QStringLiteral("chunkCount"));
    journal->m_largestChunk = r.u64(QStringLiteral("largestChunk"));
    journal->m_planFingerprint = r.u64(QStringLiteral("planFingerprint"));
    if (!r.problem.isEmpty())
        return refuse(r.problem);
    if (const QString problem = request.validate(journal->m_deviceSize); !problem.isEmpty())
        return refuse(
            QStringLiteral("the move its header describes is impossible (%1)").arg(problem));
    if (journal->m_chunkCount == 0 || journal->m_chunkCount > request.length ||
        journal->m_largestChunk == 0 || journal->m_largestChunk > request.chunkSize)
        return refuse(QStringLiteral("its header's chunk numbers are impossible"));
    journal->m_tableSize = roundUp(journal->m_chunkCount * 8, kBlock);
    const std::uint64_t expected =
        journal->slotOffset(1) + kRecordHeaderSize + roundUp(journal->m_largestChunk, kBlock);
    if (fileSize != expected)
        return refuse(
            QStringLiteral("it is %1 bytes long instead of %2").arg(fileSize).arg(expected));
    // From here on, messages can say which move this was.
    journal->m_request = request;
    journal->m_table = AlignedBuffer(journal->m_tableSize);
    if ((code = journal->readTable()) != 0) {
        *error = QStringLiteral("Reading the move journal %1 failed: %2. Nothing was changed.")
                     .arg(path, QString::fromLocal8Bit(std::strerror(code)));
        return nullptr;
    }
    return journal;
}

QString MoveJournal::damageMessage(const QString &what) const
{
    const MoveRequest &r = m_request;
    QString text = QStringLiteral("The move journal %1 cannot be trusted: %2. Resuming from it "
                                  "could write wrong data, so nothing was written.")
                       .arg(m_path, what);
    if (!r.devicePath.isEmpty())
        text += QStringLiteral(" The move of %1 bytes from byte %2 to byte %3 of %4 was "
                               "interrupted: part of that data may be at its destination and "
                               "part at its source.")
                    .arg(r.length)
                    .arg(r.sourceOffset)
                    .arg(r.destinationOffset)
                    .arg(r.devicePath);
    return text + QStringLiteral(" Keep the journal (its records may hold the only copy of a "
                                 "piece of it) and recover the data from a backup, or with a "
                                 "data-recovery tool working on a copy of the disk.");
}

bool MoveJournal::remove(const QString &path)
{
    const bool removed = ::unlink(QFile::encodeName(path).constData()) == 0;
    if (removed)
        syncDirectoryOf(path);
    return removed;
}

AlignedBuffer MoveJournal::makeRecordBuffer() const
{
    return AlignedBuffer(kRecordHeaderSize +
                         roundUp(std::max<std::uint64_t>(m_largestChunk, 1), kBlock));
}

std::uint64_t MoveJournal::slotOffset(int slot) const
{
    const std::uint64_t slotSize = kRecordHeaderSize + roundUp(m_largestChunk, kBlock);
    return m_headerSize + m_tableSize + static_cast<std::uint64_t>(slot) * slotSize;
}

int MoveJournal::readTable()
{
    return m_io->readAt(m_table.data(), m_tableSize, m_headerSize);
}

std::uint64_t MoveJournal::tablePrefixChecksum(std::uint64_t entries)
{
    if (entries < m_prefixEntries || m_prefixEntries == 0) {
        m_prefixEntries = 0;
        m_prefixChecksum = kTableSeed;
    }
    for (; m_prefixEntries < entries; ++m_prefixEntries)
        m_prefixChecksum = checksum64(m_table.data() + m_prefixEntries * 8, 8, m_prefixChecksum);
    return m_prefixChecksum;
}

void MoveJournal::tableChanged(std::uint64_t first)
{
    if (first < m_prefixEntries)
        m_prefixEntries = 0;
}

std::uint64_t MoveJournal::entriesVouchedFor(std::uint64_t sequence, std::uint64_t scanEnd) const
{
    // A step record's own entry is written with it, unsynced: only the ones before it count.
    return scanEnd != 0 ? scanEnd : std::min(sequence, m_chunkCount);
}

int MoveJournal::writeTableEntry(std::uint64_t index, std::uint64_t checksum)
{
    tableChanged(index);
    std::memcpy(m_table.data() + index * 8, &checksum, 8);
    // Only the block holding the entry is rewritten: O_DIRECT needs whole aligned blocks.
    const std::uint64_t block = index * 8 / kBlock * kBlock;
    return m_io->writeAt(m_table.data() + block, kBlock, m_headerSize + block);
}

std::uint64_t MoveJournal::chunkChecksum(std::uint64_t index) const
{
    std::uint64_t checksum = 0;
    if (index < m_chunkCount)
        std::memcpy(&checksum, m_table.data() + index * 8, 8);
    return checksum;
}

int MoveJournal::storeChunkChecksum(std::uint64_t index, std::uint64_t checksum)
{
    if (const int code = writeTableEntry(index, checksum))
        return code;
    m_tablePending = false;
    return m_io->sync();
}

int MoveJournal::setChunkChecksum(std::uint64_t index, std::uint64_t checksum)
{
    m_tablePending = true;
    return writeTableEntry(index, checksum);
}

int MoveJournal::setChunkChecksums(std::uint64_t first, const std::vector<std::uint64_t> &checksums)
{
    if (checksums.empty())
        return 0;
    m_tablePending = true;
    tableChanged(first);
    std::memcpy(m_table.data() + first * 8, checksums.data(), checksums.size() * 8);
    // The whole blocks holding the entries, in one write.
    const std::uint64_t begin = first * 8 / kBlock * kBlock;
    const std::uint64_t end = roundUp((first + checksums.size()) * 8, kBlock);
    return m_io->writeAt(m_table.data() + begin, end - begin, m_headerSize + begin);
}

int MoveJournal::writeRecord(std::uint64_t sequence, std::uint64_t chunkChecksum,
                             const AlignedBuffer &buffer, std::uint64_t dataLength,
                             bool previousUnderWay)
{
    // A record vouches for every chunk before it, so their checksums must be durable first.
    if (const int code = syncPendingTable())
        return code;
    if (sequence < m_chunkCount) {
        if (const int code = writeTableEntry(sequence, chunkChecksum))
            return code;
    }
    JournalRecordHeader header{};
    header.sequence = sequence;
    header.flags = dataLength > 0 ? kFlagHasData : 0;
    header.dataLength = dataLength;
    header.chunkChecksum = chunkChecksum;
    header.doneBefore = previousUnderWay && sequence > 0 ? sequence - 1 : sequence;
    header.tableChecksum = tablePrefixChecksum(entriesVouchedFor(sequence, 0));
    return writeSlot(header, buffer);
}

int MoveJournal::writeWindowRecord(std::uint64_t first, std::uint64_t end,
                                   const AlignedBuffer &buffer)
{
    // The window's checksums are what a resume compares its destinations with.
    if (const int code = syncPendingTable())
        return code;
    JournalRecordHeader header{};
    header.sequence = first;
    header.doneBefore = first;
    header.scanEnd = end;
    header.tableChecksum = tablePrefixChecksum(entriesVouchedFor(first, end));
    return writeSlot(header, buffer);
}

int MoveJournal::syncPendingTable()
{
    if (!m_tablePending)
        return 0;
    if (const int code = m_io->sync())
        return code;
    m_tablePending = false;
    return 0;
}

int MoveJournal::writeSlot(JournalRecordHeader &header, const AlignedBuffer &buffer)
{
    std::memcpy(header.magic, kRecordMagic, 8);
    header.moveId = m_moveId;
    header.headerChecksum = headerChecksumOf(header);
    std::memset(buffer.data(), 0, kRecordHeaderSize);
    std::memcpy(buffer.data(), &header, sizeof header);
    // Header and data in one sequential write; the tail of the last block is padding.
    const std::uint64_t bytes = kRecordHeaderSize + roundUp(header.dataLength, kBlock);
    const int slot = m_nextSlot;
    if (const int code = m_io->writeAt(buffer.data(), bytes, slotOffset(slot)))
        return code;
    if (const int code = m_io->sync())
        return code;
    m_nextSlot = 1 - slot;
    return 0;
}

MoveJournal::Record MoveJournal::readSlot(int slot, const AlignedBuffer &buffer, bool withData,
                                          int *error, QString *damage)
{
    Record record;
    const std::uint64_t offset = slotOffset(slot);
    if ((*error = m_io->readAt(buffer.data(), kRecordHeaderSize, offset)) != 0)
        return record;
    if (allZero(buffer.data(), kRecordHeaderSize))
        return record; // never written
    auto bad = [&](const char *why) {
        if (damage)
            *damage = QStringLiteral("record slot %1 (at byte %2) %3")
                          .arg(slot)
                          .arg(offset)
                          .arg(QLatin1String(why));
        return record;
    };
    JournalRecordHeader header;
    std::memcpy(&header, buffer.data(), sizeof header);
    if (std::memcmp(header.magic, kRecordMagic, 8) != 0)
        return bad("does not start like a record");
    if (header.moveId != m_moveId)
        return bad("names another move");
    if (header.headerChecksum != headerChecksumOf(header))
        return bad("has a header whose checksum does not match");
    if (!allZero(buffer.data() + sizeof header, kRecordHeaderSize - sizeof header))
        return bad("has bytes after its header that should be zero");
    const bool hasData = (header.flags & kFlagHasData) != 0;
    const bool endPhase = header.sequence >= m_chunkCount;
    if (header.sequence > verifiedSequence() || (header.flags & ~kFlagHasData) != 0 ||
        hasData != (header.dataLength > 0) || header.dataLength > m_largestChunk ||
        (hasData && endPhase) || header.doneBefore > header.sequence ||
        header.doneBefore + 1 < header.sequence ||
        (endPhase && header.doneBefore != header.sequence) ||
        (header.scanEnd != 0 &&
         (header.scanEnd <= header.sequence || header.scanEnd > m_chunkCount ||
          header.doneBefore != header.sequence || header.flags != 0)))
        return bad("holds an impossible record");
    record.sequence = header.sequence;
    record.hasData = hasData;
    record.dataLength = header.dataLength;
    record.chunkChecksum = header.chunkChecksum;
    record.doneBefore = header.doneBefore;
    record.scanEnd = header.scanEnd;
    record.tableChecksum = header.tableChecksum;
    if (record.hasData && withData) {
        const std::uint64_t bytes = roundUp(header.dataLength, kBlock);
        if ((*error = m_io->readAt(buffer.data() + kRecordHeaderSize, bytes,
                                   offset + kRecordHeaderSize)) != 0)
            return record;
        // A torn write, or damage: either way the header still holds, its data does not.
        record.dataLost = checksum64(buffer.data() + kRecordHeaderSize, header.dataLength) !=
                          header.chunkChecksum;
    }
    record.valid = true;
    return record;
}

MoveJournal::Record MoveJournal::latestRecord(const AlignedBuffer &buffer, int *error,
                                              QString *damage)
{
    // Both headers are checked, then the newer record's data and the table it vouches for.
    Record found[2];
    for (int slot = 0; slot < 2; ++slot) {
        found[slot] = readSlot(slot, buffer, false, error, damage);
        if (*error != 0 || !damage->isEmpty())
            return {};
    }
    if (found[0].valid && found[1].valid && found[0].sequence == found[1].sequence) {
        *damage = QStringLiteral("both record slots hold record %1").arg(found[0].sequence);
        return {};
    }
    if (!found[0].valid && !found[1].valid) {
        m_nextSlot = 0; // killed before the first record
        return {};
    }
    const int slot =
        !found[0].valid || (found[1].valid && found[1].sequence > found[0].sequence) ? 1 : 0;
    const Record record = readSlot(slot, buffer, true, error, damage);
    if (*error != 0 || !damage->isEmpty())
        return {};
    const std::uint64_t entries = entriesVouchedFor(record.sequence, record.scanEnd);
    if (tablePrefixChecksum(entries) != record.tableChecksum) {
        *damage = QStringLiteral("its table of chunk checksums (the first %1 entries) does not "
                                 "match the checksum in its newest record")
                      .arg(entries);
        return {};
    }
    m_nextSlot = 1 - slot; // the newest record must survive the next write
    return record;
}

MoveJournal::Record MoveJournal::previousRecord(const AlignedBuffer &buffer, int *error)
{
    return readSlot(m_nextSlot, buffer, true, error);
}

} // namespace partwise::move
