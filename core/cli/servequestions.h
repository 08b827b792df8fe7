#pragma once

// libparted's questions during a job run by `partwise-cli serve` ("The backup GPT table is not
// at the end of the disk… Fix/Ignore?"), put to the client. The job's thread sends a
// `question` notification and waits; the client's `answer` request, read on the session's
// thread, wakes it with one of the offered choices. When nobody answers (the input ended, the
// job was cancelled, or half an hour passed) the job takes the answer that changes nothing,
// as the command line does (PartedSession::readOnlyResolution).

#include "table/partedsession.h"

#include <QJsonObject>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>

namespace partwise {

class ServeQuestions
{
public:
    using Notify = std::function<void(const QJsonObject &params)>;

    // On the job's thread: asks, and waits for the answer.
    QString ask(const PartedMessage &message, const Notify &notify,
                const std::atomic<bool> &cancel);
    // On the session's thread: `choice` for question `number`; false with why when there is no
    // such question waiting or the choice was not offered.
    bool answer(qint64 number, const QString &choice, QString *why);
    // Nobody will answer any more: waiting questions take the answer that changes nothing.
    void abandon();

private:
    struct Waiting
    {
        QStringList choices;
        QString answer;
        bool answered = false;
    };
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::map<qint64, Waiting> m_waiting;
    qint64 m_next = 1;
    bool m_abandoned = false;
};

} // namespace partwise
