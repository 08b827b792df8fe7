#pragma once

// Reading a move's destinations back while the copy goes on.
//
// Verification used to be a pass of its own after the copy: one more sequential read of every
// byte moved, about a third of a verified move's time. But a chunk's destination, once written,
// is final: the chunks of a plan have disjoint destinations, and a later chunk only ever writes
// over the *sources* of earlier ones (a disk copy's destinations are nobody's source at all). So
// each chunk is read back and compared with its source's checksum as soon as its write returns,
// on a thread of its own, while the copy goes on. The read-back is the same as the pass after
// the copy: O_DIRECT where the device allows it, read in pieces short enough not to hold up the
// copy's syncs behind them (kReadAheadPiece).
//
// It does not wait for the sync that makes a chunk durable: a read after the sync would be
// answered from the same cache as one before it, so it proves nothing more, and a move records
// a chunk done only after a sync, so one lost to a power cut is copied again on resume and read
// back in the pass after the copy. Waiting for the sync left up to a record's worth of chunks
// (256 MiB between the records of a move without overlap) to be read back after the copy ended.
// Chunks the verifier has not seen (a resumed move's earlier chunks) are left to that pass,
// which DataMover::verify() still runs whenever covered() falls short of the whole plan.

#include "alignedbuffer.h"
#include "blockio.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace partwise::move {

struct MovePlan;

// Why a read-back failed, in the terms of the chunk concerned.
struct VerifyFailure
{
    enum class Kind { None, Unreadable, Mismatch, Cancelled };
    Kind kind = Kind::None;
    int error = 0;            // errno value, for Unreadable
    std::uint64_t offset = 0; // where on the device
    std::uint64_t length = 0; // bytes concerned
    explicit operator bool() const { return kind != Kind::None; }
};

class BackgroundVerifier
{
public:
    BackgroundVerifier(BlockIo &device, const MovePlan &plan, const std::atomic<bool> *cancel);
    ~BackgroundVerifier();
    BackgroundVerifier(const BackgroundVerifier &) = delete;
    BackgroundVerifier &operator=(const BackgroundVerifier &) = delete;

    // False when no buffer could be had; the copy then goes on without it, and the pass after
    // the copy verifies everything.
    bool running() const { return m_thread.joinable(); }

    // On the copy's thread: chunk `index` was written, from a source whose checksum is given.
    void written(std::size_t index, std::uint64_t checksum);
    // Waits until every written chunk is read back (or the first failure), and stops.
    VerifyFailure finish();
    // How many distinct chunks were read back and matched; valid after finish().
    std::size_t covered() const { return m_covered; }
    std::uint64_t coveredBytes() const { return m_coveredBytes; }

private:
    struct Pending
    {
        std::size_t index;
        std::uint64_t checksum;
    };
    void work();
    VerifyFailure readBack(std::vector<Pending> &batch);

    BlockIo &m_device;
    const MovePlan &m_plan;
    const std::atomic<bool> *m_cancel;
    AlignedBuffer m_buffer;

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::vector<Pending> m_queue; // written, not yet read back
    std::uint64_t m_queuedBytes = 0;
    bool m_finishing = false;
    VerifyFailure m_failure;   // the first one; guarded by m_mutex
    std::size_t m_covered = 0; // worker's thread until finish()
    std::uint64_t m_coveredBytes = 0;
    std::thread m_thread;
};

} // namespace partwise::move
