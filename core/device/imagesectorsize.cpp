#include "device/imagesectorsize.h"

#include "device/sectorsizehints.h"

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

ImageSectorSize detectImageSectorSize(const QString &imagePath)
{
    QFile file(imagePath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    if (hasGptSignatureAt(file, 512))
        return {};
    if (hasGptSignatureAt(file, 4096))
        return {4096, QString()};
    const SectorSizeHints hints = readSectorSizeHints(imagePath);
    if (hints.doubt.isEmpty())
        return {hints.bytes, QString()};
    return {512, QStringLiteral("Partwise cannot tell the logical sector size of %1: %2. It is "
                                "read with 512-byte sectors and nothing is written to it; if you "
                                "know its sector size, name it with --sector-size.")
                     .arg(imagePath, hints.doubt)};
}

bool isSupportedSectorSize(qint64 bytes)
{
    return bytes == 512 || bytes == 1024 || bytes == 2048 || bytes == 4096;
}

bool parseSectorSize(const QString &text, qint64 *bytes)
{
    if (text.isEmpty() || text.size() > 5)
        return false;
    for (const QChar c : text)
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    const qint64 n = text.toLongLong();
    if (!isSupportedSectorSize(n))
        return false;
    *bytes = n;
    return true;
}

QString supportedSectorSizesText()
{
    return QStringLiteral("512, 1024, 2048 or 4096");
}

} // namespace partwise
