#pragma once

// The drive's own word about itself.
//
// The kernel's idea of a disk's sectors (/sys/block/X/queue/physical_block_size) is what the
// drive told it, passed through every layer in between: a USB bridge may replace it with its own
// guess, and a 512e drive may say 512 although it writes 4096 inside. What the drive answers to
// ATA IDENTIFY DEVICE, SCSI READ CAPACITY(16) or NVMe Identify Namespace is one step closer to
// the truth, and it also names the drive (model, serial, firmware, World Wide Name), says
// whether it spins, and carries SMART's overall health verdict.
//
// Partwise does not send those commands itself: smartmontools already knows every bridge and
// quirk, so `smartctl --json=c -i -H -A DEVICE` is asked, and its JSON is read with QJsonDocument.
// When smartctl cannot tell what sits behind the device node (the usual answer of a USB bridge
// it does not know) the question is asked again with `-d sat`, the SCSI-to-ATA translation most
// bridges speak. A drive that cannot be asked (an image file, a loop device, no smartctl, no
// permission, a bridge that passes nothing) gets a DriveReport with `answered == false` and a
// sentence that says why.
//
// Field names are those smartctl 7.3 writes (ataprint.cpp, scsiprint.cpp, nvmeprint.cpp):
// "model_name"/"scsi_model_name", "serial_number", "firmware_version"/"scsi_revision",
// "wwn" {naa, oui, id} or "logical_unit_id", "rotation_rate" (0 = solid state),
// "logical_block_size", "physical_block_size" (ATA words 106/117; SCSI READ CAPACITY(16)'s
// exponent, written only when it is not 0), "nvme_namespaces"[0].formatted_lba_size and
// "smart_status".passed. smartctl 7.3 puts an ATA drive's logical sector offset (word 209) and a
// SCSI drive's lowest aligned LBA only into its text output, so the drive's own offset is not
// known here; NVMe namespaces report no physical size at all.
//
// Asking takes time (50–300 ms on a real drive, and it may wake a sleeping one), so readDisk()
// asks only when its caller shows the answer. It blocks: call it off the GUI thread.

#include <QByteArray>
#include <QString>

#include <optional>

namespace partwise {

struct DriveReport
{
    bool asked = false;    // smartctl was run (false: not asked, or it could not be)
    bool answered = false; // the drive identified itself
    QString reason;        // why there is no answer, a sentence a person can act on

    QString protocol;   // "ATA", "SCSI" or "NVMe"
    QString deviceType; // smartctl's -d type that answered: "sat", "scsi", "nvme", ...
    QString model;
    QString serial;
    QString firmware;
    QString wwn; // "5 000c50 0a1b2c3d4" (ATA, as smartctl prints it), or the SCSI/NVMe id
    std::optional<int> rotationRate; // rpm; 0 = solid state
    qint64 logicalBlockSize = 0;     // bytes; 0 when not reported
    qint64 physicalBlockSize = 0;    // bytes; 0 when not reported
    std::optional<bool> smartPassed; // SMART's overall-health self-assessment
    // The counters that predict a failure (ATA attributes 5, 197, 198; NVMe's health log);
    // absent where the drive did not report them.
    std::optional<qint64> reallocatedSectors;
    std::optional<qint64> pendingSectors;
    std::optional<qint64> uncorrectableSectors;
    std::optional<qint64> mediaErrors;    // NVMe
    std::optional<qint64> percentageUsed; // NVMe: the vendor's estimate of life used
    QString smartctlVersion;              // "7.3"
    // smartctl could not tell what kind of device this is and wants a -d TYPE (its answer for
    // loop devices, virtual disks and USB bridges it does not know).
    bool deviceTypeUnknown = false;
};

// Reads one smartctl --json answer. Pure: tests feed it recorded outputs.
DriveReport parseSmartctlJson(const QByteArray &json);

// Runs smartctl for `devicePath` (retrying with -d sat when the device type is unknown) and
// reads its answer. `program` is the smartctl to run (tests name one that does not exist).
// Blocks for up to `timeoutMs` per run.
DriveReport readDriveReport(const QString &devicePath, int timeoutMs = 10000,
                            const QString &program = QStringLiteral("smartctl"));

} // namespace partwise
