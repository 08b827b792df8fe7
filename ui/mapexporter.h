#pragma once

#include <QString>

class DiskMapWidget;

// File → Export Map…: the map as a PNG (what is on screen) or an SVG (drawn again as vectors),
// chosen by the file name's suffix.
namespace MapExporter {

bool exportMap(DiskMapWidget &map, const QString &path, QString *error);

} // namespace MapExporter
