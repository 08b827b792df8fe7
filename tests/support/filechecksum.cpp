#include "filechecksum.h"

#include <QCryptographicHash>
#include <QFile>

namespace pwtest {

QByteArray fileSha256(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&f))
        return {};
    return hash.result().toHex();
}

} // namespace pwtest
