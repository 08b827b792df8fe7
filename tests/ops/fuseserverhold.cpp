#include "fuseserverhold.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QThread>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <linux/fuse.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

namespace pwtest {

namespace {

QByteArray comm(const QString &taskFolder)
{
    QFile f(taskFolder + QStringLiteral("/comm"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
}

// The threads of `pid` and of its children, as /proc/<pid>/task/<tid> folders.
QStringList tasksOf(pid_t client)
{
    QStringList owners{QString::number(client)};
    const QString target = QString::number(client);
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1] == target.toLatin1())
            owners << pid;
    }
    QStringList tasks;
    for (const QString &owner : owners) {
        const QString folder = QStringLiteral("/proc/%1/task").arg(owner);
        for (const QString &tid : QDir(folder).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            tasks << folder + u'/' + tid;
    }
    return tasks;
}

} // namespace

FuseServerHold::FuseServerHold(pid_t client, const char *serverName, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    // A server found ending (one view of each table write) is passed over for the next.
    while (clock.elapsed() < timeoutMs) {
        m_error.clear();
        if (!findTask(client, serverName) ||
            ::ptrace(PTRACE_SEIZE, m_task, nullptr,
                     reinterpret_cast<void *>(qintptr(PTRACE_O_TRACESYSGOOD))) != 0) {
            QThread::msleep(1);
            continue;
        }
        m_traced = true;
        if (stopAtWriteRequest(int(std::max<qint64>(0, timeoutMs - clock.elapsed()))))
            return;
        release();
    }
    m_task = -1;
    if (m_error.isEmpty())
        m_error = QStringLiteral("no task named %1 read a write request in time")
                      .arg(QLatin1String(serverName));
}

bool FuseServerHold::findTask(pid_t client, const char *serverName)
{
    for (const QString &task : tasksOf(client))
        if (comm(task) == serverName) {
            m_task = pid_t(task.section(u'/', -1).toInt());
            return true;
        }
    return false;
}

// Steps the server from system call to system call until a read() returns a FUSE_WRITE, and
// leaves it stopped there.
bool FuseServerHold::stopAtWriteRequest(int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    ::ptrace(PTRACE_INTERRUPT, m_task, nullptr, nullptr);
    for (;;) {
        int status = 0;
        if (::waitpid(m_task, &status, __WALL) != m_task || WIFEXITED(status) ||
            WIFSIGNALED(status)) {
            m_error = QStringLiteral("the server ended before a write request");
            m_traced = false;
            return false;
        }
        __ptrace_syscall_info info{};
        const bool isSyscall = WSTOPSIG(status) == (SIGTRAP | 0x80);
        if (isSyscall && ::ptrace(PTRACE_GET_SYSCALL_INFO, m_task, sizeof info, &info) > 0 &&
            info.op == PTRACE_SYSCALL_INFO_EXIT &&
            info.exit.rval >= qint64(sizeof(fuse_in_header)) && m_lastRead != 0) {
            fuse_in_header header{};
            iovec local{&header, sizeof header};
            iovec remote{reinterpret_cast<void *>(m_lastRead), sizeof header};
            if (::process_vm_readv(m_task, &local, 1, &remote, 1, 0) == sizeof header &&
                header.opcode == FUSE_WRITE)
                return true;
        }
        m_lastRead = 0;
        if (isSyscall && info.op == PTRACE_SYSCALL_INFO_ENTRY && info.entry.nr == SYS_read)
            m_lastRead = info.entry.args[1];
        if (clock.elapsed() > timeoutMs) {
            m_error = QStringLiteral("the server read no write request in time");
            return false;
        }
        // A signal other than the stops of tracing is passed on.
        const int pass =
            isSyscall || (status >> 16) == PTRACE_EVENT_STOP || WSTOPSIG(status) == SIGTRAP
                ? 0
                : WSTOPSIG(status);
        ::ptrace(PTRACE_SYSCALL, m_task, nullptr, reinterpret_cast<void *>(qintptr(pass)));
    }
}

void FuseServerHold::release()
{
    if (m_traced)
        ::ptrace(PTRACE_DETACH, m_task, nullptr, nullptr);
    m_traced = false;
}

FuseServerHold::~FuseServerHold()
{
    release();
}

bool taskAlive(pid_t pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    return line.mid(line.lastIndexOf(')') + 2, 1) != "Z";
}

} // namespace pwtest
