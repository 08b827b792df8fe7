#pragma once

#include "align/alignmentverdict.h"

#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QString>

// How each alignment status looks everywhere in the window, so the map, the list and the
// device chooser agree: misaligned is red, sector-aligned amber, aligned green.
namespace AlignmentStyle {

QColor outlineColor(partwise::AlignmentStatus status);
QIcon icon(partwise::AlignmentStatus status);    // null for containers and free space
QString title(partwise::AlignmentStatus status); // translated "Misaligned", "Sector-aligned", ...

// Error text that stays readable on the palette in use: dark red on a light window, a light
// red on a dark one. errorStyleSheet() is the same as a "color: …;" style sheet.
QColor errorTextColor(const QPalette &palette);
QString errorStyleSheet(const QPalette &palette);

} // namespace AlignmentStyle
