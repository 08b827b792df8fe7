#include "mount/udisksroute.h"

#include "device/partitionnode.h"
#include "disklistmodel.h"
#include "layer/luksmapping.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QSysInfo>

#include <sys/stat.h>

using namespace partwise;

namespace {

// A disk of this computer: root's own window lists it without a machine; a user's window through
// the administrator's helper, whose machine is this computer's name (localhelpercommands).
bool onThisComputer(const DiskEntry &entry)
{
    if (entry.isImage)
        return false;
    if (!entry.machine.isEmpty() && entry.machine != QSysInfo::machineHostName())
        return false;
    const QString path = entry.machine.isEmpty() ? entry.path : entry.devicePath;
    struct stat st;
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISBLK(st.st_mode);
}

UdisksRequest::Kind kindOf(const QString &method, const QJsonObject &extra)
{
    if (method == QLatin1String("mount"))
        return extra.value(QStringLiteral("media")).toBool() ? UdisksRequest::Kind::Mount
                                                             : UdisksRequest::Kind::None;
    if (method == QLatin1String("unmount"))
        return UdisksRequest::Kind::Unmount;
    if (method == QLatin1String("unlock")) // a key file is read as the user by the helper
        return extra.contains(QStringLiteral("passphrase")) ? UdisksRequest::Kind::Unlock
                                                            : UdisksRequest::Kind::None;
    if (method == QLatin1String("lock"))
        return UdisksRequest::Kind::Lock;
    if (method == QLatin1String("power-off"))
        return UdisksRequest::Kind::PowerOff;
    return UdisksRequest::Kind::None;
}

} // namespace

UdisksRequest udisksRequestFor(const DiskEntry &entry, const QString &method, int number,
                               const QJsonObject &extra)
{
    UdisksRequest request;
    const UdisksRequest::Kind kind = kindOf(method, extra);
    if (kind == UdisksRequest::Kind::None || !onThisComputer(entry))
        return request;
    const QString disk = entry.machine.isEmpty() ? entry.path : entry.devicePath;
    if (kind == UdisksRequest::Kind::PowerOff) {
        request.node = disk;
    } else {
        // The kernel's node of the partition, as the helper finds it (never a name made up).
        PartitionNode node;
        QString why;
        if (number <= 0 || !findPartitionNode(disk, number, &node, &why))
            return request;
        request.node = node.path;
    }
    request.kind = kind;
    request.passphrase = extra.value(QStringLiteral("passphrase")).toString();
    return request;
}

bool udisksCanTake(const DiskEntry &entry, const QString &method, const QJsonObject &extra)
{
    return kindOf(method, extra) != UdisksRequest::Kind::None && onThisComputer(entry);
}

void sendToUdisks(UdisksClient *client, const UdisksRequest &request,
                  const UdisksClient::Done &done)
{
    switch (request.kind) {
    case UdisksRequest::Kind::Mount:
        return client->mount(request.node, done);
    case UdisksRequest::Kind::Unmount:
        return client->unmount(request.node, done);
    case UdisksRequest::Kind::Unlock:
        return client->unlock(request.node, request.passphrase, done);
    case UdisksRequest::Kind::Lock:
        return client->lock(request.node, done);
    case UdisksRequest::Kind::PowerOff:
        return client->powerOff(request.node, done);
    case UdisksRequest::Kind::None:
        break;
    }
    done({UdisksClient::Outcome::Absent, {}, {}});
}

HelperReply udisksReply(const UdisksRequest &request, const UdisksClient::Answer &answer)
{
    HelperReply reply;
    if (answer.outcome != UdisksClient::Outcome::Done) {
        reply.error = QCoreApplication::translate("UdisksRoute", "udisks2 could not do it: %1")
                          .arg(answer.message);
        reply.code = -1;
        return reply;
    }
    QJsonObject result{{QStringLiteral("device"), request.node},
                       {QStringLiteral("via"), QStringLiteral("udisks2")}};
    if (request.kind == UdisksRequest::Kind::Mount)
        result.insert(QStringLiteral("mounted"), QJsonArray{answer.value});
    if (request.kind == UdisksRequest::Kind::PowerOff)
        result.insert(QStringLiteral("powered_off"), true);
    if (request.kind == UdisksRequest::Kind::Unlock) {
        // udisks2 names the mapping luks-UUID too; sysfs says which it opened.
        const QString name = luksMappingsOf(request.node).value(0);
        result.insert(QStringLiteral("mapping"), name);
        result.insert(QStringLiteral("mapper_path"), QStringLiteral("/dev/mapper/") + name);
    }
    reply.result = result;
    return reply;
}
