#pragma once

#include <cstddef>

namespace partwise::move {

// A heap buffer aligned for O_DIRECT I/O (which needs the memory, not only the offsets,
// aligned to the device's logical block size; 4096 covers every device we meet).
class AlignedBuffer
{
public:
    static constexpr std::size_t kAlignment = 4096;

    AlignedBuffer() = default;
    explicit AlignedBuffer(std::size_t size);
    // Not zeroed: only for a buffer every byte of which is read into before it is used or
    // written anywhere (the mover's windows and read-back spans). Zeroing their tens of MiB cost
    // a page fault per 4 KiB on every move, for bytes the next read replaces.
    static AlignedBuffer forReading(std::size_t size);
    ~AlignedBuffer();
    AlignedBuffer(const AlignedBuffer &) = delete;
    AlignedBuffer &operator=(const AlignedBuffer &) = delete;
    AlignedBuffer(AlignedBuffer &&other) noexcept;
    AlignedBuffer &operator=(AlignedBuffer &&other) noexcept;

    unsigned char *data() const { return m_data; }
    std::size_t size() const { return m_size; }
    bool isNull() const { return m_data == nullptr; }

private:
    AlignedBuffer(std::size_t size, bool zeroed);

    unsigned char *m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace partwise::move
