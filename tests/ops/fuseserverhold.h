// Holds a FUSE server still right after it has read a write request and before it answers:
// the instant at which a client killed while it served its own view could never exit (the
// kernel waits out a request a server has read). The server is the task named `serverName`
// (a process, or a thread) among `client`'s threads and its children's; it is traced
// (ptrace) and stopped at the exit of the read() that brought a FUSE_WRITE.
#pragma once

#include <QString>

#include <sys/types.h>

namespace pwtest {

class FuseServerHold
{
public:
    // Waits up to `timeoutMs` for the server to appear and read a write request.
    FuseServerHold(pid_t client, const char *serverName, int timeoutMs);
    ~FuseServerHold(); // release()
    FuseServerHold(const FuseServerHold &) = delete;
    FuseServerHold &operator=(const FuseServerHold &) = delete;

    bool held() const { return m_task > 0 && m_error.isEmpty(); }
    QString error() const { return m_error; }
    pid_t task() const { return m_task; }

    // Lets the server go on (it answers the request it holds). Idempotent.
    void release();

private:
    bool findTask(pid_t client, const char *serverName);
    bool stopAtWriteRequest(int timeoutMs);

    pid_t m_task = -1;
    bool m_traced = false;
    quint64 m_lastRead = 0; // the buffer of the read() the server is in
    QString m_error;
};

// Whether the task `pid` still exists (a zombie counts as gone).
bool taskAlive(pid_t pid);

} // namespace pwtest
