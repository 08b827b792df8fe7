#include "device/imagesectorsize.h"

#include <QFile>

namespace partwise {

namespace {

bool hasGptSignatureAt(QFile &file, qint64 offset)
{
    static const QByteArray signature("EFI PART");
    if (!file.seek(offset))
        return false;
    return file.read(signature.size()) == signature;
}

} // namespace

qint64 detectImageSectorSize(const QString &imagePath)
{
    QFile file(imagePath);
    if (!file.open(QIODevice::ReadOnly))
        return 512;
    if (!hasGptSignatureAt(file, 512) && hasGptSignatureAt(file, 4096))
        return 4096;
    return 512;
}

} // namespace partwise
