#pragma once

#include "alignedbuffer.h"
#include "blockio.h"
#include "journalheader.h"
#include "moveplan.h"
#include "moverequest.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace partwise::move {

struct JournalRecordHeader; // the fixed part of a record on disk (movejournal.cpp)

// The on-disk journal of one move, kept outside the range being moved (next to the image or
// in a state folder). Layout, every part 4096-aligned:
//   header   magic, then the request and the plan's identity as JSON, with a checksum
//            (journalheader.h)
//   table    one checksum per chunk, taken from the source while copying, used by verify
//   slot 0/1 step records, alternating: each record goes to the slot the previous one did not
// A step record N says "every chunk before N is done and durable; chunks from N on may be under
// way, and their sources are intact" and, for a chunk N that overlaps its own source, carries
// that chunk's source data. A window record N..E (for chunks cut to the shift, each of which
// overwrites the source of the one before) says instead "chunks N..E-1 have their checksums in
// the table and may be under way, each durable before the next one overwrote its source": a
// resume keeps the ones whose destinations match and copies the others again, their sources
// being intact. A window record carrying data (the journal-window way) holds the sources of
// chunks N..E-1 instead, written to their destinations without a flush between them: a resume
// writes the whole window again from the record. Step records are written only where the next
// destination write would overwrite the source of a chunk not yet recorded done (every chunk of a
// small shift, far fewer when chunks do not overlap), window records once per window; both after
// syncing the device. Because each record goes to the other slot than the last, a torn write of a
// record still leaves the previous one intact: a crash can lose at most the steps since the
// previous record, which are redone from their intact sources.
//
// Protection against the journal's own corruption (format 4 on; the checksums are XXH3 from
// format 5, see checksum.h): the header's JSON has a checksum and its padding must be zero;
// each record header has a checksum, and also the checksum of the table entries it vouches for
// (every chunk before it, or before its window's end), which are durable before the record is
// written; a record's data has the chunk's checksum. A record slot
// is either all zero (never written) or a whole valid header: a torn write leaves one or the
// other, as the 80-byte header lies in one sector, so anything else is damage and resume refuses
// before its first write. A record whose data does not match (a torn write, or damage) is used
// without its data: the chunk is then taken from its destination or source, whichever matches
// the checksum in the record header, or resume refuses.
class MoveJournal
{
public:
    static constexpr std::uint64_t kRecordHeaderSize = 4096;

    // Sequence numbers past the chunks mark the end phases.
    std::uint64_t copyFinishedSequence() const { return m_header.chunkCount; }
    std::uint64_t verifiedSequence() const { return m_header.chunkCount + 1; }

    struct Record
    {
        bool valid = false;
        std::uint64_t sequence = 0;
        bool hasData = false;
        std::uint64_t dataLength = 0;
        std::uint64_t chunkChecksum = 0;
        // Every chunk before this one is durable: `sequence`, or `sequence - 1` for a record
        // written while the previous chunk was still being written (see writeRecord).
        std::uint64_t doneBefore = 0;
        // A window record: chunks sequence..scanEnd-1 are checked against the table. 0 if not.
        std::uint64_t scanEnd = 0;
        // hasData, but the data does not match chunkChecksum (a torn write, or damage): the
        // chunk must come from where its checksum is found on the device.
        bool dataLost = false;
        std::uint64_t tableChecksum = 0; // of the entries the record vouches for
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
    static QString defaultStateFolder();
    // Creates the folder a journal goes into; the default state folder is made root's alone.
    static bool makeFolderFor(const QString &journalPath);
    // Why `journalPath` cannot hold the journal of a move on `devicePath` (it would be written
    // into the range being moved: on that device, or the image itself), or empty.
    static QString placementProblem(const QString &devicePath, const QString &journalPath);

    const QString &path() const { return m_path; }
    const MoveRequest &request() const { return m_header.request; }
    std::uint64_t planFingerprint() const { return m_header.planFingerprint; }
    std::uint64_t deviceSize() const { return m_header.deviceSize; }
    std::uint64_t chunkCount() const { return m_header.chunkCount; }

    // How much data one record of `plan` may hold (JournalHeader::recordData).
    static std::uint64_t recordDataFor(const MoveRequest &request, const MovePlan &plan);
    std::uint64_t recordData() const { return m_header.recordData; }

    // A buffer laid out as a record: kRecordHeaderSize bytes of header, then room for the
    // most data a record holds (the largest chunk, or a window). Reading a chunk's source straight
    // into dataOf() lets a record be saved with a single sequential write.
    AlignedBuffer makeRecordBuffer() const;
    static unsigned char *dataOf(const AlignedBuffer &buffer)
    {
        return buffer.data() + kRecordHeaderSize;
    }

