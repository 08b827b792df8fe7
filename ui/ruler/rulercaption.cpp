#include "rulercaption.h"

#include "base/humansize.h"

#include <QCoreApplication>
#include <QStringList>

#include <QLocale>
#include <algorithm>

using namespace partwise;

namespace {

QString bytes(qint64 value)
{
    return QLocale().toString(value);
}

} // namespace

QString RulerCaption::edgeSentence(const SectorRuler &r)
{
    QString where;
    switch (r.edge) {
    case RulerEdge::Start:
        where = tr("The partition starts at byte %1");
        break;
    case RulerEdge::End:
        where = tr("The partition ends before byte %1");
        break;
    case RulerEdge::Free:
        where = tr("A new partition here would start at byte %1");
        break;
    }
    where = where.arg(bytes(r.focusByte));
    if (r.focusInPhysical == 0 && r.focusInGrain == 0)
        return tr("%1, on a %2-byte physical sector boundary and on the %3 grain.")
            .arg(where, bytes(r.physicalSize), humanSize(r.grainBytes));
    if (r.focusInPhysical == 0)
        return tr("%1, on a %2-byte physical sector boundary, %3 bytes past a grain boundary.")
            .arg(where, bytes(r.physicalSize), bytes(r.focusInGrain));
    return tr("%1, %2 bytes into a %3-byte physical sector.")
        .arg(where, bytes(r.focusInPhysical), bytes(r.physicalSize));
}

QString RulerCaption::costSentence(const SectorRuler &r, const AlignmentGeometry &g)
{
    if (r.blocks.empty())
        return QString();
    if (!r.blocksStraddle())
        return tr("Every %1 block covers whole physical sectors: the drive writes it without "
                  "reading first.")
            .arg(humanSize(r.blockSize));
    const RulerBlock &block = *std::find_if(r.blocks.begin(), r.blocks.end(),
                                            [](const RulerBlock &b) { return b.straddles(); });
    const qint64 touched = block.lastPhysical - block.firstPhysical + 1;
    QString what =
        touched == 1
            ? tr("Each %1 block fills only part of one physical sector, so one write of it makes "
                 "the drive read that sector, change it, and write it back.")
                  .arg(humanSize(r.blockSize))
            : tr("Each %1 block touches %2 physical sectors and covers %3 of them only in part, "
                 "so one write of it makes the drive read %2 sectors, change them, and write %2.")
                  .arg(humanSize(r.blockSize))
                  .arg(touched)
                  .arg(block.partialSectors);
    if (g.writePenaltyMeasured > 1.0)
        what += QLatin1Char(' ') + tr("Measured on this drive: such writes took %1 times as long.")
                                       .arg(QLocale().toString(g.writePenaltyMeasured, 'f', 1));
    else
        what += QLatin1Char(' ') +
                tr("Not measured on this drive; published benchmarks found such writes 3 to 25 "
                   "times slower (Drive → Measure Physical Sector… measures it).");
    return what;
}

QString RulerCaption::caption(const SectorRuler &ruler, const AlignmentGeometry &geometry)
{
    const QString cost = costSentence(ruler, geometry);
    return cost.isEmpty() ? edgeSentence(ruler) : edgeSentence(ruler) + QLatin1Char(' ') + cost;
}

QString RulerCaption::physicalSource(PhysicalSource source)
{
    switch (source) {
    case PhysicalSource::Reported:
        return tr("reported");
    case PhysicalSource::Assumed:
        return tr("assumed");
    case PhysicalSource::Measured:
        return tr("measured");
    }
    return QString();
}

QString RulerCaption::details(const SectorRuler &ruler, const AlignmentGeometry &geometry)
{
    QStringList lines{caption(ruler, geometry)};
    for (const RulerBlock &block : ruler.blocks) {
        const QString sectors =
            block.firstPhysical == block.lastPhysical
                ? tr("physical sector %1").arg(block.firstPhysical)
                : tr("physical sectors %1–%2").arg(block.firstPhysical).arg(block.lastPhysical);
        const QString line = block.straddles() ? tr("Block %1 (bytes %2–%3): %4, %5 in part.")
                                               : tr("Block %1 (bytes %2–%3): %4, whole.");
        const QString filled =
            line.arg(block.number).arg(bytes(block.begin), bytes(block.end - 1), sectors);
        lines << (block.straddles() ? filled.arg(block.partialSectors) : filled);
    }
    return lines.join(QLatin1Char('\n'));
}
