#include "layer/luksmapping.h"

#include "device/kernelholder.h"
#include "layer/luksderivationcost.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <libcryptsetup.h>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace partwise {

namespace {

void collectLog(int level, const char *message, void *usrptr)
{
    if (level == CRYPT_LOG_ERROR && message)
        static_cast<QString *>(usrptr)->append(QString::fromLocal8Bit(message).trimmed() +
                                               QLatin1Char(' '));
}

// libcryptsetup's handle with its error log, freed on every path.
struct Crypt
{
    crypt_device *cd = nullptr;
    QString log;
    ~Crypt()
    {
        if (cd)
            crypt_free(cd);
    }
    QString why(int code) const
    {
        return log.trimmed().isEmpty() ? QString::fromLocal8Bit(std::strerror(-code))
                                       : log.trimmed();
    }
};

QString sysfsText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.read(4096)).trimmed() : QString();
}

} // namespace

LuksUnlockResult unlockLuks(const QString &partitionNode, const SecretBytes &passphrase)
{
    LuksUnlockResult result;
    result.refused = true;
    if (passphrase.isEmpty() || passphrase.size() > size_t(kMaxLuksPassphraseBytes)) {
        result.error =
            QStringLiteral("A passphrase of 1 to %1 bytes is needed.").arg(kMaxLuksPassphraseBytes);
        return result;
    }
    Crypt crypt;
    int code = crypt_init(&crypt.cd, QFile::encodeName(partitionNode).constData());
    if (code == 0) {
        crypt_set_log_callback(crypt.cd, collectLog, &crypt.log);
        code = crypt_load(crypt.cd, CRYPT_LUKS, nullptr);
    }
    if (code < 0) {
        result.error = QStringLiteral("%1 holds no LUKS volume libcryptsetup can read: %2")
                           .arg(partitionNode, crypt.why(code));
        return result;
    }
    if (const QString why = luksDerivationCostProblem(crypt.cd, partitionNode); !why.isEmpty()) {
        result.error = QStringLiteral("%1 is not unlocked: %2.").arg(partitionNode, why);
        return result;
    }
    // The header's UUID names the mapping; a header is data a user may have written, so only
    // a UUID's own characters pass.
    const QString uuid = QString::fromLatin1(crypt_get_uuid(crypt.cd));
    static const QRegularExpression uuidShape(QStringLiteral("^[0-9a-fA-F-]{16,36}$"));
    if (!uuidShape.match(uuid).hasMatch()) {
        result.error =
            QStringLiteral("The LUKS header of %1 has no usable UUID.").arg(partitionNode);
        return result;
    }
    result.name = QStringLiteral("luks-") + uuid;
    result.mapperPath = QStringLiteral("/dev/mapper/") + result.name;
    if (crypt_status(nullptr, result.name.toLatin1().constData()) != CRYPT_INACTIVE) {
        result.error =
            QStringLiteral("%1 is unlocked already (%2).").arg(partitionNode, result.mapperPath);
        return result;
    }
    result.refused = false;
    code = crypt_activate_by_passphrase(crypt.cd, result.name.toLatin1().constData(),
                                        CRYPT_ANY_SLOT, passphrase.data(), passphrase.size(), 0);
    if (code < 0) {
        result.wrongPassphrase = code == -EPERM;
        result.error =
            result.wrongPassphrase
                ? QStringLiteral("No key slot of %1 opens with that passphrase.").arg(partitionNode)
                : QStringLiteral("Cannot unlock %1: %2").arg(partitionNode, crypt.why(code));
        return result;
    }
    result.ok = true;
    return result;
}

FilesystemIdentity filesystemInsideMapping(const QString &mapperPath)
{
    quint64 bytes = 0;
    const int fd = ::open(QFile::encodeName(mapperPath).constData(), O_RDONLY | O_CLOEXEC);
    const bool sized = fd >= 0 && ::ioctl(fd, BLKGETSIZE64, &bytes) == 0;
    if (fd >= 0)
        ::close(fd);
    FilesystemProbe probe(mapperPath, 512);
    return sized && probe.isOpen() ? probe.probe(0, qint64(bytes)) : FilesystemIdentity();
}

QStringList luksMappingsOf(const QString &partitionNode)
{
    QStringList names;
    const QString kernelName = QFileInfo(QFileInfo(partitionNode).canonicalFilePath()).fileName();
    for (const QString &holder : kernelHoldersOf(kernelName)) {
        const QString dm = QStringLiteral("/sys/class/block/%1/dm/").arg(holder);
        if (sysfsText(dm + QStringLiteral("uuid")).startsWith(QLatin1String("CRYPT-LUKS")))
            names << sysfsText(dm + QStringLiteral("name"));
    }
    return names;
}

bool lockLuks(const QString &partitionNode, QString *name, QString *error)
{
    const QStringList mappings = luksMappingsOf(partitionNode);
    if (mappings.isEmpty()) {
        *error = QStringLiteral("%1 is not unlocked.").arg(partitionNode);
        return false;
    }
    *name = mappings.first();
    Crypt crypt;
    int code = crypt_init_by_name(&crypt.cd, name->toUtf8().constData());
    if (code == 0) {
        crypt_set_log_callback(crypt.cd, collectLog, &crypt.log);
        code = crypt_deactivate(crypt.cd, name->toUtf8().constData());
    }
    if (code < 0) {
        *error = code == -EBUSY
                     ? QStringLiteral("/dev/mapper/%1 is in use (a filesystem inside is mounted, "
                                      "or a program holds it): unmount it first.")
                           .arg(*name)
                     : QStringLiteral("Cannot lock %1: %2").arg(partitionNode, crypt.why(code));
        return false;
    }
    return true;
}

} // namespace partwise
