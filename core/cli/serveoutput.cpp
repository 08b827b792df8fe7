#include "cli/serveoutput.h"

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace partwise {

namespace {

// How long one poll waits before the writer looks at whether it is to stop.
constexpr int kPollMs = 100;

} // namespace

ServeOutput::ServeOutput(int fd) : m_fd(fd)
{
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    m_writer = std::thread([this] { writeLoop(); });
}

ServeOutput::~ServeOutput()
{
    drain(0);
}

bool ServeOutput::push(const QByteArray &line)
{
    const std::lock_guard lock(m_mutex);
    if (m_gone || m_queuedBytes + line.size() > kMaxQueuedBytes) {
        m_gone = true;
        m_queue.clear();
        m_queuedBytes = 0;
        return false;
    }
    m_queue.push_back(line);
    m_queuedBytes += line.size();
    m_wake.notify_one();
    return true;
}

bool ServeOutput::clientGone() const
{
    const std::lock_guard lock(m_mutex);
    return m_gone;
}

void ServeOutput::drain(int graceMs)
{
    {
        std::unique_lock lock(m_mutex);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(graceMs);
        m_wake.wait_until(lock, deadline, [this] { return m_queue.empty() || m_gone; });
        m_stop = true;
        m_wake.notify_all();
    }
    if (m_writer.joinable())
        m_writer.join();
}

void ServeOutput::writeLoop()
{
    // The front line stays queued until all of it is written, so drain() sees it as unwritten.
    qsizetype offset = 0;
    for (;;) {
        QByteArray front;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || m_gone || !m_queue.empty(); });
            if (m_stop || m_gone)
                return;
            front = m_queue.front();
        }
        pollfd out{m_fd, POLLOUT, 0};
        const int ready = ::poll(&out, 1, kPollMs);
        const ssize_t n =
            ready > 0 && (out.revents & POLLOUT)
                ? ::write(m_fd, front.constData() + offset, size_t(front.size() - offset))
                : 0;
        const bool broken =
            (ready > 0 && !(out.revents & POLLOUT)) || (n < 0 && errno != EAGAIN && errno != EINTR);
        const std::lock_guard lock(m_mutex);
        if (broken) {
            m_gone = true;
            m_queue.clear();
            m_queuedBytes = 0;
            m_wake.notify_all();
            return;
        }
        offset += n > 0 ? n : 0;
        if (offset == front.size() && !m_queue.empty()) {
            m_queuedBytes -= front.size();
            m_queue.pop_front();
            offset = 0;
            if (m_queue.empty())
                m_wake.notify_all(); // drain() waits for this
        }
    }
}

} // namespace partwise
