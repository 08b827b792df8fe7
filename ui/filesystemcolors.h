#pragma once

#include <QColor>
#include <QString>

// Fill colours of filesystems on the disk map, chosen to stay clear of the red and amber
// that mark alignment problems.
QColor filesystemColor(const QString &filesystem);
// Black or white, whichever reads better on `fill` (fills are ours, not the palette's).
QColor textColorOn(const QColor &fill);
