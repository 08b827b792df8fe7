#include "movejournal.h"

#include "base/atomicfile.h"
#include "base/nofollowfile.h"
#include "checksum.h"
#include "journallayout.h"
#include "overlapchooser.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
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

constexpr char kRecordMagic[8] = {'P', 'W', 'M', 'V', 'R', 'E', 'C', '1'};
constexpr std::uint64_t kFlagHasData = 1;
constexpr std::uint64_t kTableSeed = 0x7461626C65ULL; // "table"

std::uint64_t headerChecksumOf(const JournalRecordHeader &header)
{
    return checksum64(&header, offsetof(JournalRecordHeader, headerChecksum));
}

// A record slot holds a record header block and room for the most data a record holds.
std::uint64_t slotSize(std::uint64_t recordData)
{
    return MoveJournal::kRecordHeaderSize + roundUpToBlock(recordData);
}

// Header, table, then the two record slots.
std::uint64_t journalFileSize(std::uint64_t headerSize, std::uint64_t tableSize,
                              std::uint64_t recordData)
{
    return headerSize + tableSize + 2 * slotSize(recordData);
}

} // namespace

QString MoveJournal::defaultStateFolder()
{
    return QStringLiteral("/var/lib/partwise/moves");
}

bool MoveJournal::makeFolderFor(const QString &journalPath)
{
    // Root's own journals live in root's own folder, which no one else may read or change.
    const QString folder = QFileInfo(journalPath).absolutePath();
    QString why;
    if (folder == defaultStateFolder())
        return makePrivateFolder(folder, &why);
    return QDir().mkpath(folder);
}

QString MoveJournal::defaultPath(const QString &devicePath, const QString &stateDir)
{
    const QFileInfo info(devicePath);
    struct stat st;
    const bool blockDevice =
        ::stat(QFile::encodeName(devicePath).constData(), &st) == 0 && S_ISBLK(st.st_mode);
    if (!blockDevice)
        return info.absoluteFilePath() + QStringLiteral(".partwise-move");
    const QString dir = stateDir.isEmpty() ? defaultStateFolder() : stateDir;
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
    journal->m_header.request = request;
    journal->m_header.moveId = QRandomGenerator::system()->generate64();
    journal->m_header.deviceSize = deviceSize;
    journal->m_header.chunkCount = plan.chunks.size();
    journal->m_header.largestChunk = plan.largestChunk;
    journal->m_header.recordData = recordDataFor(request, plan);
    journal->m_header.planFingerprint = plan.fingerprint();
    const QByteArray headerBytes = journalHeaderBytes(journal->m_header);
    journal->m_headerSize = static_cast<std::uint64_t>(headerBytes.size());
    journal->m_tableSize = roundUpToBlock(std::max<std::uint64_t>(1, plan.chunks.size()) * 8);
    journal->m_table = AlignedBuffer(journal->m_tableSize);
    const std::uint64_t fileSize =
        journalFileSize(journal->m_headerSize, journal->m_tableSize, journal->m_header.recordData);

    if (QFileInfo::exists(path)) {
        *error = QStringLiteral("A journal already exists at %1: an earlier move was not "
                                "finished. Resume it first.")
                     .arg(path);
        return nullptr;
    }
    // Built under a temporary name and renamed once complete, so a journal found at `path`
    // always has a valid header, whenever the process died.
    if (!makeFolderFor(path)) {
        *error = QStringLiteral("Cannot create a safe folder for the move journal %1.").arg(path);
        return nullptr;
    }
    const QString building = path + QStringLiteral(".new");
    const QByteArray name = QFile::encodeName(building);
    const int fd = createFileExclusively(building, O_RDWR);
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
        std::memcpy(head.data(), headerBytes.constData(), headerBytes.size());
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
    syncFolderOf(path); // the file's new name survives a power cut only with its folder
    return journal;
}

