#include "device/diskenumerator.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

namespace partwise {

namespace {

qint64 sectorsOf(const QString &name)
{
    QFile f(QStringLiteral("/sys/block/%1/size").arg(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toLongLong() : 0;
}

} // namespace

bool isIgnoredDiskName(const QString &name)
{
    static const QRegularExpression ignored(QStringLiteral("^(z?ram)[0-9]+$"));
    return ignored.match(name).hasMatch();
}

QStringList listDisks()
{
    QStringList paths;
    const QDir block(QStringLiteral("/sys/block"));
    for (const QString &name : block.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString node = QStringLiteral("/dev/") + name;
        if (!isIgnoredDiskName(name) && sectorsOf(name) > 0 && QFile::exists(node))
            paths << node;
    }
    paths.sort();
    return paths;
}

} // namespace partwise