    // Writes record `sequence` (with the chunk's data from `buffer` when dataLength > 0) and the
    // chunk's checksum into the table, then syncs. Checksums stored by setChunkChecksum() are
    // made durable before the record is written. Returns 0 or an errno value.
    // `previousUnderWay` marks a record written while chunk `sequence - 1` is still being
    // written; that chunk must have its own record, the newest before this one, so a resume
    // finds it in the other slot (or, once that slot is reused, knows the chunk is durable).
    int writeRecord(std::uint64_t sequence, std::uint64_t chunkChecksum,
                    const AlignedBuffer &buffer, std::uint64_t dataLength,
                    bool previousUnderWay = false);
    // Writes a window record for chunks first..end-1, whose checksums must have been set, then
    // syncs. With `dataLength` > 0 it carries the window's sources from `buffer` (their checksum
    // `dataChecksum`), as the journal-window way writes them. Returns 0 or an errno value.
    int writeWindowRecord(std::uint64_t first, std::uint64_t end, const AlignedBuffer &buffer,
                          std::uint64_t dataLength = 0, std::uint64_t dataChecksum = 0);
    // The newest record, with its data loaded into `buffer` (or dataLost). Before returning it,
    // checks both record slots and the table entries the record vouches for: when anything is
    // damaged, `damage` says what (and the record is not valid).
    Record latestRecord(const AlignedBuffer &buffer, int *error, QString *damage);
    // After latestRecord(): writes `record` again in its own slot, with its data from `buffer`
    // (read from the chunk's source, as its copy was lost), marked as the only chunk under way;
    // then syncs. Returns 0 or an errno value.
    int rewriteLatestRecord(const Record &record, const AlignedBuffer &buffer);
    // After latestRecord(): the record in the other slot, with its data, if it is valid.
    Record previousRecord(const AlignedBuffer &buffer, int *error);

    // The message for a journal that cannot be trusted: `what` is wrong with it; the rest says
    // that nothing was written and what the journal still tells about the interrupted move.
    QString damageMessage(const QString &what) const;

    std::uint64_t chunkChecksum(std::uint64_t index) const;
    // Records a chunk's checksum on its own (when resume replays a chunk), synced.
    int storeChunkChecksum(std::uint64_t index, std::uint64_t checksum);
    // Records a chunk's checksum without syncing; the next writeRecord() makes it durable first.
    int setChunkChecksum(std::uint64_t index, std::uint64_t checksum);
    // The same for consecutive chunks from `first`, in one write.
    int setChunkChecksums(std::uint64_t first, const std::vector<std::uint64_t> &checksums);

private:
    MoveJournal() = default;
    std::uint64_t slotOffset(int slot) const;
    int writeTableEntry(std::uint64_t index, std::uint64_t checksum);
    int syncPendingTable();
    // Completes `header` (magic, move, checksum) and writes it, with its data from `buffer`, to
    // the slot after the newest record; then syncs.
    int writeSlot(JournalRecordHeader &header, const AlignedBuffer &buffer);
    int writeSlotAt(int slot, JournalRecordHeader &header, const AlignedBuffer &buffer);
    // A slot never written is not valid and leaves `damage` empty; a damaged one sets it.
    Record readSlot(int slot, const AlignedBuffer &buffer, bool withData, int *error,
                    QString *damage = nullptr);
    int readTable();
    // The checksum of table entries [0, entries), chained entry by entry so that records, which
    // vouch for ever more entries, extend it instead of recomputing it.
    std::uint64_t tablePrefixChecksum(std::uint64_t entries);
    void tableChanged(std::uint64_t first);
    // The entries a record vouches for: every chunk before it, before its window's end, or all.
    std::uint64_t entriesVouchedFor(std::uint64_t sequence, std::uint64_t scanEnd) const;

    QString m_path;
    std::unique_ptr<BlockIo> m_io;
    // Set once the header and the file size check out: until then damageMessage() names no move.
    JournalHeader m_header;
    std::uint64_t m_headerSize = 0;
    std::uint64_t m_tableSize = 0;
    AlignedBuffer m_table;
    bool m_tablePending = false;       // table entries written since the last sync
    int m_nextSlot = 0;                // where the next record goes: never over the newest one
    std::uint64_t m_prefixEntries = 0; // tablePrefixChecksum()'s cache
    std::uint64_t m_prefixChecksum = 0;
};

} // namespace partwise::move
