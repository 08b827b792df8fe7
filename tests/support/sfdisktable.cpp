#include "sfdisktable.h"

#include "toolrun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace pwtest {

namespace {

int numberFromNode(const QString &node)
{
    static const QRegularExpression trailing(QStringLiteral("(\\d+)$"));
    const auto m = trailing.match(node);
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

QString kindOf(const QString &label, int number, const QString &type)
{
    if (label != QLatin1String("dos"))
        return QStringLiteral("primary");
    if (number > 4)
        return QStringLiteral("logical");
    const QString t = type.toLower();
    if (t == QLatin1String("5") || t == QLatin1String("f") || t == QLatin1String("85"))
        return QStringLiteral("extended");
    return QStringLiteral("primary");
}

SfdiskPartition makePartition(const QString &label, const QString &node, qint64 start, qint64 size,
                              const QString &type)
{
    SfdiskPartition p;
    p.node = node;
    p.number = numberFromNode(node);
    p.start = start;
    p.size = size;
    p.type = type;
    p.kind = kindOf(label, p.number, type);
    return p;
}

} // namespace

QString SfdiskTable::partedLabel() const
{
    return label == QLatin1String("dos") ? QStringLiteral("msdos") : label;
}

QList<qint64> SfdiskTable::starts() const
{
    QList<qint64> result;
    for (const SfdiskPartition &p : partitions)
        result << p.start;
    return result;
}

const SfdiskPartition *SfdiskTable::find(int number) const
{
    for (const SfdiskPartition &p : partitions)
        if (p.number == number)
            return &p;
    return nullptr;
}

bool SfdiskTable::writeImage(const QString &image, qint64 bytes, const QByteArray &script,
                             QString *error)
{
    QFile file(image);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || !file.resize(bytes)) {
        *error = file.errorString();
        return false;
    }
    file.close();
    const ToolResult sfdisk =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image}, script);
    if (!sfdisk.ok())
        *error = sfdisk.describe();
    return sfdisk.ok();
}

SfdiskTable SfdiskTable::read(const QString &device)
{
    SfdiskTable t;
    const ToolResult r = runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), device});
    if (!r.ok()) {
        t.error = r.describe();
        return t;
    }
    QJsonParseError pe;
    const QJsonObject table = QJsonDocument::fromJson(r.out, &pe)
                                  .object()
                                  .value(QStringLiteral("partitiontable"))
                                  .toObject();
    if (pe.error != QJsonParseError::NoError || table.isEmpty()) {
        t.error =
            QStringLiteral("sfdisk -J %1: unparsable output: %2").arg(device, pe.errorString());
        return t;
    }
    t.label = table.value(QStringLiteral("label")).toString();
    t.sectorSize = table.value(QStringLiteral("sectorsize")).toInt(512);
    t.firstLba = table.value(QStringLiteral("firstlba")).toInteger();
    for (const QJsonValue v : table.value(QStringLiteral("partitions")).toArray()) {
        const QJsonObject o = v.toObject();
        t.partitions.append(makePartition(t.label, o.value(QStringLiteral("node")).toString(),
                                          o.value(QStringLiteral("start")).toInteger(),
                                          o.value(QStringLiteral("size")).toInteger(),
                                          o.value(QStringLiteral("type")).toString()));
        t.partitions.last().entry = o;
    }
    t.ok = true;
    return t;
}

SfdiskTable SfdiskTable::readWithSectorSize(const QString &image, int sectorSize)
{
    SfdiskTable t;
    const ToolResult r =
        runTool(QStringLiteral("fdisk"),
                {QStringLiteral("-b"), QString::number(sectorSize), QStringLiteral("-l"),
                 QStringLiteral("-o"), QStringLiteral("Device,Start,Sectors,Type-UUID"), image});
    if (!r.ok()) {
        t.error = r.describe();
        return t;
    }
    const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        if (line.startsWith(QLatin1String("Disklabel type:")))
            t.label = line.section(QLatin1Char(':'), 1).trimmed();
        const QStringList cols = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (cols.size() == 4 && cols[0].startsWith(image))
            t.partitions.append(makePartition(QStringLiteral("gpt"), cols[0], cols[1].toLongLong(),
                                              cols[2].toLongLong(), cols[3]));
    }
    if (t.label != QLatin1String("gpt")) {
        t.error = QStringLiteral("fdisk -b %1 -l %2: no GPT found").arg(sectorSize).arg(image);
        return t;
    }
    t.sectorSize = sectorSize;
    t.ok = true;
    return t;
}

} // namespace pwtest
