#include "mount/partitionmounter.h"

#include "cli/servesession.h"
#include "disklistmodel.h"
#include "mount/udisksclient.h"
#include "mount/udisksroute.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QTimer>

#include <sys/stat.h>
#include <unistd.h>

PartitionMounter::PartitionMounter(ConnectionFor connectionFor, QObject *parent)
    : QObject(parent), m_connectionFor(std::move(connectionFor)), m_udisks(new UdisksClient(this))
{
    if (::geteuid() == 0)
        m_local = std::make_unique<partwise::ServeSession>(
            partwise::ServeTargetGuard(partwise::ServedUser{0, true}),
            [this](const QByteArray &line) { m_localAnswer = line; });
}

PartitionMounter::~PartitionMounter() = default;

QString PartitionMounter::unavailableReason(const DiskEntry &entry) const
{
    if (!entry.machine.isEmpty() && entry.isImage)
        return tr("Partitions of an image file are not mounted by Partwise.");
    if (!entry.machine.isEmpty()) {
        HelperConnection *helper = m_connectionFor ? m_connectionFor(entry.machine) : nullptr;
        return helper && helper->isReady() && !helper->hasEnded()
                   ? QString()
                   : tr("The helper for %1 is not running; connect again first.")
                         .arg(entry.machine);
    }
    // Root's window opens a block device named on its command line as it opens an image.
    struct stat st;
    if (::stat(QFile::encodeName(entry.path).constData(), &st) != 0 || !S_ISBLK(st.st_mode))
        return tr("Partitions of an image file are not mounted by Partwise.");
    return m_local ? QString() : tr("Mounting needs the administrator's helper.");
}

void PartitionMounter::call(const DiskEntry &entry, const QString &method, int number,
                            const QJsonObject &extra, const HelperConnection::Reply &done)
{
    QJsonObject params = extra;
    params.insert(QStringLiteral("path"), entry.machine.isEmpty() ? entry.path : entry.devicePath);
    if (number > 0) // 0: the whole drive (power-off)
        params.insert(QStringLiteral("partition"), number);
    const UdisksRequest request = udisksRequestFor(entry, method, number, extra);
    if (request.kind == UdisksRequest::Kind::None || !m_udisks->available())
        return callHelper(entry, method, params, done);
    QPointer<PartitionMounter> self(this);
    sendToUdisks(
        m_udisks, request,
        [self, entry, method, params, request, done](const UdisksClient::Answer &answer) {
            if (!self)
                return;
            if (answer.outcome == UdisksClient::Outcome::Absent)
                return self->callHelper(entry, method, params, done);
            // Refused (not this session's drive, another user's mount): the helper asks instead.
            if (answer.outcome == UdisksClient::Outcome::Refused)
                return self->callHelper(
                    entry, method, params, [done, why = answer.message](HelperReply reply) {
                        if (!reply.ok())
                            reply.error = tr("udisks2 refused (%1); %2").arg(why, reply.error);
                        done(reply);
                    });
            done(udisksReply(request, answer));
        });
}

bool PartitionMounter::goesThroughUdisks(const DiskEntry &entry, const QString &method,
                                         const QJsonObject &extra) const
{
    return udisksCanTake(entry, method, extra) && m_udisks->available();
}

QString PartitionMounter::udisksWay()
{
    return tr("Goes through udisks2 (no administrator's password for this session's removable "
              "drives), or through the administrator's helper where udisks2 refuses.");
}

QString PartitionMounter::wayTaken(const HelperReply &reply, const QString &helperWay)
{
    return reply.result.value(QStringLiteral("via")).toString() == QLatin1String("udisks2")
               ? tr("Done through udisks2, without the administrator's helper.")
               : helperWay;
}

void PartitionMounter::callHelper(const DiskEntry &entry, const QString &method,
                                  const QJsonObject &params, const HelperConnection::Reply &done)
{
    if (const QString why = unavailableReason(entry); !why.isEmpty()) {
        HelperReply reply;
        reply.error = why;
        QTimer::singleShot(0, this, [done, reply] { done(reply); });
        return;
    }
    if (!entry.machine.isEmpty()) {
        m_connectionFor(entry.machine)->call(method, params, done);
        return;
    }
    // Root's own window: the helper's code, here; these methods answer at once.
    m_localAnswer.clear();
    m_local->handleLine(
        QJsonDocument(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                  {QStringLiteral("id"), 1},
                                  {QStringLiteral("method"), method},
                                  {QStringLiteral("params"), params}})
            .toJson(QJsonDocument::Compact));
    const QJsonObject answer = QJsonDocument::fromJson(m_localAnswer).object();
    HelperReply reply;
    reply.result = answer.value(QStringLiteral("result")).toObject();
    const QJsonObject error = answer.value(QStringLiteral("error")).toObject();
    if (!answer.contains(QStringLiteral("result"))) {
        reply.error = error.value(QStringLiteral("message")).toString(tr("No answer."));
        reply.code = error.value(QStringLiteral("code")).toInt(-1);
        reply.data = error.value(QStringLiteral("data")).toObject();
    }
    QTimer::singleShot(0, this, [done, reply] { done(reply); });
}

QStringList PartitionMounter::holdersOf(const HelperReply &reply)
{
    QStringList out;
    for (const QJsonValue &h : reply.data.value(QStringLiteral("holders")).toArray()) {
        const QJsonObject holder = h.toObject();
        out << QStringLiteral("%1 (pid %2)")
                   .arg(holder.value(QStringLiteral("name")).toString())
                   .arg(holder.value(QStringLiteral("pid")).toInteger());
    }
    return out;
}
