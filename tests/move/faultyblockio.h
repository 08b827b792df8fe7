#pragma once

// A BlockIo wrapper that injects faults: an error for reads or writes touching a chosen
// offset of a chosen file, or a kill in the middle of the Nth write (only part of its 4 KiB
// blocks reach the file, as after a power cut). Shared by the tests and move-crash-helper.

#include "move/blockio.h"

#include <QFileInfo>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <memory>
#include <random>

namespace movetest {

struct FaultState
{
    QString file; // faults apply to this path only (the device, or the journal)
    std::uint64_t failReadAt = UINT64_MAX;
    std::uint64_t failWriteAt = UINT64_MAX;
    std::uint64_t corruptWriteAt = UINT64_MAX; // flips that byte silently, once
    int readError = EIO;
    int writeError = EIO;
    long killAtWrite = -1; // counts writes to every file, from 1
    std::uint64_t tearSeed = 0;
    std::atomic<long> writesSeen{0}; // the mover writes from two threads
};

class FaultyBlockIo : public partwise::move::BlockIo
{
public:
    FaultyBlockIo(std::unique_ptr<BlockIo> inner, std::shared_ptr<FaultState> state)
        : m_inner(std::move(inner)), m_state(std::move(state))
    {
    }

    int readAt(void *buffer, std::size_t length, std::uint64_t offset) override
    {
        if (targeted() && touches(offset, length, m_state->failReadAt))
            return m_state->readError;
        return m_inner->readAt(buffer, length, offset);
    }

    int writeAt(const void *buffer, std::size_t length, std::uint64_t offset) override
    {
        if (++m_state->writesSeen == m_state->killAtWrite)
            tornWriteThenDie(buffer, length, offset);
        if (targeted() && touches(offset, length, m_state->failWriteAt))
            return m_state->writeError;
        if (targeted() && touches(offset, length, m_state->corruptWriteAt)) {
            const std::uint64_t at = m_state->corruptWriteAt - offset;
            m_state->corruptWriteAt = UINT64_MAX;
            auto *bytes = static_cast<unsigned char *>(const_cast<void *>(buffer));
            bytes[at] ^= 0x5A; // the caller's buffer: a bad cable corrupts in flight too
            const int code = m_inner->writeAt(buffer, length, offset);
            bytes[at] ^= 0x5A;
            return code;
        }
        return m_inner->writeAt(buffer, length, offset);
    }

    int sync() override { return m_inner->sync(); }
    std::uint64_t size() const override { return m_inner->size(); }
    QString path() const override { return m_inner->path(); }

private:
    bool targeted() const
    {
        return QFileInfo(m_inner->path()).absoluteFilePath() ==
               QFileInfo(m_state->file).absoluteFilePath();
    }
    static bool touches(std::uint64_t offset, std::size_t length, std::uint64_t at)
    {
        return at >= offset && at < offset + length;
    }

    [[noreturn]] void tornWriteThenDie(const void *buffer, std::size_t length, std::uint64_t offset)
    {
        // Each 4 KiB block lands or not, in no particular order, like a write cut by power loss.
        std::mt19937_64 random(m_state->tearSeed);
        const auto *bytes = static_cast<const unsigned char *>(buffer);
        for (std::size_t block = 0; block < length; block += 4096) {
            const std::size_t piece = std::min<std::size_t>(4096, length - block);
            if (random() % 2)
                m_inner->writeAt(bytes + block, piece, offset + block);
        }
        m_inner->sync();
        std::raise(SIGKILL);
        std::abort();
    }

    std::unique_ptr<BlockIo> m_inner;
    std::shared_ptr<FaultState> m_state;
};

inline partwise::move::BlockIoOpener faultyOpener(std::shared_ptr<FaultState> state)
{
    return [state](const QString &path, partwise::move::BlockIo::Access access,
                   int *error) -> std::unique_ptr<partwise::move::BlockIo> {
        auto inner = partwise::move::openFileBlockIo(path, access, error);
        if (!inner)
            return nullptr;
        return std::make_unique<FaultyBlockIo>(std::move(inner), state);
    };
}

} // namespace movetest
