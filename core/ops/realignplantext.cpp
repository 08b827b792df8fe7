#include "ops/realignplantext.h"

#include "align/realignways.h"
#include "base/humansize.h"
#include "move/moveplan.h"

#include <QTextStream>

namespace partwise {

QString realignPlanText(const RealignPlan &plan, const QMap<int, QString> &copiedWhole,
                        const QStringList &layerNotes)
{
    QString text;
    QTextStream s(&text);
    if (plan.moves.isEmpty())
        s << "Nothing to move.\n";
    for (const RealignChoice &c : plan.choices) {
        if (c.options.size() < 2)
            continue;
        s << QStringLiteral("  partition %1 can be realigned %2 ways:\n")
                 .arg(c.number)
                 .arg(c.options.size());
        for (int k = 0; k < c.options.size(); ++k)
            s << QStringLiteral("    %1 %2: %3\n")
                     .arg(k == c.chosen ? QStringLiteral("*") : QStringLiteral(" "),
                          realignWayName(c.options[k].way), c.options[k].describe());
    }
    for (const PartitionMove &m : plan.moves) {
        if (m.tableOnly()) {
            s << QStringLiteral("  extended partition %1: sectors %2–%3 → %4–%5 in the table\n")
                     .arg(m.number)
                     .arg(m.oldStart)
                     .arg(m.oldEnd)
                     .arg(m.newStart)
                     .arg(m.newEnd);
            continue;
        }
        s << QStringLiteral("  partition %1 (%2): sectors %3–%4 → %5–%6, %7")
                 .arg(m.number)
                 .arg(m.filesystem.isEmpty() ? QStringLiteral("no filesystem") : m.filesystem)
                 .arg(m.oldStart)
                 .arg(m.oldEnd)
                 .arg(m.newStart)
                 .arg(m.newEnd)
                 .arg(m.recreateSwap
                          ? QStringLiteral("swap recreated, nothing copied")
                          : QStringLiteral("%1 to move").arg(humanSize(plan.bytesToCopy(m))));
        if (!m.recreateSwap && plan.bytesInUse.value(m.number, -1) >= 0)
            s << QStringLiteral(" (the blocks in use)");
        else if (!m.recreateSwap && copiedWhole.contains(m.number))
            s << QStringLiteral(" (every byte: %1)").arg(copiedWhole.value(m.number));
        if (m.shrinkSectors > 0)
            s << QStringLiteral(", filesystem shrunk by %1 sectors first").arg(m.shrinkSectors);
        const qint64 shiftSectors =
            m.newStart > m.oldStart ? m.newStart - m.oldStart : m.oldStart - m.newStart;
        if (const QString overlap = move::overlapPlanNote(
                static_cast<std::uint64_t>(shiftSectors * plan.geometry.logicalSectorSize),
                move::MoveRequest::kDefaultChunkSize);
            !m.recreateSwap && !overlap.isEmpty())
            s << QStringLiteral(", overlapping data: %1").arg(overlap);
        s << "\n";
    }
    for (const RealignSkip &k : plan.skipped)
        s << QStringLiteral("  partition %1 stays: %2\n").arg(k.number).arg(k.reason);
    for (const QString &note : layerNotes)
        s << QStringLiteral("  note: %1\n").arg(note);
    return text;
}

QString realignPlanText(const PreparedRealign &prepared)
{
    QString text = realignPlanText(prepared.plan, prepared.copiedWhole, prepared.layerNotes);
    for (const QString &fix : prepared.bootFixes)
        text += QStringLiteral("  boot: %1\n").arg(fix);
    for (const QString &broken : prepared.bootBreaks)
        text += QStringLiteral("  boot BREAKS: %1\n").arg(broken);
    for (const QString &unchecked : prepared.unchecked)
        text += QStringLiteral("  unchecked: %1\n").arg(unchecked);
    if (!prepared.plan.moves.isEmpty())
        text += QStringLiteral("  discard: %1\n").arg(realignDiscardText(prepared.discard));
    return text;
}

} // namespace partwise
