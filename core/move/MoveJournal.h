#pragma once

#include "AlignedBuffer.h"
#include "BlockIo.h"
#include "MovePlan.h"
#include "MoveRequest.h"

#include <QString>

#include <cstdint>
#include <memory>

namespace partwise::move {

// The on-disk journal of one move, kept outside the range being moved (next to the image or
// in a state folder). Layout, every part 4096-aligned:
//   header   magic, then the request and the plan's identity as JSON, with a checksum
//   table    one checksum per chunk, taken from the source while copying, used by verify
//   slot 0/1 step records, alternating: record N goes to slot N % 2
// A step record says "every chunk before N is done and durable; chunk N is under way" and, for
// a chunk that overlaps its own source, carries that chunk's source data. Because the record
// for N+1 is only written once chunk N is durable, and it goes to the other slot, a torn write
// of any record still leaves the previous one intact: a crash can lose at most the step that
// was being recorded, which is then redone.
class MoveJournal
{
public:
    static constexpr std::uint64_t kRecordHeaderSize = 4096;

    // Sequence numbers past the chunks mark the end phases.
    std::uint64_t copyFinishedSequence() const { return m_chunkCount; }
    std::uint64_t verifiedSequence() const { return m_chunkCount + 1; }

    struct Record
    {
        bool valid = false;
        std::uint64_t sequence = 0;
        bool hasData = false;
        std::uint64_t dataLength = 0;
        std::uint64_t chunkChecksum = 0;
    };

    // Creates a new journal; fails if one already exists at `path` (an unfinished move).
    static std::unique_ptr<MoveJournal> create(const QString &path, const MoveRequest &request,
                                               const MovePlan &plan, std::uint64_t deviceSize,
                                               const BlockIoOpener &opener, QString *error);
    static std::unique_ptr<MoveJournal> open(const QString &path, const BlockIoOpener &opener,
                                             QString *error);
    static bool remove(const QString &path);

    // Where a move of `devicePath` keeps its journal unless told otherwise: next to an image
    // file, or in `stateDir` (default /var/lib/partwise/moves) for a block device, which must
    // not be the disk being moved.
    static QString defaultPath(const QString &devicePath, const QString &stateDir = QString());

    const QString &path() const { return m_path; }
    const MoveRequest &request() const { return m_request; }
    std::uint64_t planFingerprint() const { return m_planFingerprint; }
    std::uint64_t deviceSize() const { return m_deviceSize; }
    std::uint64_t chunkCount() const { return m_chunkCount; }

    // A buffer laid out as a record: kRecordHeaderSize bytes of header, then room for the
    // largest chunk. Reading a chunk's source straight into dataOf() lets a record be saved
    // with a single sequential write.
    AlignedBuffer makeRecordBuffer() const;
    static unsigned char *dataOf(const AlignedBuffer &buffer)
    {
        return buffer.data() + kRecordHeaderSize;
    }

    // Writes record `sequence` (with the chunk's data from `buffer` when dataLength > 0) and the
    // chunk's checksum into the table, then syncs. Returns 0 or an errno value.
    int writeRecord(std::uint64_t sequence, std::uint64_t chunkChecksum,
                    const AlignedBuffer &buffer, std::uint64_t dataLength);
    // The newest record whose checksums hold, with its data loaded into `buffer`.
    Record latestRecord(const AlignedBuffer &buffer, int *error);

    std::uint64_t chunkChecksum(std::uint64_t index) const;
    // Records a chunk's checksum on its own (when resume replays a chunk), synced.
    int storeChunkChecksum(std::uint64_t index, std::uint64_t checksum);

private:
    MoveJournal() = default;
    std::uint64_t slotOffset(std::uint64_t sequence) const;
    int writeTableEntry(std::uint64_t index, std::uint64_t checksum);
    Record readSlot(int slot, const AlignedBuffer &buffer, bool withData, int *error);
    int readTable();

    QString m_path;
    std::unique_ptr<BlockIo> m_io;
    MoveRequest m_request;
    std::uint64_t m_moveId = 0;
    std::uint64_t m_planFingerprint = 0;
    std::uint64_t m_deviceSize = 0;
    std::uint64_t m_chunkCount = 0;
    std::uint64_t m_largestChunk = 0;
    std::uint64_t m_headerSize = 0;
    std::uint64_t m_tableSize = 0;
    AlignedBuffer m_table;
};

} // namespace partwise::move
