#include "alignmentstyle.h"

#include "uiresources.h"

#include <QCoreApplication>
#include <QHash>
#include <QPainter>
#include <QPixmap>
#include <QSvgRenderer>

using namespace partwise;

namespace {

QString iconPath(AlignmentStatus status)
{
    switch (status) {
    case AlignmentStatus::Aligned:
        return QStringLiteral(":/partwise/icons/aligned.svg");
    case AlignmentStatus::SectorAligned:
        return QStringLiteral(":/partwise/icons/sector-aligned.svg");
    case AlignmentStatus::Misaligned:
        return QStringLiteral(":/partwise/icons/misaligned.svg");
    case AlignmentStatus::Container:
    case AlignmentStatus::NotApplicable:
        break;
    }
    return QString();
}

// Rendered with QSvgRenderer rather than loaded through the SVG icon engine plugin, so the
// icons appear even where the plugin is missing (minimal live systems).
QIcon renderIcon(const QString &path)
{
    ensureUiResources();
    QSvgRenderer renderer(path);
    if (!renderer.isValid())
        return QIcon();
    QIcon icon;
    // Up to 96 px: 16 and 24 px icons stay sharp at 200 % and 300 % scaling too.
    for (int size : {16, 24, 32, 48, 64, 96}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        renderer.render(&painter);
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace

namespace AlignmentStyle {

QColor outlineColor(AlignmentStatus status)
{
    switch (status) {
    case AlignmentStatus::Misaligned:
        return QColor(211, 32, 32);
    case AlignmentStatus::SectorAligned:
        return QColor(230, 150, 0);
    case AlignmentStatus::Aligned:
        return QColor(46, 125, 50);
    case AlignmentStatus::Container:
    case AlignmentStatus::NotApplicable:
        break;
    }
    return QColor();
}

QIcon icon(AlignmentStatus status)
{
    static QHash<int, QIcon> cache;
    const int key = int(status);
    auto it = cache.constFind(key);
    if (it != cache.constEnd())
        return *it;
    const QString path = iconPath(status);
    const QIcon result = path.isEmpty() ? QIcon() : renderIcon(path);
    cache.insert(key, result);
    return result;
}

QString title(AlignmentStatus status)
{
    switch (status) {
    case AlignmentStatus::Aligned:
        return QCoreApplication::translate("AlignmentStyle", "Aligned");
    case AlignmentStatus::SectorAligned:
        return QCoreApplication::translate("AlignmentStyle", "Sector-aligned");
    case AlignmentStatus::Misaligned:
        return QCoreApplication::translate("AlignmentStyle", "Misaligned");
    case AlignmentStatus::Container:
        return QCoreApplication::translate("AlignmentStyle", "Container");
    case AlignmentStatus::NotApplicable:
        break;
    }
    return QString();
}

QColor errorTextColor(const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Window).lightnessF() < 0.5;
    return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x00, 0x20);
}

QString errorStyleSheet(const QPalette &palette)
{
    return QStringLiteral("color: %1;").arg(errorTextColor(palette).name());
}

} // namespace AlignmentStyle
