#include "table/partedsession.h"

#include "table/partedrecovery.h"

#include <QRecursiveMutex>

#include <parted/parted.h>

namespace partwise {

namespace {

QRecursiveMutex &partedLock()
{
    static QRecursiveMutex lock;
    return lock;
}

PartedSession *g_current = nullptr;

struct OptionName
{
    PedExceptionOption option;
    const char *name;
};

const OptionName kOptions[] = {
    {PED_EXCEPTION_FIX, "Fix"},       {PED_EXCEPTION_YES, "Yes"},
    {PED_EXCEPTION_NO, "No"},         {PED_EXCEPTION_OK, "OK"},
    {PED_EXCEPTION_RETRY, "Retry"},   {PED_EXCEPTION_IGNORE, "Ignore"},
    {PED_EXCEPTION_CANCEL, "Cancel"},
};

PartedMessage::Severity severityOf(PedExceptionType type)
{
    switch (type) {
    case PED_EXCEPTION_INFORMATION:
        return PartedMessage::Severity::Information;
    case PED_EXCEPTION_WARNING:
        return PartedMessage::Severity::Warning;
    case PED_EXCEPTION_ERROR:
    case PED_EXCEPTION_NO_FEATURE:
        return PartedMessage::Severity::Error;
    default:
        return PartedMessage::Severity::Fatal;
    }
}

} // namespace

struct PartedSessionAccess
{
    static PedExceptionOption handle(PedException *ex)
    {
        PartedMessage msg;
        msg.severity = severityOf(ex->type);
        msg.text = QString::fromLocal8Bit(ex->message).trimmed();
        for (const auto &o : kOptions)
            if (ex->options & o.option)
                msg.choices << QLatin1String(o.name);
        // Retry, Ignore, Cancel is how libparted asks about a read or write the disk refused.
        // "Ignore" would have it go on as if the sector had been read or written, and the job
        // then report success for a table the disk may not hold: no person is offered that.
        if (msg.choices.contains(QLatin1String("Retry")) &&
            msg.choices.contains(QLatin1String("Cancel")))
            msg.choices.removeAll(QLatin1String("Ignore"));
        if (!g_current)
            return PED_EXCEPTION_UNHANDLED;
        QString answer = g_current->m_resolver ? g_current->m_resolver(msg)
                                               : PartedSession::readOnlyResolution(msg);
        if (!msg.choices.contains(answer))
            answer = msg.choices.contains(QLatin1String("Cancel")) ? QStringLiteral("Cancel")
                                                                   : QString();
        msg.answer = answer;
        g_current->m_messages.append(msg);
        for (const auto &o : kOptions)
            if (answer == QLatin1String(o.name))
                return o.option;
        return PED_EXCEPTION_UNHANDLED;
    }
};

namespace {
PedExceptionOption partedExceptionHandler(PedException *ex)
{
    // libparted aborts after a bug exception: leave for the recovery point first, if a table
    // is being read under one (partedread.h). No local of ours lives yet in this frame.
    if (ex->type == PED_EXCEPTION_BUG)
        recoverFromPartedAssertion(ex->message);
    return PartedSessionAccess::handle(ex);
}
} // namespace

PartedSession::PartedSession() : PartedSession(Resolver()) {}

PartedSession::PartedSession(Resolver resolver) : m_resolver(std::move(resolver))
{
    partedLock().lock();
    m_outer = g_current;
    g_current = this;
    ped_exception_set_handler(partedExceptionHandler);
}

PartedSession::~PartedSession()
{
    g_current = m_outer;
    partedLock().unlock();
}

QString PartedSession::errorText() const
{
    QStringList parts;
    for (const auto &m : m_messages)
        if (m.severity >= PartedMessage::Severity::Error)
            parts << m.text;
    return parts.join(QLatin1Char(' '));
}

QStringList PartedSession::warnings() const
{
    QStringList out;
    for (const auto &m : m_messages)
        if (m.severity != PartedMessage::Severity::Information)
            out << m.text;
    return out;
}

QString PartedSession::readOnlyResolution(const PartedMessage &message)
{
    // A read error is the one question offering Retry. Its "Ignore" lets libparted go on with a
    // buffer the read never filled: a backup GPT header claiming millions of entries past the
    // end of an image then costs gigabytes of memory and seconds of CRC over them (found by
    // tests/fuzz). Cancel drops that copy of the table, as parted does in script mode.
    if (message.choices.contains(QLatin1String("Retry")) &&
        message.choices.contains(QLatin1String("Cancel")))
        return QStringLiteral("Cancel");
    // Otherwise "Ignore" never changes a disk. "OK" is how libparted asks to fall back to the
    // backup GPT when the primary is corrupt: reading from it is safe since nothing is committed.
    for (const char *choice : {"Ignore", "OK", "No", "Cancel"})
        if (message.choices.contains(QLatin1String(choice)))
            return QLatin1String(choice);
    return QString();
}

} // namespace partwise