std::unique_ptr<MoveJournal> MoveJournal::open(const QString &path, const BlockIoOpener &opener,
                                               QString *error)
{
    std::unique_ptr<MoveJournal> journal(new MoveJournal);
    journal->m_path = path;
    // Only a journal Partwise wrote is read: a regular file, never a link to another file.
    struct stat st;
    const bool found = ::lstat(QFile::encodeName(path).constData(), &st) == 0;
    if (found && !S_ISREG(st.st_mode)) {
        *error = QStringLiteral("The move journal %1 is not a regular file (a link, a device or "
                                "a pipe), so it was not read. Nothing was changed.")
                     .arg(path);
        return nullptr;
    }
    // Nor one another user could have put there (beside an image in a shared folder): its saved
    // chunks would be written to the disk.
    if (found && st.st_uid != ::geteuid() && st.st_uid != 0) {
        *error = QStringLiteral("The move journal %1 belongs to another user (uid %2), so it was "
                                "not read. Nothing was changed.")
                     .arg(path)
                     .arg(st.st_uid);
        return nullptr;
    }
    int code = 0;
    journal->m_io = opener(path, BlockIo::Access::ReadWrite, &code);
    if (!journal->m_io) {
        *error = QStringLiteral("Cannot open the move journal %1: %2.")
                     .arg(path, QString::fromLocal8Bit(std::strerror(code)));
        return nullptr;
    }
    auto readFailed = [&](int errorCode) {
        *error = QStringLiteral("Reading the move journal %1 failed: %2. Nothing was changed.")
                     .arg(path, QString::fromLocal8Bit(std::strerror(errorCode)));
        return nullptr;
    };
    auto refuse = [&](const QString &what) {
        *error = journal->damageMessage(what);
        return nullptr;
    };
    const std::uint64_t fileSize = journal->m_io->size();
    const JournalHeaderRead read = readJournalHeader(*journal->m_io, fileSize);
    switch (read.status) {
    case JournalHeaderRead::Status::Unreadable:
        return readFailed(read.readError);
    case JournalHeaderRead::Status::Damaged:
        return refuse(read.damage);
    case JournalHeaderRead::Status::OtherFormat:
        *error = QStringLiteral("The move journal %1 has format %2, and this version of Partwise "
                                "reads format %3.")
                     .arg(path)
                     .arg(read.format)
                     .arg(JournalHeader::kFormatVersion);
        if (read.format < 5)
            *error += QStringLiteral(" Journals before format 5 carry checksums of a hash this "
                                     "version no longer computes, so it cannot check them.");
        *error += QStringLiteral(" Nothing was changed; finish the move with the version of "
                                 "Partwise that started it.");
        return nullptr;
    case JournalHeaderRead::Status::Sound:
        break;
    }
    journal->m_headerSize = read.size;
    // The chunk count comes from the file: a table size that does not fit is damage, not a
    // number to wrap around.
    std::uint64_t tableBytes = 0;
    std::optional<std::uint64_t> tableSize;
    if (!__builtin_mul_overflow(read.header.chunkCount, std::uint64_t(8), &tableBytes))
        tableSize = checkedRoundUp(tableBytes, kJournalBlock);
    if (!tableSize)
        return refuse(QStringLiteral("it claims %1 chunks, more than any file can hold a table for")
                          .arg(read.header.chunkCount));
    journal->m_tableSize = *tableSize;
    const std::uint64_t expected =
        journalFileSize(journal->m_headerSize, journal->m_tableSize, read.header.recordData);
    if (fileSize != expected)
        return refuse(
            QStringLiteral("it is %1 bytes long instead of %2").arg(fileSize).arg(expected));
    // From here on, messages can say which move this was.
    journal->m_header = read.header;
    journal->m_table = AlignedBuffer(journal->m_tableSize);
    if ((code = journal->readTable()) != 0)
        return readFailed(code);
    return journal;
}

QString MoveJournal::damageMessage(const QString &what) const
{
    const MoveRequest &r = m_header.request;
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
        syncFolderOf(path); // a removal, too, is on the disk only once its folder is
    return removed;
}

std::uint64_t MoveJournal::recordDataFor(const MoveRequest &request, const MovePlan &plan)
{
    // Room for a window's sources only where a window may be journaled: never in a move too
    // short to be timed, and no more than the move holds.
    const std::uint64_t window = windowBytesOf(request, plan);
    const std::uint64_t windows = (plan.bytesToCopy + window - 1) / window;
    const bool mayJournal = plan.cutToShift && (request.overlapWay == OverlapWay::JournalWindow ||
                                                (request.overlapWay == OverlapWay::Measure &&
                                                 windows >= OverlapChooser::kMinWindowsToMeasure));
    return mayJournal ? std::min(window, plan.bytesToCopy) : plan.largestChunk;
}

AlignedBuffer MoveJournal::makeRecordBuffer() const
{
    return AlignedBuffer(kRecordHeaderSize +
                         roundUpToBlock(std::max<std::uint64_t>(m_header.recordData, 1)));
}

std::uint64_t MoveJournal::slotOffset(int slot) const
{
    return m_headerSize + m_tableSize +
           static_cast<std::uint64_t>(slot) * slotSize(m_header.recordData);
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
    return scanEnd != 0 ? scanEnd : std::min(sequence, m_header.chunkCount);
}

