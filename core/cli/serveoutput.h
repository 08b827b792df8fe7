#pragma once

// The helper's standard output, which never blocks the helper. A client that stops reading
// (hostile, or hung) would otherwise stop every thread that writes an answer or a progress line
// in a full pipe, the job with its disk lock included, and the helper would outlive its input.
// Lines go into a bounded queue; a thread of its own writes them out without blocking (poll,
// O_NONBLOCK). When the queue would grow past its bound, or the pipe is gone, the client counts
// as gone: nothing more is queued, and push() says so, so that the job is cancelled as at the
// end of input.

#include <QByteArray>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace partwise {

class ServeOutput
{
public:
    // At most this much unread output: far more than any answer (a read-disk of a large GPT is
    // a few hundred KiB), far less than a machine's memory.
    static constexpr qsizetype kMaxQueuedBytes = qsizetype(16) << 20;

    explicit ServeOutput(int fd);
    ~ServeOutput(); // drain(0)
    ServeOutput(const ServeOutput &) = delete;
    ServeOutput &operator=(const ServeOutput &) = delete;

    // False when the client is gone (the line is dropped): it stopped reading long enough for
    // the queue to fill, or its end of the pipe is closed.
    bool push(const QByteArray &line);
    bool clientGone() const;
    // Gives the writer up to `graceMs` to write what is queued, then stops it.
    void drain(int graceMs);

private:
    void writeLoop();

    int m_fd;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<QByteArray> m_queue;
    qsizetype m_queuedBytes = 0;
    bool m_gone = false;
    bool m_stop = false;
    std::thread m_writer;
};

} // namespace partwise
