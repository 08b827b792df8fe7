#pragma once

#include "blockio.h"
#include "moverequest.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

namespace partwise::move {

// The first part of a move journal: which move it records. On disk: the magic "PWMOVEJ2", the
// length and the checksum of the JSON that follows (8 bytes each), the JSON, then zeros to the
// end of the block. The JSON holds the request and the identity of its plan.
struct JournalHeader
{
    // 3: window records (scanEnd), which a version-2 reader would take for plain records.
    // 4: records carry the checksum of the table entries they vouch for. Format 3 journals are
    // refused: nothing in them protects the table, whose entries decide what a resume rewrites.
    // 5: every checksum (header, records, table, chunks, plan fingerprint) is XXH3 (libxxhash)
    // instead of a hand-written hash, and the magic is "PWMOVEJ2". Formats 1-4 ("PWMOVEJ1")
    // cannot be checked any more: they are refused as another format, their version read from
    // the JSON without its checksum (only to name it in the message).
    // 6: window records may carry the window's sources (OverlapWay::JournalWindow), the record
    // slots hold `recordData` bytes, and the header records the way the move was asked to take.
    // A format 5 reader would take such a record for one it cannot have, so the format changes.
    static constexpr int kFormatVersion = 6;

    MoveRequest request;
    std::uint64_t moveId = 0;
    std::uint64_t deviceSize = 0;
    std::uint64_t chunkCount = 0;
    std::uint64_t largestChunk = 0;
    // The most data one record holds: the largest chunk, or a whole window of chunks cut to the
    // shift when their sources may be journaled (kWindowBytes).
    std::uint64_t recordData = 0;
    std::uint64_t planFingerprint = 0;
};

// The header's bytes, padded with zeros to whole blocks.
QByteArray journalHeaderBytes(const JournalHeader &header);

// What reading the header of a journal file of `fileSize` bytes found.
struct JournalHeaderRead
{
    enum class Status { Sound, Unreadable, Damaged, OtherFormat };

    Status status = Status::Sound;
    JournalHeader header;   // Sound: every field present, of its type, and the move possible
    std::uint64_t size = 0; // Sound: of the header with its padding
    int readError = 0;      // Unreadable: the errno of the failed read
    QString damage;         // Damaged: what is wrong, for MoveJournal::damageMessage()
    int format = 0;         // OtherFormat: the format version it has
};
JournalHeaderRead readJournalHeader(BlockIo &io, std::uint64_t fileSize);

} // namespace partwise::move