int MoveJournal::writeTableEntry(std::uint64_t index, std::uint64_t checksum)
{
    tableChanged(index);
    std::memcpy(m_table.data() + index * 8, &checksum, 8);
    // Only the block holding the entry is rewritten: O_DIRECT needs whole aligned blocks.
    const std::uint64_t block = roundDown(index * 8, kJournalBlock);
    return m_io->writeAt(m_table.data() + block, kJournalBlock, m_headerSize + block);
}

std::uint64_t MoveJournal::chunkChecksum(std::uint64_t index) const
{
    std::uint64_t checksum = 0;
    if (index < m_header.chunkCount)
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
    const std::uint64_t begin = roundDown(first * 8, kJournalBlock);
    const std::uint64_t end = roundUpToBlock((first + checksums.size()) * 8);
    return m_io->writeAt(m_table.data() + begin, end - begin, m_headerSize + begin);
}

int MoveJournal::writeRecord(std::uint64_t sequence, std::uint64_t chunkChecksum,
                             const AlignedBuffer &buffer, std::uint64_t dataLength,
                             bool previousUnderWay)
{
    // A record vouches for every chunk before it, so their checksums must be durable first.
    if (const int code = syncPendingTable())
        return code;
    if (sequence < m_header.chunkCount) {
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
                                   const AlignedBuffer &buffer, std::uint64_t dataLength,
                                   std::uint64_t dataChecksum)
{
    // The window's checksums are what a resume compares its destinations with.
    if (const int code = syncPendingTable())
        return code;
    JournalRecordHeader header{};
    header.sequence = first;
    header.doneBefore = first;
    header.scanEnd = end;
    header.flags = dataLength > 0 ? kFlagHasData : 0;
    header.dataLength = dataLength;
    header.chunkChecksum = dataChecksum;
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
    const int slot = m_nextSlot;
    if (const int code = writeSlotAt(slot, header, buffer))
        return code;
    m_nextSlot = 1 - slot;
    return 0;
}

int MoveJournal::rewriteLatestRecord(const Record &record, const AlignedBuffer &buffer)
{
    // Its own slot, not the other one: the other may hold the record of the chunk before it, and
    // two slots with one sequence would make the journal ambiguous. A rewrite torn again leaves
    // the same header (it is written whole) with its data lost, as before.
    JournalRecordHeader header{};
    header.sequence = record.sequence;
    header.flags = kFlagHasData;
    header.dataLength = record.dataLength;
    header.chunkChecksum = record.chunkChecksum;
    header.doneBefore = record.sequence;
    header.tableChecksum = record.tableChecksum;
    return writeSlotAt(1 - m_nextSlot, header, buffer);
}

int MoveJournal::writeSlotAt(int slot, JournalRecordHeader &header, const AlignedBuffer &buffer)
{
    std::memcpy(header.magic, kRecordMagic, 8);
    header.moveId = m_header.moveId;
    header.headerChecksum = headerChecksumOf(header);
    std::memset(buffer.data(), 0, kRecordHeaderSize);
    std::memcpy(buffer.data(), &header, sizeof header);
    // Header and data in one sequential write; the tail of the last block is padding.
    const std::uint64_t bytes = kRecordHeaderSize + roundUpToBlock(header.dataLength);
    if (const int code = m_io->writeAt(buffer.data(), bytes, slotOffset(slot)))
        return code;
    return m_io->sync();
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
    if (header.moveId != m_header.moveId)
        return bad("names another move");
    if (header.headerChecksum != headerChecksumOf(header))
        return bad("has a header whose checksum does not match");
    if (!allZero(buffer.data() + sizeof header, kRecordHeaderSize - sizeof header))
        return bad("has bytes after its header that should be zero");
    const bool hasData = (header.flags & kFlagHasData) != 0;
    const bool endPhase = header.sequence >= m_header.chunkCount;
    if (header.sequence > verifiedSequence() || (header.flags & ~kFlagHasData) != 0 ||
        hasData != (header.dataLength > 0) || header.dataLength > m_header.recordData ||
        (header.scanEnd == 0 && header.dataLength > m_header.largestChunk) ||
        (hasData && endPhase) || header.doneBefore > header.sequence ||
        header.doneBefore + 1 < header.sequence ||
        (endPhase && header.doneBefore != header.sequence) ||
        (header.scanEnd != 0 &&
         (header.scanEnd <= header.sequence || header.scanEnd > m_header.chunkCount ||
          header.doneBefore != header.sequence)))
        return bad("holds an impossible record");
    record.sequence = header.sequence;
    record.hasData = hasData;
    record.dataLength = header.dataLength;
    record.chunkChecksum = header.chunkChecksum;
    record.doneBefore = header.doneBefore;
    record.scanEnd = header.scanEnd;
    record.tableChecksum = header.tableChecksum;
    if (record.hasData && withData) {
        const std::uint64_t bytes = roundUpToBlock(header.dataLength);
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
