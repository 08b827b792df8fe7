#pragma once

// How the layers inside partitions (LUKS, LVM) appear in `check`: a `layers` list per partition
// in the JSON (the shape README.md's "Alignment through LUKS and LVM" gives), and in the text a
// line for every layer that is misaligned or could not be read. Each layer's data offset is judged
// like a partition's start (judgeByte), so a LUKS payload 512 bytes past a 4 KiB boundary is
// "misaligned" however well its partition sits.

#include "align/alignmentgeometry.h"
#include "align/alignmentverdict.h"
#include "table/storagelayer.h"

#include <QJsonArray>
#include <QStringList>

namespace partwise {

// Unreadable layers have no verdict: their status is "unreadable".
AlignmentVerdict judgeLayer(const StorageLayer &layer, const AlignmentGeometry &geometry);
bool layerMisaligned(const StorageLayer &layer, const AlignmentGeometry &geometry);

QJsonArray layersToJson(const StorageLayers &layers, const AlignmentGeometry &geometry);

// "partition 2: LUKS1 data starts 512 bytes past a physical sector ... " lines, for the
// layers worth a line (misaligned or unreadable).
QStringList layerLines(int partitionNumber, const StorageLayers &layers,
                       const AlignmentGeometry &geometry);

// "LUKS1", "LUKS2", "LVM physical volume": the layer's name for people.
QString layerDisplayName(const StorageLayer &layer);

} // namespace partwise
