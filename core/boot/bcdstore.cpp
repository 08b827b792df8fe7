#include "boot/bcdstore.h"

#include "base/toolrunner.h"
#include "fs/resizesupport.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QTemporaryFile>
#include <QtEndian>

#include <hivex.h>

#include <cstdlib>

namespace partwise {

namespace {

constexpr int kDeviceBlock = 0x58; // a partition device's whole layout
constexpr quint32 kPartitionDevice = 6;
constexpr quint32 kMbrStyle = 1;

QString takeString(char *s)
{
    const QString out = s ? QString::fromUtf8(s) : QString();
    std::free(s);
    return out;
}

// An element id's format nibble (bits 24–27) is 1 for devices: "11000001", "21000001", ...
bool isDeviceElement(const QString &id)
{
    return id.size() == 8 && id[1] == QLatin1Char('1');
}

} // namespace

QList<BcdPartitionDevice> parseBcdDeviceElement(const QByteArray &d)
{
    QList<BcdPartitionDevice> found;
    for (int at = 0; at + kDeviceBlock <= d.size(); at += 4) {
        const char *p = d.constData() + at;
        if (qFromLittleEndian<quint32>(p + 0x10) != kPartitionDevice ||
            qFromLittleEndian<quint32>(p + 0x18) != 0x48 ||
            qFromLittleEndian<quint32>(p + 0x34) != kMbrStyle)
            continue;
        BcdPartitionDevice dev;
        dev.partitionOffsetBytes = qFromLittleEndian<qint64>(p + 0x20);
        dev.diskSignature = qFromLittleEndian<quint32>(p + 0x38);
        found << dev;
    }
    return found;
}

BcdStore readBcdHive(const QString &hivePath)
{
    BcdStore store;
    store.found = true;
    hive_h *h = hivex_open(hivePath.toLocal8Bit().constData(), 0);
    if (!h) {
        store.error = QStringLiteral("\\Boot\\BCD is not a registry hive libhivex can read.");
        return store;
    }
    const hive_node_h objects = hivex_node_get_child(h, hivex_root(h), "Objects");
    if (!objects) {
        store.error = QStringLiteral("\\Boot\\BCD has no Objects key.");
        hivex_close(h);
        return store;
    }
    hive_node_h *objs = hivex_node_children(h, objects);
    for (hive_node_h *o = objs; o && *o; ++o) {
        const QString object = takeString(hivex_node_name(h, *o));
        const hive_node_h elements = hivex_node_get_child(h, *o, "Elements");
        if (!elements)
            continue;
        hive_node_h *els = hivex_node_children(h, elements);
        for (hive_node_h *e = els; e && *e; ++e) {
            const QString element = takeString(hivex_node_name(h, *e));
            if (!isDeviceElement(element))
                continue;
            const hive_value_h value = hivex_node_get_value(h, *e, "Element");
            hive_type type;
            size_t length = 0;
            char *data = value ? hivex_value_value(h, value, &type, &length) : nullptr;
            if (data && type == hive_t_REG_BINARY && length < (1u << 20))
                for (BcdPartitionDevice dev :
                     parseBcdDeviceElement(QByteArray(data, qsizetype(length)))) {
                    dev.object = object;
                    dev.element = element;
                    store.devices << dev;
                }
            std::free(data);
        }
        std::free(els);
    }
    std::free(objs);
    hivex_close(h);
    store.read = true;
    return store;
}

BcdStore readBcdFromNtfs(const FilesystemLocation &where, qint64 bytes)
{
    BcdStore store;
    const QString ntfscat = findTool(QStringLiteral("ntfscat"));
    if (ntfscat.isEmpty()) {
        store.error = QStringLiteral("ntfscat (Debian package ntfs-3g) is not installed.");
        return store;
    }
    // Read with a bound: a hostile stick's "BCD" could be as large as its filesystem, and
    // root's temporary folder may be memory. A real store is a few hundred KiB.
    constexpr qint64 kMaxBcdBytes = 16 << 20;
    QByteArray content;
    const ToolResult r = onFilesystemNode(where, bytes, true, [&](const QString &node) {
        QProcess p;
        p.start(ntfscat, {node, QStringLiteral("/Boot/BCD")});
        const QDeadlineTimer deadline(60000);
        while (p.state() != QProcess::NotRunning || p.bytesAvailable() > 0) {
            p.waitForReadyRead(1000);
            content += p.readAllStandardOutput();
            if (content.size() > kMaxBcdBytes || deadline.hasExpired()) {
                p.kill();
                p.waitForFinished();
                return ToolResult::failed(
                    QStringLiteral("\\Boot\\BCD took over a minute or 16 MiB: not a BCD store."));
            }
        }
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
            return ToolResult::failed(QString::fromLocal8Bit(p.readAllStandardError()).trimmed());
        return ToolResult::succeeded(QString());
    });
    if (!r.ok) {
        // ntfscat says "Failed to open inode" when there is no such file: no store, no error.
        store.found = !r.error.contains(QLatin1String("open"), Qt::CaseInsensitive) &&
                      !r.error.contains(QLatin1String("No such"), Qt::CaseInsensitive);
        store.error = store.found ? r.error : QStringLiteral("No \\Boot\\BCD on this partition.");
        return store;
    }
    // libhivex opens a file by name: a private one of this process's (O_EXCL, 0600).
    QTemporaryFile hive;
    if (!hive.open() || hive.write(content) != content.size() || !hive.flush()) {
        store.error = QStringLiteral("Cannot make a temporary file: %1").arg(hive.errorString());
        return store;
    }
    return readBcdHive(hive.fileName());
}

} // namespace partwise
