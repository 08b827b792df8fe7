#include "mount/udisksclient.h"

#include <QDBusArgument>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusVariant>

namespace {

const QString kService = QStringLiteral("org.freedesktop.UDisks2");
const QString kPrefix = QStringLiteral("org.freedesktop.UDisks2.");
// Mounting runs the filesystem's driver and a flush may wait for the drive: minutes at worst.
constexpr int kTimeoutMs = 5 * 60 * 1000;

// No password dialog: a refusal comes back at once and the helper asks instead.
QVariantMap quietOptions()
{
    return {{QStringLiteral("auth.no_user_interaction"), true}};
}

UdisksClient::Outcome outcomeOf(const QDBusError &error)
{
    const QString name = error.name();
    if (name.startsWith(QLatin1String("org.freedesktop.UDisks2.Error.NotAuthorized")))
        return UdisksClient::Outcome::Refused;
    // The daemon went away, never started, or the bus itself is not there.
    if (name == QLatin1String("org.freedesktop.DBus.Error.ServiceUnknown") ||
        name == QLatin1String("org.freedesktop.DBus.Error.NameHasNoOwner") ||
        name == QLatin1String("org.freedesktop.DBus.Error.NoServer") ||
        name == QLatin1String("org.freedesktop.DBus.Error.Disconnected") ||
        name == QLatin1String("org.freedesktop.DBus.Error.UnknownObject") ||
        name.startsWith(QLatin1String("org.freedesktop.DBus.Error.Spawn")))
        return UdisksClient::Outcome::Absent;
    return UdisksClient::Outcome::Failed;
}

QString firstValueText(const QDBusMessage &reply)
{
    if (reply.arguments().isEmpty())
        return {};
    const QVariant first = reply.arguments().constFirst();
    if (first.canConvert<QDBusObjectPath>())
        return first.value<QDBusObjectPath>().path();
    return first.toString();
}

} // namespace

UdisksClient::UdisksClient(QObject *parent) : QObject(parent) {}

bool UdisksClient::available() const
{
    QDBusConnection bus = QDBusConnection::systemBus();
    if (!bus.isConnected() || !bus.interface())
        return false;
    if (bus.interface()->isServiceRegistered(kService))
        return true;
    const QDBusReply<QStringList> startable =
        bus.interface()->call(QStringLiteral("ListActivatableNames"));
    return startable.isValid() && startable.value().contains(kService);
}

void UdisksClient::invoke(const QString &object, const QString &interface, const QString &method,
                          const QVariantList &arguments, const Done &done)
{
    QDBusMessage call =
        QDBusMessage::createMethodCall(kService, object, kPrefix + interface, method);
    call.setArguments(arguments);
    QDBusConnection bus = QDBusConnection::systemBus();
    auto *watcher = new QDBusPendingCallWatcher(bus.asyncCall(call, kTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [done](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        const QDBusMessage reply = w->reply();
        Answer answer;
        if (reply.type() == QDBusMessage::ErrorMessage) {
            const QDBusError error(reply);
            answer.outcome = outcomeOf(error);
            answer.message = error.message();
        } else {
            answer.outcome = Outcome::Done;
            answer.value = firstValueText(reply);
        }
        done(answer);
    });
}

void UdisksClient::resolve(const QString &node, const Done &done, const Step &next)
{
    if (!QDBusConnection::systemBus().isConnected()) {
        done({Outcome::Absent, tr("There is no D-Bus system bus."), {}});
        return;
    }
    const QVariantMap spec{{QStringLiteral("path"), node}};
    QDBusMessage call = QDBusMessage::createMethodCall(
        kService, QStringLiteral("/org/freedesktop/UDisks2/Manager"),
        kPrefix + QStringLiteral("Manager"), QStringLiteral("ResolveDevice"));
    call.setArguments({spec, QVariantMap()});
    auto *watcher =
        new QDBusPendingCallWatcher(QDBusConnection::systemBus().asyncCall(call, kTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [done, next, node](QDBusPendingCallWatcher *w) {
                w->deleteLater();
                const QDBusPendingReply<QList<QDBusObjectPath>> reply = *w;
                if (reply.isError()) {
                    const Outcome outcome = outcomeOf(reply.error());
                    // Asking where a device is needs no rights: any error means no udisks2 here.
                    done({outcome == Outcome::Failed ? Outcome::Absent : outcome,
                          reply.error().message(),
                          {}});
                    return;
                }
                if (reply.value().isEmpty()) {
                    done({Outcome::Absent, tr("udisks2 does not know %1.").arg(node), {}});
                    return;
                }
                next(reply.value().constFirst().path());
            });
}

void UdisksClient::mount(const QString &node, const Done &done)
{
    resolve(node, done, [this, done](const QString &object) {
        invoke(object, QStringLiteral("Filesystem"), QStringLiteral("Mount"), {quietOptions()},
               done);
    });
}

void UdisksClient::unmount(const QString &node, const Done &done)
{
    resolve(node, done, [this, done](const QString &object) {
        invoke(object, QStringLiteral("Filesystem"), QStringLiteral("Unmount"), {quietOptions()},
               done);
    });
}

void UdisksClient::unlock(const QString &node, const QString &passphrase, const Done &done)
{
    resolve(node, done, [this, done, passphrase](const QString &object) {
        invoke(object, QStringLiteral("Encrypted"), QStringLiteral("Unlock"),
               {passphrase, quietOptions()}, done);
    });
}

void UdisksClient::lock(const QString &node, const Done &done)
{
    resolve(node, done, [this, done](const QString &object) {
        invoke(object, QStringLiteral("Encrypted"), QStringLiteral("Lock"), {quietOptions()}, done);
    });
}

void UdisksClient::powerOff(const QString &node, const Done &done)
{
    resolve(node, done, [this, done](const QString &block) {
        // The drive is the Block interface's "Drive" property of any of its block devices.
        QDBusMessage get = QDBusMessage::createMethodCall(
            kService, block, QStringLiteral("org.freedesktop.DBus.Properties"),
            QStringLiteral("Get"));
        get.setArguments({kPrefix + QStringLiteral("Block"), QStringLiteral("Drive")});
        auto *watcher = new QDBusPendingCallWatcher(
            QDBusConnection::systemBus().asyncCall(get, kTimeoutMs), this);
        connect(watcher, &QDBusPendingCallWatcher::finished, this,
                [this, done](QDBusPendingCallWatcher *w) {
                    w->deleteLater();
                    const QDBusPendingReply<QDBusVariant> reply = *w;
                    const QString drive =
                        reply.isError() ? QString()
                                        : reply.value().variant().value<QDBusObjectPath>().path();
                    if (drive.isEmpty() || drive == QLatin1String("/")) {
                        done({Outcome::Absent, tr("udisks2 knows no drive behind it."), {}});
                        return;
                    }
                    invoke(drive, QStringLiteral("Drive"), QStringLiteral("PowerOff"),
                           {quietOptions()}, done);
                });
    });
}
