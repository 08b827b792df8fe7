#pragma once

// A passphrase or key in memory: its bytes are wiped (explicit_bzero) when it goes, and it is
// never copied behind the owner's back (no implicit sharing, no copy constructor). Whoever
// hands bytes over wipes their own copy with wipe().

#include <QByteArray>

#include <string.h>

#include <vector>

namespace partwise {

class SecretBytes
{
public:
    SecretBytes() = default;
    // Takes `source`'s bytes and wipes `source` (detached first, so no shared copy is left
    // holding them beside it).
    explicit SecretBytes(QByteArray *source)
        : m_bytes(source->constData(), source->constData() + source->size())
    {
        wipe(source);
    }
    ~SecretBytes() { clear(); }
    SecretBytes(const SecretBytes &) = delete;
    SecretBytes &operator=(const SecretBytes &) = delete;
    SecretBytes(SecretBytes &&other) noexcept : m_bytes(std::move(other.m_bytes)) {}

    const char *data() const { return m_bytes.data(); }
    size_t size() const { return m_bytes.size(); }
    bool isEmpty() const { return m_bytes.empty(); }
    void clear()
    {
        if (!m_bytes.empty())
            ::explicit_bzero(m_bytes.data(), m_bytes.size());
        m_bytes.clear();
    }

    static void wipe(QByteArray *bytes)
    {
        if (!bytes->isEmpty())
            ::explicit_bzero(bytes->data(), size_t(bytes->size()));
        bytes->clear();
    }

private:
    std::vector<char> m_bytes;
};

} // namespace partwise
