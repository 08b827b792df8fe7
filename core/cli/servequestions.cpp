#include "cli/servequestions.h"

#include <QJsonArray>

#include <chrono>

namespace partwise {

namespace {

constexpr auto kPatience = std::chrono::minutes(30);

QString severityName(PartedMessage::Severity severity)
{
    switch (severity) {
    case PartedMessage::Severity::Information:
        return QStringLiteral("information");
    case PartedMessage::Severity::Warning:
        return QStringLiteral("warning");
    case PartedMessage::Severity::Error:
        return QStringLiteral("error");
    case PartedMessage::Severity::Fatal:
        return QStringLiteral("fatal");
    }
    return QString();
}

} // namespace

QString ServeQuestions::ask(const PartedMessage &message, const Notify &notify,
                            const std::atomic<bool> &cancel)
{
    const QString safe = PartedSession::readOnlyResolution(message);
    if (message.choices.size() < 2)
        return safe; // nothing to choose
    qint64 number = 0;
    {
        const std::lock_guard lock(m_mutex);
        if (m_abandoned)
            return safe;
        number = m_next++;
        m_waiting[number].choices = message.choices;
    }
    notify({{QStringLiteral("question"), number},
            {QStringLiteral("severity"), severityName(message.severity)},
            {QStringLiteral("text"), message.text},
            {QStringLiteral("choices"), QJsonArray::fromStringList(message.choices)},
            {QStringLiteral("default"), safe}});
    std::unique_lock lock(m_mutex);
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (!m_waiting[number].answered && !m_abandoned && !cancel.load() &&
           std::chrono::steady_clock::now() < deadline)
        m_wake.wait_for(lock, std::chrono::milliseconds(200)); // cancel is not signalled
    const Waiting waited = m_waiting[number];
    m_waiting.erase(number);
    return waited.answered ? waited.answer : safe;
}

bool ServeQuestions::answer(qint64 number, const QString &choice, QString *why)
{
    {
        const std::lock_guard lock(m_mutex);
        const auto it = m_waiting.find(number);
        if (it == m_waiting.end() || it->second.answered) {
            *why = QStringLiteral("No question %1 is waiting for an answer.").arg(number);
            return false;
        }
        if (!it->second.choices.contains(choice)) {
            *why = QStringLiteral("\"%1\" is not one of the choices offered (%2).")
                       .arg(choice.left(100), it->second.choices.join(QStringLiteral(", ")));
            return false;
        }
        it->second.answer = choice;
        it->second.answered = true;
    }
    m_wake.notify_all();
    return true;
}

void ServeQuestions::abandon()
{
    {
        const std::lock_guard lock(m_mutex);
        m_abandoned = true;
    }
    m_wake.notify_all();
}

} // namespace partwise
