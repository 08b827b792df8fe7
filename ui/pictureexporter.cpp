#include "pictureexporter.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QSettings>
#include <QSvgGenerator>
#include <QWidget>

namespace {

QString cannotWrite(const QString &path)
{
    return QCoreApplication::translate("PictureExporter", "Cannot write %1.").arg(path);
}

bool exportSvg(const PictureExporter::Picture &picture, const QString &path, QString *error)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(picture.size);
    generator.setViewBox(QRect(QPoint(0, 0), picture.size));
    generator.setTitle(picture.title);
    generator.setDescription(picture.description);
    QPainter painter;
    if (!painter.begin(&generator)) {
        *error = cannotWrite(path);
        return false;
    }
    picture.render(painter, QRectF(QPointF(0, 0), picture.size));
    painter.end();
    return true;
}

} // namespace

namespace PictureExporter {

bool exportPicture(const Picture &picture, const QString &path, QString *error)
{
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0)
        return exportSvg(picture, path, error);
    if (!picture.grab().save(path, "PNG")) {
        *error = cannotWrite(path);
        return false;
    }
    return true;
}

Picture widgetPicture(QWidget *widget, std::function<void(QPainter &, const QRectF &)> render,
                      const QString &title)
{
    Picture picture;
    picture.size = widget->size();
    picture.render = std::move(render);
    picture.grab = [widget] { return widget->grab(); };
    picture.title = title;
    picture.description = widget->accessibleDescription();
    return picture;
}

QString choosePath(QWidget *parent, const QString &title, const QString &suggestedName)
{
    const QString png = QCoreApplication::translate("PictureExporter", "PNG image (*.png)");
    const QString svg = QCoreApplication::translate("PictureExporter", "SVG drawing (*.svg)");
    QString filter = png;
    const QString suggested = QDir(QSettings().value("exportFolder", QDir::homePath()).toString())
                                  .filePath(suggestedName);
    QString path = QFileDialog::getSaveFileName(parent, title, suggested,
                                                png + QStringLiteral(";;") + svg, &filter);
    if (path.isEmpty())
        return path;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter == svg ? QStringLiteral(".svg") : QStringLiteral(".png");
    QSettings().setValue("exportFolder", QFileInfo(path).absolutePath());
    return path;
}

} // namespace PictureExporter
