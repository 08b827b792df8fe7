#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace partwise {

// A message libparted raised, and the answer we gave it.
struct PartedMessage
{
    enum class Severity { Information, Warning, Error, Fatal };
    Severity severity = Severity::Information;
    QString text;
    QStringList choices; // what libparted offered ("Fix", "Ignore", "Cancel", ...)
    QString answer;      // what was chosen
};

// libparted is neither thread-safe nor quiet: it keeps global exception state and, left alone,
// asks questions on the terminal. A PartedSession is the single owner of libparted for its
// lifetime: it holds a process-wide lock and routes every exception to a resolver, collecting the
// messages. The default resolver never changes anything: it ignores where it may, accepts
// read-only fallbacks ("the backup GPT will be used") and cancels the rest.
class PartedSession
{
public:
    // Returns the chosen option, one of `choices`, or an empty string to cancel.
    using Resolver = std::function<QString(const PartedMessage &)>;

    PartedSession();
    explicit PartedSession(Resolver resolver);
    ~PartedSession();
    PartedSession(const PartedSession &) = delete;
    PartedSession &operator=(const PartedSession &) = delete;

    const QList<PartedMessage> &messages() const { return m_messages; }
    // Error-level messages joined into one readable paragraph.
    QString errorText() const;
    // Messages that should reach the user as warnings (everything but plain information).
    QStringList warnings() const;

    static QString readOnlyResolution(const PartedMessage &message);

private:
    friend struct PartedSessionAccess;
    Resolver m_resolver;
    PartedSession *m_outer = nullptr; // sessions nest on one thread (recursive lock)
    QList<PartedMessage> m_messages;
};

} // namespace partwise
