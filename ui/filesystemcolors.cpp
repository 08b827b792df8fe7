#include "filesystemcolors.h"

#include <QHash>

QColor filesystemColor(const QString &filesystem)
{
    static const QHash<QString, QColor> colors = {
        {QStringLiteral("ext2"), QColor(0x9d, 0xb8, 0xd2)},
        {QStringLiteral("ext3"), QColor(0x6a, 0x9b, 0xcb)},
        {QStringLiteral("ext4"), QColor(0x3f, 0x74, 0xb4)},
        {QStringLiteral("btrfs"), QColor(0x2b, 0x8c, 0x8c)},
        {QStringLiteral("xfs"), QColor(0xa8, 0x9f, 0x6a)},
        {QStringLiteral("vfat"), QColor(0x3c, 0x9a, 0x46)},
        {QStringLiteral("exfat"), QColor(0x7f, 0xbf, 0x7b)},
        {QStringLiteral("ntfs"), QColor(0x42, 0xb4, 0xcf)},
        {QStringLiteral("swap"), QColor(0x8e, 0x5b, 0xb5)},
        {QStringLiteral("LVM2_member"), QColor(0xb3, 0x8b, 0xd9)},
        {QStringLiteral("linux_raid_member"), QColor(0x7b, 0x6f, 0xa8)},
        {QStringLiteral("crypto_LUKS"), QColor(0x55, 0x55, 0x77)},
    };
    return colors.value(filesystem, QColor(0xb0, 0xb0, 0xb0));
}

QColor textColorOn(const QColor &fill)
{
    // Relative luminance, cheap version: good enough to pick between black and white.
    const double luminance = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF();
    return luminance > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}
