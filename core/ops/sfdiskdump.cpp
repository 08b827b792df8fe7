#include "ops/sfdiskdump.h"

#include <QRegularExpression>

namespace partwise {

bool DumpedPartition::isExtended() const
{
    // The DOS extended types (CHS, LBA, Linux): containers of EBRs, not of data.
    return type == QLatin1String("5") || type == QLatin1String("f") || type == QLatin1String("85");
}

const DumpedPartition *SfdiskDump::partition(int number) const
{
    for (const DumpedPartition &p : partitions)
        if (p.number == number)
            return &p;
    return nullptr;
}

bool SfdiskDump::hasExtended() const
{
    for (const DumpedPartition &p : partitions)
        if (p.isExtended())
            return true;
    return false;
}

namespace {

QString field(const QString &fields, const QString &name)
{
    const QRegularExpression re(QStringLiteral("(?:^|,)\\s*%1=\\s*([^,]+)").arg(name));
    return re.match(fields).captured(1).trimmed();
}

} // namespace

SfdiskDump parseSfdiskDump(const QString &text)
{
    SfdiskDump dump;
    // "NAME : start=..., size=..., type=..."; the name's last digits are the number
    // (sda1, nvme0n1p5, disk.img6).
    static const QRegularExpression partitionLine(QStringLiteral("^(.*?)(\\d+)\\s+:\\s+(.*)$"));
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("label:")))
            dump.label = line.mid(6).trimmed();
        else if (line.startsWith(QLatin1String("sector-size:")))
            dump.sectorSize = line.mid(12).trimmed().toLongLong();
        else if (const QRegularExpressionMatch m = partitionLine.match(line); m.hasMatch()) {
            DumpedPartition p;
            p.number = m.captured(2).toInt();
            p.start = field(m.captured(3), QStringLiteral("start")).toLongLong();
            p.size = field(m.captured(3), QStringLiteral("size")).toLongLong();
            p.type = field(m.captured(3), QStringLiteral("type")).toLower();
            QStringList rest;
            for (const QString &f : m.captured(3).split(QLatin1Char(',')))
                if (const QString t = f.trimmed(); !t.startsWith(QLatin1String("start=")) &&
                                                   !t.startsWith(QLatin1String("size=")) &&
                                                   !t.startsWith(QLatin1String("type=")))
                    rest << t;
            p.entry = rest.join(QStringLiteral(", "));
            dump.partitions << p;
        }
    }
    if (dump.sectorSize <= 0)
        dump.sectorSize = 512;
    return dump;
}

} // namespace partwise
