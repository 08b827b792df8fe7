#include "cli/watchcommand.h"

#include "cli/exitstatus.h"
#include "device/diskmonitor.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cerrno>

#include <poll.h>
#include <unistd.h>

namespace partwise {

namespace {

void printLine(const QJsonObject &object, bool json, const QString &text, QTextStream &out)
{
    out << (json ? QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)) : text)
        << '\n';
    out.flush(); // a reader follows line by line
}

void printStart(const DiskMonitor &monitor, bool json, QTextStream &out)
{
    QStringList disks(monitor.disks().cbegin(), monitor.disks().cend());
    disks.sort();
    const QString source = diskMonitorSourceName(monitor.source());
    const QJsonObject object{{QStringLiteral("event"), QStringLiteral("listening")},
                             {QStringLiteral("source"), source},
                             {QStringLiteral("disks"), QJsonArray::fromStringList(disks)}};
    printLine(object, json,
              QStringLiteral("listening to %1 events; disks: %2")
                  .arg(source, disks.isEmpty() ? QStringLiteral("none") : disks.join(u' ')),
              out);
}

void printEvent(const DiskEvent &event, bool json, QTextStream &out)
{
    const QString kind = diskEventKindName(event.kind);
    const QJsonObject object{{QStringLiteral("event"), kind},
                             {QStringLiteral("path"), event.path},
                             {QStringLiteral("size_bytes"), double(event.sizeBytes)},
                             {QStringLiteral("reason"), event.reason}};
    printLine(object, json, QStringLiteral("%1 %2: %3").arg(kind, event.path, event.reason), out);
}

// Whether the input has ended (closed, or an error other than an interruption).
bool inputEnded()
{
    char buffer[256];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    return n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN);
}

} // namespace

int runWatchCommand(const WatchCommandOptions &options, QTextStream &out, QTextStream &err)
{
    QString error;
    std::unique_ptr<DiskMonitor> monitor;
    if (options.source.isEmpty())
        monitor = DiskMonitor::start(&error);
    else
        monitor = DiskMonitor::start(options.source == QLatin1String("udev")
                                         ? DiskMonitor::Source::Udev
                                         : DiskMonitor::Source::Kernel,
                                     &error);
    if (!monitor) {
        err << "partwise-cli watch: " << error << '\n';
        return ExitMisalignedOrFailed;
    }
    printStart(*monitor, options.json, out);
    const QDeadlineTimer deadline = options.seconds > 0
                                        ? QDeadlineTimer(qint64(options.seconds) * 1000)
                                        : QDeadlineTimer(QDeadlineTimer::Forever);
    pollfd fds[2] = {{monitor->fd(), POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
    while (!deadline.hasExpired()) {
        const qint64 left = deadline.remainingTime();
        const int timeout = left < 0 ? -1 : int(std::min<qint64>(left, 1000));
        if (::poll(fds, 2, timeout) < 0 && errno != EINTR) {
            err << "partwise-cli watch: " << qt_error_string(errno) << '\n';
            return ExitMisalignedOrFailed;
        }
        if (fds[0].revents & POLLIN) {
            for (const DiskEvent &event : monitor->receive())
                printEvent(event, options.json, out);
        }
        if (fds[1].revents & POLLNVAL)
            fds[1].fd = -1; // no input at all: only the time bound ends it
        else if ((fds[1].revents & (POLLIN | POLLHUP | POLLERR)) && inputEnded())
            break;
    }
    return ExitOk;
}

} // namespace partwise
