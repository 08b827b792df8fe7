#pragma once

// A BlockIo wrapper that simulates a power cut the way a disk with a volatile write cache
// suffers it: every write since the file's last sync() may or may not have reached the medium,
// each 4 KiB block on its own, in no particular order. Writes go straight to the file (as into
// a page cache) and keep an undo copy until the file is synced; at the cut, a random half of the
// unsynced blocks are rolled back, and every later call fails with EIO, as on a dead disk.
// Unlike a SIGKILL, this catches a missing sync: a write that the mover assumed durable.

#include "move/alignedbuffer.h"
#include "move/blockio.h"

#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

namespace movetest {

struct PowerCutState
{
    struct Unsynced;

    long cutAtWrite = -1; // counts writes to every file, from 1; -1: never
    std::uint64_t seed = 0;
    // Which writes cutAtWrite counts (every write if unset), by file and length.
    std::function<bool(const QString &file, std::size_t length)> counts;
    // Whether a 4 KiB block of an unsynced write reaches the medium at the cut (a coin toss
    // from `seed` if unset): lets a test stage one torn write exactly.
    std::function<bool(const Unsynced &write, std::uint64_t block, bool cutWrite)> survives;

    // Filled in as the move runs.
    long writesSeen = 0;
    long syncsSeen = 0;
    bool cut = false;

    struct Unsynced
    {
        std::shared_ptr<partwise::move::BlockIo> io;
        QString file;
        std::uint64_t offset = 0;
        std::vector<unsigned char> before; // what the medium held before this write
    };
    std::vector<Unsynced> unsynced; // in write order
    std::mutex mutex;               // the mover writes from two threads

    // Rolls back a random part of every unsynced write, newest first, so overlapping writes
    // leave one of the states the disk could really hold.
    void cutPower()
    {
        std::mt19937_64 random(seed);
        for (auto write = unsynced.rbegin(); write != unsynced.rend(); ++write) {
            const std::uint64_t end = write->offset + write->before.size();
            const bool cutWrite = write == unsynced.rbegin();
            for (std::uint64_t block = write->offset / 4096 * 4096; block < end; block += 4096) {
                const bool kept = survives ? survives(*write, block, cutWrite) : random() % 2 == 0;
                if (kept)
                    continue;
                const std::uint64_t from = std::max(block, write->offset);
                const std::uint64_t to = std::min(block + 4096, end);
                write->io->writeAt(write->before.data() + (from - write->offset), to - from, from);
            }
        }
        unsynced.clear();
        cut = true;
    }
};

class PowerCutBlockIo : public partwise::move::BlockIo
{
public:
    PowerCutBlockIo(std::shared_ptr<partwise::move::BlockIo> inner,
                    std::shared_ptr<PowerCutState> state)
        : m_inner(std::move(inner)), m_state(std::move(state)),
          m_file(QFileInfo(m_inner->path()).absoluteFilePath())
    {
    }

    int readAt(void *buffer, std::size_t length, std::uint64_t offset) override
    {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        if (m_state->cut)
            return EIO;
        return m_inner->readAt(buffer, length, offset);
    }

    int writeAt(const void *buffer, std::size_t length, std::uint64_t offset) override
    {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        if (m_state->cut)
            return EIO;
        PowerCutState::Unsynced undo{m_inner, m_file, offset, {}};
        partwise::move::AlignedBuffer old =
            partwise::move::AlignedBuffer::forReading((length + 4095) / 4096 * 4096);
        const std::uint64_t size = m_inner->size();
        const std::size_t existing =
            offset >= size
                ? 0
                : static_cast<std::size_t>(std::min<std::uint64_t>(length, size - offset));
        if (existing > 0) {
            if (const int code = m_inner->readAt(old.data(), existing, offset))
                return code;
        }
        undo.before.assign(old.data(), old.data() + existing);
        if (const int code = m_inner->writeAt(buffer, length, offset))
            return code;
        // A write past the end of a file has no earlier content to fall back to; keeping its
        // new bytes is one of the outcomes anyway.
        if (existing > 0)
            m_state->unsynced.push_back(std::move(undo));
        if ((!m_state->counts || m_state->counts(m_file, length)) &&
            ++m_state->writesSeen == m_state->cutAtWrite) {
            m_state->cutPower();
            return EIO;
        }
        return 0;
    }

    int sync() override
    {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        if (m_state->cut)
            return EIO;
        ++m_state->syncsSeen;
        auto &list = m_state->unsynced;
        list.erase(std::remove_if(list.begin(), list.end(),
                                  [this](const PowerCutState::Unsynced &write) {
                                      return write.file == m_file;
                                  }),
                   list.end());
        return 0;
    }

    std::uint64_t size() const override { return m_inner->size(); }
    QString path() const override { return m_inner->path(); }

private:
    std::shared_ptr<partwise::move::BlockIo> m_inner;
    std::shared_ptr<PowerCutState> m_state;
    QString m_file;
};

inline partwise::move::BlockIoOpener powerCutOpener(std::shared_ptr<PowerCutState> state)
{
    return [state](const QString &path, partwise::move::BlockIo::Access access,
                   int *error) -> std::unique_ptr<partwise::move::BlockIo> {
        std::shared_ptr<partwise::move::BlockIo> inner =
            partwise::move::openFileBlockIo(path, access, error);
        if (!inner)
            return nullptr;
        return std::make_unique<PowerCutBlockIo>(std::move(inner), state);
    };
}

} // namespace movetest
