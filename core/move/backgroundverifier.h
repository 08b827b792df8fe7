#pragma once

// Reading a move's destinations back while the copy goes on.
//
// Verification used to be a pass of its own after the copy: one more sequential read of every
// byte moved, about a third of a verified move's time. But a chunk's destination, once a device
// sync has made it durable, is final: the chunks of a plan have disjoint destinations, and a
// later chunk only ever writes over the *sources* of earlier ones. So each chunk can be read
// back and compared with its source's checksum as soon as the sync that made it durable
// returns, on a thread of its own, while the copy waits for its next sync. The read-back is the
// same as the pass after the copy: O_DIRECT where the device allows it, read in pieces short
// enough not to hold up the copy's syncs behind them (kReadAheadPiece).
//
// The copy tells the verifier which chunks it wrote (written()) and when a sync made them
// durable (durable()); only then are they read. A disk copy (ops/partitioncopy) calls durable()
// after every write: its destinations are not any chunk's source, and its journal counts a
// chunk only after a sync, so a read-back before the sync proves as much. Chunks the verifier has
// not seen (a resumed move's earlier chunks) are left to the pass after the copy, which
// DataMover::verify() still runs whenever covered() falls short of the whole plan.

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
    // On the copy's thread, after a device sync: every chunk written so far is durable.
    void durable();
    // Waits until every durable chunk is read back (or the first failure), and stops.
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
    std::vector<Pending> m_written; // copy's thread only: written, not yet durable

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::vector<Pending> m_queue; // durable, not yet read back
    std::uint64_t m_queuedBytes = 0;
    bool m_finishing = false;
    VerifyFailure m_failure;   // the first one; guarded by m_mutex
    std::size_t m_covered = 0; // worker's thread until finish()
    std::uint64_t m_coveredBytes = 0;
    std::thread m_thread;
};

} // namespace partwise::move
