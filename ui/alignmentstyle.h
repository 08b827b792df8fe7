#pragma once

#include "align/alignmentverdict.h"

#include <QColor>
#include <QIcon>
#include <QString>

// How each alignment status looks everywhere in the window, so the map, the list and the
// device chooser agree: misaligned is red, sector-aligned amber, aligned green.
namespace AlignmentStyle {

QColor outlineColor(AlignmentStatus status);
QIcon icon(AlignmentStatus status);    // null for containers and free space
QString title(AlignmentStatus status); // translated "Misaligned", "Sector-aligned", ...

} // namespace AlignmentStyle
