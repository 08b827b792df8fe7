// A window's mount actions without the window, for the guest suite to run as a desktop user:
// `partwise-test-mountroute METHOD DISK [PARTITION] [media]` sends METHOD (mount, unmount,
// power-off) for partition PARTITION of this computer's DISK through the window's own
// PartitionMounter, as Partition → Mount On… (media: under the media folder), Unmount and Drive →
// Power Off do, with no helper running, and prints the answer as one JSON line:
// {"ok":..., "error":..., "result":{... "via":"udisks2" when udisks2 did it}}. Exit status 0
// when it was done, 1 when not, 2 on bad arguments.
#include "disklistmodel.h"
#include "mount/partitionmounter.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSysInfo>

#include <cstdio>

#include <unistd.h>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.size() < 2)
        return 2;
    DiskEntry entry; // this computer's disk as a user's window lists it (through the helper)
    entry.machine = QSysInfo::machineHostName();
    entry.devicePath = args.at(1);
    entry.path = entry.machine + QLatin1Char(':') + entry.devicePath;
    if (::geteuid() == 0) { // root's own window lists it by its path
        entry = DiskEntry();
        entry.path = args.at(1);
    }
    const int number = args.value(2).toInt();
    QJsonObject extra;
    if (args.contains(QStringLiteral("media")))
        extra.insert(QStringLiteral("media"), true);
    PartitionMounter mounter([](const QString &) { return nullptr; }); // no helper runs
    int status = 1;
    mounter.call(entry, args.at(0), number, extra, [&](const HelperReply &reply) {
        const QJsonObject out{{QStringLiteral("ok"), reply.ok()},
                              {QStringLiteral("error"), reply.error},
                              {QStringLiteral("result"), reply.result}};
        std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Compact).constData());
        status = reply.ok() ? 0 : 1;
        app.quit();
    });
    app.exec();
    return status;
}
