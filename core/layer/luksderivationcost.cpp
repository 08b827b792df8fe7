#include "layer/luksderivationcost.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <libcryptsetup.h>

namespace partwise {

namespace {

quint32 be32(const QByteArray &bytes, qsizetype at)
{
    return quint32(uchar(bytes.at(at))) << 24 | quint32(uchar(bytes.at(at + 1))) << 16 |
           quint32(uchar(bytes.at(at + 2))) << 8 | quint32(uchar(bytes.at(at + 3)));
}

QString tooMany(const QString &what, quint64 asked, quint64 most)
{
    return QStringLiteral("its %1 asks for %2 key derivation iterations (more than %3 would "
                          "hold the helper for minutes at each passphrase); refused")
        .arg(what)
        .arg(asked)
        .arg(most);
}

// LUKS1 keeps its costs in the binary header, which libcryptsetup does not show whole: the
// volume key digest's iterations at byte 164, then eight key slots of 48 bytes from 208, each
// an active mark and its iterations.
QString luks1Problem(const QString &node)
{
    QFile device(node);
    const QByteArray header = device.open(QIODevice::ReadOnly) ? device.read(592) : QByteArray();
    if (header.size() < 592)
        return QStringLiteral("its LUKS1 header cannot be read");
    if (const quint32 digest = be32(header, 164); digest > kMaxPbkdf2Iterations)
        return tooMany(QStringLiteral("volume key digest"), digest, kMaxPbkdf2Iterations);
    for (int slot = 0; slot < 8; ++slot) {
        const qsizetype at = 208 + 48 * slot;
        if (be32(header, at) == 0x00AC71F3 && be32(header, at + 4) > kMaxPbkdf2Iterations)
            return tooMany(QStringLiteral("key slot %1").arg(slot), be32(header, at + 4),
                           kMaxPbkdf2Iterations);
    }
    return {};
}

QString kdfProblem(const QString &what, const QJsonObject &kdf)
{
    const QString type = kdf.value(QStringLiteral("type")).toString();
    const double iterations = kdf.value(QStringLiteral("iterations")).toDouble(0);
    if (type == QLatin1String(CRYPT_KDF_PBKDF2))
        return iterations > kMaxPbkdf2Iterations
                   ? tooMany(what, quint64(qMin(iterations, 1e18)), kMaxPbkdf2Iterations)
                   : QString();
    const double passes = kdf.value(QStringLiteral("time")).toDouble(0);
    const double memory = kdf.value(QStringLiteral("memory")).toDouble(0);
    if (passes > kMaxArgon2Passes || memory > kMaxArgon2MemoryKb)
        return QStringLiteral("its %1 asks for %2 Argon2 key derivation passes over %3 KiB (more "
                              "than %4 passes or %5 KiB); refused")
            .arg(what)
            .arg(quint64(qMin(passes, 1e18)))
            .arg(quint64(qMin(memory, 1e18)))
            .arg(kMaxArgon2Passes)
            .arg(kMaxArgon2MemoryKb);
    return {};
}

// LUKS2 keeps them in its JSON metadata: each key slot's "kdf" and each digest's iterations.
QString luks2Problem(crypt_device *cd)
{
    const char *json = nullptr;
    if (crypt_dump_json(cd, &json, 0) != 0 || !json)
        return QStringLiteral("its LUKS2 metadata cannot be read");
    const QJsonObject metadata = QJsonDocument::fromJson(QByteArray(json)).object();
    const QJsonObject keyslots = metadata.value(QStringLiteral("keyslots")).toObject();
    for (auto it = keyslots.constBegin(); it != keyslots.constEnd(); ++it) {
        const QJsonObject kdf = it.value().toObject().value(QStringLiteral("kdf")).toObject();
        if (const QString why = kdfProblem(QStringLiteral("key slot ") + it.key(), kdf);
            !why.isEmpty())
            return why;
    }
    const QJsonObject digests = metadata.value(QStringLiteral("digests")).toObject();
    for (auto it = digests.constBegin(); it != digests.constEnd(); ++it)
        if (const QString why =
                kdfProblem(QStringLiteral("digest ") + it.key(), it.value().toObject());
            !why.isEmpty())
            return why;
    return {};
}

} // namespace

QString luksDerivationCostProblem(crypt_device *cd, const QString &node)
{
    const char *type = crypt_get_type(cd);
    if (type && qstrcmp(type, CRYPT_LUKS1) == 0)
        return luks1Problem(node);
    if (type && qstrcmp(type, CRYPT_LUKS2) == 0)
        return luks2Problem(cd);
    return QStringLiteral("it is no LUKS1 or LUKS2 volume");
}

} // namespace partwise
