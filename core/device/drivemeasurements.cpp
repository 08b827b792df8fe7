#include "device/drivemeasurements.h"

#include "base/atomicfile.h"
#include "device/sysfsline.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace partwise {

namespace {

// The /sys/block folder of the whole disk holding `devicePath`.
QString sysfsDiskFolder(const QString &devicePath)
{
    struct stat st;
    if (::stat(QFile::encodeName(devicePath).constData(), &st) != 0 || !S_ISBLK(st.st_mode))
        return {};
    const QString link =
        QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev));
    QString folder = QFileInfo(link).canonicalFilePath();
    if (folder.isEmpty())
        return {};
    if (QFile::exists(folder + QStringLiteral("/partition"))) // a partition: its parent disk
        folder = QFileInfo(folder).absolutePath();
    return folder;
}

QJsonObject readStore()
{
    QFile f(driveMeasurementStorePath());
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

void setError(QString *error, const QString &message)
{
    if (error)
        *error = message;
}

// A store that cannot be read as a JSON object is not overwritten: the measurements of every
// other drive would go with it.
bool readStoreForUpdate(QJsonObject *store, QString *error)
{
    QFile f(driveMeasurementStorePath());
    if (!f.exists()) {
        *store = {};
        return true;
    }
    QJsonParseError parse{};
    const QJsonDocument doc = f.open(QIODevice::ReadOnly)
                                  ? QJsonDocument::fromJson(f.readAll(), &parse)
                                  : QJsonDocument();
    if (!doc.isObject()) {
        setError(error, QStringLiteral("%1 is not a store of drive measurements (%2); it is left "
                                       "as it is and nothing is remembered.")
                            .arg(f.fileName(), f.isOpen() ? parse.errorString() : f.errorString()));
        return false;
    }
    *store = doc.object();
    return true;
}

bool writeStore(const QJsonObject &store, QString *error)
{
    const QString path = driveMeasurementStorePath();
    const QString folder = QFileInfo(path).absolutePath();
    QDir().mkpath(folder);
    const QByteArray data = QJsonDocument(store).toJson(QJsonDocument::Indented);
    const AtomicWrite written = writeFileAtomically(path, data);
    if (written.failure == AtomicWrite::Failure::Write) {
        setError(error,
                 QStringLiteral("Cannot write %1: %2").arg(written.tempPath, written.reason));
        return false;
    }
    if (written.failure == AtomicWrite::Failure::Rename) {
        setError(error, QStringLiteral("Cannot put %1 in place.").arg(path));
        return false;
    }
    // A folder that cannot be synced loses at most this measurement in a power cut: not worth
    // failing the probe for.
    return true;
}

} // namespace

QString driveKey(const QString &devicePath)
{
    const QString folder = sysfsDiskFolder(devicePath);
    if (folder.isEmpty())
        return {};
    for (const char *name : {"wwid", "device/wwid"})
        if (const QString wwid = sysfsLine(folder + QLatin1Char('/') + QLatin1String(name));
            !wwid.isEmpty())
            return QStringLiteral("wwn:") + wwid;
    if (const QString serial = sysfsLine(folder + QStringLiteral("/device/serial"));
        !serial.isEmpty())
        return QStringLiteral("serial:") + serial;
    if (const QString backing = sysfsLine(folder + QStringLiteral("/loop/backing_file"));
        !backing.isEmpty())
        return QStringLiteral("loop:") + backing;
    return {};
}

QString driveMeasurementStorePath()
{
    if (const QString path = qEnvironmentVariable("PARTWISE_DRIVE_STORE"); !path.isEmpty())
        return path;
    if (::geteuid() == 0)
        return QStringLiteral("/var/lib/partwise/drives.json");
    // Qt 6.4 has no state location: $XDG_STATE_HOME, by its specification's default.
    QString state = qEnvironmentVariable("XDG_STATE_HOME");
    if (state.isEmpty())
        state = QDir::homePath() + QStringLiteral("/.local/state");
    return state + QStringLiteral("/partwise/drives.json");
}

std::optional<DriveMeasurement> loadDriveMeasurement(const QString &key)
{
    if (key.isEmpty())
        return std::nullopt;
    const QJsonObject o = readStore().value(key).toObject();
    DriveMeasurement m;
    m.physicalSectorSize = o.value(QStringLiteral("physical_sector_size")).toInteger();
    m.alignmentOffset = o.value(QStringLiteral("alignment_offset")).toInteger();
    m.penaltyRatio = o.value(QStringLiteral("penalty_ratio")).toDouble(1.0);
    m.measuredAt =
        QDateTime::fromString(o.value(QStringLiteral("measured_at")).toString(), Qt::ISODate);
    // Only what a probe could have written: a power of two from 512 bytes, an offset inside it.
    const qint64 size = m.physicalSectorSize;
    if (size < 512 || (size & (size - 1)) != 0 || m.alignmentOffset < 0 ||
        m.alignmentOffset >= size || m.alignmentOffset % 512 != 0)
        return std::nullopt;
    return m;
}

bool saveDriveMeasurement(const QString &key, const DriveMeasurement &measurement, QString *error)
{
    if (key.isEmpty()) {
        setError(error, QStringLiteral("This device cannot be told apart from others (no WWN, "
                                       "serial or backing file), so the measurement is not "
                                       "remembered."));
        return false;
    }
    QJsonObject store;
    if (!readStoreForUpdate(&store, error))
        return false;
    store.insert(
        key,
        QJsonObject{{QStringLiteral("physical_sector_size"), measurement.physicalSectorSize},
                    {QStringLiteral("alignment_offset"), measurement.alignmentOffset},
                    {QStringLiteral("penalty_ratio"), measurement.penaltyRatio},
                    {QStringLiteral("measured_at"), measurement.measuredAt.toString(Qt::ISODate)}});
    return writeStore(store, error);
}

bool forgetDriveMeasurement(const QString &key, QString *error)
{
    QJsonObject store;
    if (!readStoreForUpdate(&store, error))
        return false;
    if (!store.contains(key))
        return true;
    store.remove(key);
    return writeStore(store, error);
}

} // namespace partwise
