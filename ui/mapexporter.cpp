#include "mapexporter.h"

#include "diskmapwidget.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>

namespace {

bool exportSvg(const DiskMapWidget &map, const QString &path, QString *error)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(map.size());
    generator.setViewBox(QRect(QPoint(0, 0), map.size()));
    generator.setTitle(QCoreApplication::translate("MapExporter", "Partwise disk map"));
    generator.setDescription(map.accessibleDescription());
    QPainter painter;
    if (!painter.begin(&generator)) {
        *error = QCoreApplication::translate("MapExporter", "Cannot write %1.").arg(path);
        return false;
    }
    map.render(painter, QRectF(QPointF(0, 0), map.size()));
    painter.end();
    return true;
}

} // namespace

namespace MapExporter {

bool exportMap(DiskMapWidget &map, const QString &path, QString *error)
{
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0)
        return exportSvg(map, path, error);
    const QPixmap pixmap = map.grab();
    if (!pixmap.save(path, "PNG")) {
        *error = QCoreApplication::translate("MapExporter", "Cannot write %1.").arg(path);
        return false;
    }
    return true;
}

} // namespace MapExporter
