#pragma once

#include "align/sectorruler.h"

#include <QCoreApplication>
#include <QString>

// What the sector ruler shows, in words: the caption under it, and the text a screen reader
// and an exported SVG carry. The cost of a straddling write is the probe's measurement when
// this drive was measured, and otherwise the range published benchmarks found, said to be that.
class RulerCaption
{
    Q_DECLARE_TR_FUNCTIONS(RulerCaption)

public:
    // One or two sentences: where the edge falls, whether blocks straddle, what one write costs.
    static QString caption(const partwise::SectorRuler &ruler,
                           const partwise::AlignmentGeometry &geometry);
    // The caption followed by every block in the window with the sectors it touches.
    static QString details(const partwise::SectorRuler &ruler,
                           const partwise::AlignmentGeometry &geometry);
    // "reported", "assumed" or "measured", translated, for the physical row's title.
    static QString physicalSource(partwise::PhysicalSource source);

private:
    static QString edgeSentence(const partwise::SectorRuler &ruler);
    static QString costSentence(const partwise::SectorRuler &ruler,
                                const partwise::AlignmentGeometry &geometry);
};
