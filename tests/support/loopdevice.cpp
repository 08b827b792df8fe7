#include "loopdevice.h"

#include "toolrun.h"

#include <QFile>
#include <QFileInfo>
#include <unistd.h>

namespace pwtest {

LoopDevice::LoopDevice(const QString &image, int sectorSize, bool readOnly)
{
    QStringList args{QStringLiteral("-f"), QStringLiteral("--show")};
    if (sectorSize > 0)
        args << QStringLiteral("--sector-size") << QString::number(sectorSize);
    if (readOnly)
        args << QStringLiteral("--read-only");
    args << image;
    const ToolResult r = runTool(QStringLiteral("losetup"), args);
    if (r.ok())
        m_path = QString::fromUtf8(r.out).trimmed();
    else
        m_error = r.describe();
}

LoopDevice::~LoopDevice()
{
    if (m_path.isEmpty())
        return;
    if (m_partitionsAdded)
        runTool(QStringLiteral("partx"), {QStringLiteral("-d"), m_path});
    runTool(QStringLiteral("losetup"), {QStringLiteral("-d"), m_path});
}

bool LoopDevice::addPartitions()
{
    // A loop device detached earlier without `partx -d` keeps its old partition nodes (the
    // kernel drops only those it scanned itself), and `partx -a` then fails on them: clear
    // them first. Nothing to clear is not an error.
    runTool(QStringLiteral("partx"), {QStringLiteral("-d"), m_path});
    const ToolResult r = runTool(QStringLiteral("partx"), {QStringLiteral("-a"), m_path});
    if (!r.ok()) {
        m_error = r.describe();
        return false;
    }
    m_partitionsAdded = true;
    return true;
}

QString LoopDevice::partitionNode(int number) const
{
    return m_path + QLatin1Char('p') + QString::number(number);
}

qint64 LoopDevice::queueValue(const QString &name) const
{
    QFile f(QStringLiteral("/sys/block/%1/queue/%2").arg(QFileInfo(m_path).fileName(), name));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    bool ok = false;
    const qint64 v = f.readAll().trimmed().toLongLong(&ok);
    return ok ? v : -1;
}

bool runningAsRoot()
{
    return geteuid() == 0;
}

bool runningInCi()
{
    return qEnvironmentVariable("CI") == QLatin1String("true");
}

} // namespace pwtest
