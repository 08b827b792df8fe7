#pragma once

#include <QSize>
#include <QString>

#include <functional>

class QPainter;
class QPixmap;
class QRectF;
class QWidget;

// File → Export Map… and the sector ruler's Export…: a picture as a PNG (what is on screen) or
// an SVG (drawn again as vectors), chosen by the file name's suffix.
namespace PictureExporter {

struct Picture
{
    QSize size;
    std::function<void(QPainter &, const QRectF &)> render; // draws it at any size
    std::function<QPixmap()> grab;                          // what is on screen
    QString title;
    QString description; // the same facts as text, for screen readers and the SVG's <desc>
};

bool exportPicture(const Picture &picture, const QString &path, QString *error);

// A widget as a picture: its size, its grab, `render` for the SVG, its accessible description.
Picture widgetPicture(QWidget *widget, std::function<void(QPainter &, const QRectF &)> render,
                      const QString &title);

// Asks where to save, offering PNG and SVG, in the folder used last; empty if cancelled.
QString choosePath(QWidget *parent, const QString &title, const QString &suggestedName);

} // namespace PictureExporter
