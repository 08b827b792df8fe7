#include "mountmark.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>

using namespace partwise;

namespace MountMark {

QPixmap lock(int size, const QColor &color)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const qreal s = size;
    // The shackle, then the body.
    painter.setPen(QPen(color, qMax<qreal>(1.2, s / 9)));
    painter.setBrush(Qt::NoBrush);
    painter.drawArc(QRectF(s * 0.28, s * 0.08, s * 0.44, s * 0.5), 0, 180 * 16);
    painter.drawLine(QPointF(s * 0.28, s * 0.33), QPointF(s * 0.28, s * 0.48));
    painter.drawLine(QPointF(s * 0.72, s * 0.33), QPointF(s * 0.72, s * 0.48));
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawRoundedRect(QRectF(s * 0.16, s * 0.45, s * 0.68, s * 0.5), s * 0.08, s * 0.08);
    return pixmap;
}

QIcon lockIcon()
{
    QIcon icon;
    const QColor color = QPalette().color(QPalette::Text);
    for (int size : {16, 24, 32})
        icon.addPixmap(lock(size, color));
    return icon;
}

QString text(const PartitionInfo &partition)
{
    QStringList parts;
    if (!partition.mountPoints.isEmpty())
        parts << QCoreApplication::translate("MountMark", "Mounted on %1")
                     .arg(partition.mountPoints.join(QStringLiteral(", ")));
    if (partition.swapOn)
        parts << QCoreApplication::translate("MountMark", "Active swap");
    return parts.join(QStringLiteral("; "));
}

} // namespace MountMark
