#include "device/drivereport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace partwise {

namespace {

constexpr unsigned kLoopMajor = 7; // Linux's block major of loop devices

QString text(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString().trimmed();
}

// "5 000c50 0a1b2c3d4": the ATA World Wide Name the way smartctl's text output prints it.
QString ataWwn(const QJsonObject &wwn)
{
    return QStringLiteral("%1 %2 %3")
        .arg(wwn.value(QStringLiteral("naa")).toInteger(), 0, 16)
        .arg(wwn.value(QStringLiteral("oui")).toInteger(), 6, 16, QLatin1Char('0'))
        .arg(wwn.value(QStringLiteral("id")).toInteger(), 9, 16, QLatin1Char('0'));
}

// "eui.0025388b91b2c3d4": an NVMe namespace's IEEE EUI-64 (OUI, then 40 bits of extension).
QString nvmeEui64(const QJsonObject &eui)
{
    return QStringLiteral("eui.%1%2")
        .arg(eui.value(QStringLiteral("oui")).toInteger(), 6, 16, QLatin1Char('0'))
        .arg(eui.value(QStringLiteral("ext_id")).toInteger(), 10, 16, QLatin1Char('0'));
}

// smartctl's own error messages ("/dev/sdb: Unknown USB bridge [...]"), joined.
QString errorMessages(const QJsonObject &smartctl)
{
    QStringList messages;
    for (const QJsonValue &m : smartctl.value(QStringLiteral("messages")).toArray()) {
        const QJsonObject o = m.toObject();
        if (text(o, "severity") == QLatin1String("error"))
            messages << text(o, "string");
    }
    return messages.join(QStringLiteral("; "));
}

bool isLoopDevice(const QString &path)
{
    struct stat st
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISBLK(st.st_mode) &&
           major(st.st_rdev) == kLoopMajor;
}

struct Run
{
    bool started = false;
    bool finished = false;
    QByteArray output;
};

Run runSmartctl(const QString &program, const QStringList &arguments, int timeoutMs)
{
    Run run;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(program, arguments, QIODevice::ReadOnly);
    if (!process.waitForStarted(timeoutMs))
        return run;
    run.started = true;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(1000);
        return run;
    }
    run.finished = true;
    run.output = process.readAllStandardOutput();
    return run;
}

// The failure predictors: ATA attributes by their standard ids (raw values are counts), and
// the NVMe health log's own fields.
void readHealthCounters(const QJsonObject &root, DriveReport *r)
{
    const QJsonArray table = root.value(QStringLiteral("ata_smart_attributes"))
                                 .toObject()
                                 .value(QStringLiteral("table"))
                                 .toArray();
    for (const QJsonValue &v : table) {
        const QJsonObject a = v.toObject();
        const qint64 raw =
            a.value(QStringLiteral("raw")).toObject().value(QStringLiteral("value")).toInteger();
        switch (a.value(QStringLiteral("id")).toInt()) {
        case 5:
            r->reallocatedSectors = raw;
            break;
        case 197:
            r->pendingSectors = raw;
            break;
        case 198:
            r->uncorrectableSectors = raw;
            break;
        default:
            break;
        }
    }
    const QJsonObject nvme =
        root.value(QStringLiteral("nvme_smart_health_information_log")).toObject();
    if (nvme.contains(QStringLiteral("media_errors")))
        r->mediaErrors = nvme.value(QStringLiteral("media_errors")).toInteger();
    if (nvme.contains(QStringLiteral("percentage_used")))
        r->percentageUsed = nvme.value(QStringLiteral("percentage_used")).toInteger();
}

} // namespace

