#include "layer/lukslayer.h"

#include <libcryptsetup.h>

#include <cstring>

namespace partwise {

namespace {

// Enough for any header cryptsetup writes by default: LUKS2 keeps both metadata copies and its
// keyslots in the first 16 MiB, LUKS1 its keyslots well within 2 MiB. A larger LUKS2 metadata
// area still loads, since only the JSON areas are read.
constexpr qint64 kHeaderBytes = 16 << 20;

void collectLog(int level, const char *message, void *usrptr)
{
    if (level == CRYPT_LOG_ERROR && message)
        static_cast<QString *>(usrptr)->append(QString::fromLocal8Bit(message).trimmed() +
                                               QLatin1Char(' '));
}

// libcryptsetup's handle, freed on every path.
struct CryptDevice
{
    crypt_device *cd = nullptr;
    ~CryptDevice()
    {
        if (cd)
            crypt_free(cd);
    }
};

} // namespace

StorageLayer readLuksLayer(const PartitionBytes &bytes)
{
    StorageLayer layer;
    layer.type = QStringLiteral("crypto_LUKS");
    const PartitionPath path = PartitionPath::headerCopy(bytes, kHeaderBytes);
    if (!path.ok()) {
        layer.error = path.error();
        return layer;
    }
    QString log;
    crypt_set_log_callback(nullptr, collectLog, &log);
    CryptDevice device;
    int code = crypt_init(&device.cd, path.path().toLocal8Bit().constData());
    if (code == 0) {
        crypt_set_log_callback(device.cd, collectLog, &log);
        code = crypt_load(device.cd, CRYPT_LUKS, nullptr);
    }
    crypt_set_log_callback(nullptr, nullptr, nullptr);
    if (code < 0) {
        layer.error =
            QStringLiteral("libcryptsetup cannot read its header: %1")
                .arg(log.trimmed().isEmpty() ? QString::fromLocal8Bit(std::strerror(-code))
                                             : log.trimmed());
        return layer;
    }
    const char *type = crypt_get_type(device.cd);
    layer.version =
        type && std::strcmp(type, CRYPT_LUKS1) == 0 ? QStringLiteral("1") : QStringLiteral("2");
    layer.uuid = QString::fromLatin1(crypt_get_uuid(device.cd));
    // libcryptsetup counts the data offset in 512-byte sectors whatever the device's sectors.
    layer.dataOffsetBytes = qint64(crypt_get_data_offset(device.cd)) * 512;
    layer.absoluteOffsetBytes = bytes.offsetBytes + layer.dataOffsetBytes;
    layer.remedy = QStringLiteral("re-encrypt it with its data on an aligned offset (cryptsetup "
                                  "reencrypt, after a backup), or copy the data to a new "
                                  "LUKS2 volume Partwise creates aligned");
    return layer;
}

} // namespace partwise
