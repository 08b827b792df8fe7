#include "extimage.h"

#include "toolrun.h"

#include <QStringList>

namespace pwtest {

QString extAt(const QString &image, qint64 startSector)
{
    return QStringLiteral("%1?offset=%2").arg(image).arg(startSector * 512);
}

qint64 extBytes(const QString &image, qint64 startSector)
{
    const QString out = QString::fromUtf8(
        runTool(QStringLiteral("dumpe2fs"), {QStringLiteral("-h"), extAt(image, startSector)}).out);
    qint64 blocks = 0, size = 0;
    for (const QString &line : out.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("Block count:")))
            blocks = line.section(QLatin1Char(':'), 1).trimmed().toLongLong();
        if (line.startsWith(QLatin1String("Block size:")))
            size = line.section(QLatin1Char(':'), 1).trimmed().toLongLong();
    }
    return blocks * size;
}

QByteArray extFile(const QString &image, qint64 startSector, const QString &name)
{
    return runTool(QStringLiteral("debugfs"),
                   {QStringLiteral("-R"), QStringLiteral("cat /%1").arg(name),
                    extAt(image, startSector)})
        .out;
}

} // namespace pwtest