DriveReport parseSmartctlJson(const QByteArray &json)
{
    DriveReport r;
    r.asked = true;
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (!doc.isObject()) {
        r.reason = QStringLiteral("smartctl's answer is not JSON Partwise can read (%1).")
                       .arg(error.errorString());
        return r;
    }
    const QJsonObject root = doc.object();
    const QJsonObject smartctl = root.value(QStringLiteral("smartctl")).toObject();
    const QJsonArray version = smartctl.value(QStringLiteral("version")).toArray();
    if (version.size() >= 2)
        r.smartctlVersion =
            QStringLiteral("%1.%2").arg(version.at(0).toInteger()).arg(version.at(1).toInteger());
    const QJsonObject device = root.value(QStringLiteral("device")).toObject();
    r.protocol = text(device, "protocol");
    r.deviceType = text(device, "type");

    // SCSI disks: smartctl 7.3 writes vendor and product as "scsi_model_name", the revision as
    // "scsi_revision" (its "firmware_version" line is commented out in scsiprint.cpp).
    r.model = text(root, "model_name");
    if (r.model.isEmpty())
        r.model = text(root, "scsi_model_name");
    r.serial = text(root, "serial_number");
    r.firmware = text(root, "firmware_version");
    if (r.firmware.isEmpty())
        r.firmware = text(root, "scsi_revision");

    const QJsonArray namespaces = root.value(QStringLiteral("nvme_namespaces")).toArray();
    const QJsonObject firstNamespace =
        namespaces.isEmpty() ? QJsonObject() : namespaces.at(0).toObject();
    if (root.value(QStringLiteral("wwn")).isObject())
        r.wwn = ataWwn(root.value(QStringLiteral("wwn")).toObject());
    else if (const QString lu = text(root, "logical_unit_id"); !lu.isEmpty())
        r.wwn = lu;
    else if (firstNamespace.value(QStringLiteral("eui64")).isObject())
        r.wwn = nvmeEui64(firstNamespace.value(QStringLiteral("eui64")).toObject());

    if (root.contains(QStringLiteral("rotation_rate")))
        r.rotationRate = root.value(QStringLiteral("rotation_rate")).toInt();

    r.logicalBlockSize = root.value(QStringLiteral("logical_block_size")).toInteger();
    if (r.logicalBlockSize == 0)
        r.logicalBlockSize = firstNamespace.value(QStringLiteral("formatted_lba_size")).toInteger();
    r.physicalBlockSize = root.value(QStringLiteral("physical_block_size")).toInteger();
    // READ CAPACITY(16) gives the physical block as 2^exponent logical blocks; smartctl writes
    // "physical_block_size" only when that exponent is not 0 (or the disk is formatted with
    // protection information). A SCSI disk that told its logical size without it therefore
    // said "one logical block per physical block".
    if (r.physicalBlockSize == 0 && r.logicalBlockSize > 0 && r.protocol == QLatin1String("SCSI"))
        r.physicalBlockSize = r.logicalBlockSize;

    const QJsonObject status = root.value(QStringLiteral("smart_status")).toObject();
    if (status.contains(QStringLiteral("passed")))
        r.smartPassed = status.value(QStringLiteral("passed")).toBool();
    readHealthCounters(root, &r);

    const QString messages = errorMessages(smartctl);
    r.deviceTypeUnknown = messages.contains(QLatin1String("Unable to detect device type")) ||
                          messages.contains(QLatin1String("Unknown USB bridge"));
    r.answered = !r.model.isEmpty() || !r.serial.isEmpty() || r.logicalBlockSize > 0;
    if (r.answered)
        return r;

    const int exitStatus = smartctl.value(QStringLiteral("exit_status")).toInt();
    if (messages.contains(QLatin1String("Permission denied")) ||
        messages.contains(QLatin1String("Operation not permitted")))
        r.reason = QStringLiteral("Permission denied: smartctl must run as root to ask the drive "
                                  "(%1).")
                       .arg(messages);
    else if (!messages.isEmpty())
        r.reason = QStringLiteral("smartctl could not ask the drive: %1.").arg(messages);
    else if (exitStatus & 2)
        r.reason = QStringLiteral("The device did not identify itself to smartctl (%1): a USB "
                                  "bridge that passes no ATA commands, or a drive that is asleep "
                                  "or not answering.")
                       .arg(r.deviceType.isEmpty() ? QStringLiteral("device type unknown")
                                                   : QStringLiteral("-d ") + r.deviceType);
    else
        r.reason = QStringLiteral("smartctl answered without naming the drive.");
    return r;
}

DriveReport readDriveReport(const QString &devicePath, int timeoutMs, const QString &program)
{
    DriveReport none;
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(devicePath).constData(), &st) != 0) {
        none.reason = QStringLiteral("%1 does not exist.").arg(devicePath);
        return none;
    }
    if (S_ISREG(st.st_mode)) {
        none.reason = QStringLiteral("%1 is a disk image file: there is no drive behind it to ask.")
                          .arg(devicePath);
        return none;
    }
    if (!S_ISBLK(st.st_mode)) {
        none.reason = QStringLiteral("%1 is not a block device.").arg(devicePath);
        return none;
    }

    const QStringList question{QStringLiteral("--json=c"), QStringLiteral("-i"),
                               QStringLiteral("-H"), QStringLiteral("-A")};
    Run run = runSmartctl(program, question + QStringList{devicePath}, timeoutMs);
    if (!run.started) {
        none.reason = QStringLiteral("smartctl is not installed, so the drive's own report cannot "
                                     "be read: install the package smartmontools (Debian and "
                                     "Ubuntu: apt install smartmontools).");
        return none;
    }
    if (!run.finished) {
        none.asked = true;
        none.reason =
            QStringLiteral("smartctl did not answer within %1 seconds.").arg(timeoutMs / 1000);
        return none;
    }
    DriveReport report = parseSmartctlJson(run.output);
    if (report.answered || !report.deviceTypeUnknown)
        return report;

    if (isLoopDevice(devicePath)) {
        const QString name = devicePath.section(QLatin1Char('/'), -1);
        QFile backing(QStringLiteral("/sys/block/%1/loop/backing_file").arg(name));
        const QString file = backing.open(QIODevice::ReadOnly)
                                 ? QString::fromLocal8Bit(backing.readAll()).trimmed()
                                 : QString();
        report.reason =
            file.isEmpty()
                ? QStringLiteral("%1 is a loop device: there is no drive behind it to ask "
                                 "(smartctl: unable to detect device type).")
                      .arg(devicePath)
                : QStringLiteral("%1 is a loop device backed by the file %2: there is no drive "
                                 "behind it to ask (smartctl: unable to detect device type).")
                      .arg(devicePath, file);
        return report;
    }

    // Most USB bridges translate ATA commands as SAT specifies; smartctl only uses it when told.
    const QString firstAnswer = report.reason;
    run = runSmartctl(
        program, question + QStringList{QStringLiteral("-d"), QStringLiteral("sat"), devicePath},
        timeoutMs);
    if (!run.finished)
        return report;
    DriveReport sat = parseSmartctlJson(run.output);
    if (sat.answered)
        return sat;
    sat.reason = QStringLiteral("%1 Asked again as a USB bridge (-d sat), the device did not "
                                "answer either: the bridge passes no ATA commands through.")
                     .arg(firstAnswer);
    return sat;
}

} // namespace partwise
