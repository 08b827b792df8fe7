#include "device/sysfsline.h"

#include <QFile>

namespace partwise {

QString sysfsLine(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromLocal8Bit(f.readLine()).trimmed() : QString();
}

} // namespace partwise
