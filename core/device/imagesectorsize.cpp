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

bool isSupportedSectorSize(qint64 bytes)
{
    return bytes == 512 || bytes == 1024 || bytes == 2048 || bytes == 4096;
}

QString supportedSectorSizesText()
{
    return QStringLiteral("512, 1024, 2048 or 4096");
}

} // namespace partwise
