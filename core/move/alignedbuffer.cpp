#include "alignedbuffer.h"

#include "base/multiple.h"

#include <cstdlib>
#include <cstring>
#include <utility>

namespace partwise::move {

AlignedBuffer::AlignedBuffer(std::size_t size) : AlignedBuffer(size, true) {}

AlignedBuffer AlignedBuffer::forReading(std::size_t size)
{
    return AlignedBuffer(size, false);
}

AlignedBuffer::AlignedBuffer(std::size_t size, bool zeroed)
{
    const std::size_t rounded = roundUp(size, std::size_t(kAlignment));
    void *memory = nullptr;
    if (rounded > 0 && posix_memalign(&memory, kAlignment, rounded) == 0) {
        m_data = static_cast<unsigned char *>(memory);
        m_size = rounded;
        // Zeroed so that padding written to the journal is deterministic.
        if (zeroed)
            std::memset(m_data, 0, m_size);
    }
}

AlignedBuffer::~AlignedBuffer()
{
    std::free(m_data);
}

AlignedBuffer::AlignedBuffer(AlignedBuffer &&other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0))
{
}

AlignedBuffer &AlignedBuffer::operator=(AlignedBuffer &&other) noexcept
{
    if (this != &other) {
        std::free(m_data);
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
    }
    return *this;
}

} // namespace partwise::move
