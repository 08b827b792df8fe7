#include "blkidprobe.h"

#include "toolrun.h"

namespace pwtest {

BlkidInfo blkidProbe(const QString &path, qint64 offset)
{
    BlkidInfo info;
    QStringList args{QStringLiteral("-p"), QStringLiteral("-o"), QStringLiteral("export")};
    if (offset > 0)
        args << QStringLiteral("-O") << QString::number(offset);
    args << path;
    const ToolResult r = runTool(QStringLiteral("blkid"), args);
    if (r.started && !r.crashed && r.exitCode == 2)
        return info; // nothing recognised
    if (!r.ok()) {
        info.error = r.describe();
        return info;
    }
    info.found = true;
    for (const QString &line : QString::fromUtf8(r.out).split(QLatin1Char('\n'))) {
        const QString key = line.section(QLatin1Char('='), 0, 0);
        const QString value = line.section(QLatin1Char('='), 1);
        if (key == QLatin1String("TYPE"))
            info.type = value;
        else if (key == QLatin1String("LABEL"))
            info.label = value;
        else if (key == QLatin1String("UUID"))
            info.uuid = value;
    }
    return info;
}

} // namespace pwtest
