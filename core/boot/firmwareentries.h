#pragma once

// This machine's UEFI boot entries (Boot####), as `efibootmgr -v` prints them. An entry names
// its ESP by a hard-drive device path, HD(partition number, GPT or MBR, partition GUID or disk
// signature, start, size), then the loader's path. Firmware that checks start and size (many
// do) no longer finds the loader once the ESP has moved; the removable path \EFI\BOOT\BOOTX64.EFI
// is found by scanning and keeps such a disk booting.

#include <QList>
#include <QString>

namespace partwise {

struct FirmwareEntry
{
    QString id;          // "Boot0001"
    QString label;       // "debian"
    bool active = false; // the '*' after the id
    int partition = 0;   // the partition number in the device path
    bool gpt = true;
    QString signature; // the partition GUID (GPT) or disk signature (MBR, "0x1234abcd"), lower case
    qint64 startSector = 0;
    qint64 sizeSectors = 0;
    QString path; // \EFI\debian\shimx64.efi, or empty
};

// Entries of `efibootmgr -v` output that name a hard-drive partition; others (firmware
// applications, network boot) are left out.
QList<FirmwareEntry> parseEfibootmgr(const QString &output);

struct FirmwareEntries
{
    bool available = false; // this machine booted through UEFI and efibootmgr answered
    QString reason;         // why not, when !available
    QList<FirmwareEntry> entries;
};

// Runs `efibootmgr -v` when /sys/firmware/efi exists. Cheap, but it reads NVRAM: callers ask
// once per run, not per disk.
FirmwareEntries readFirmwareEntries();

// The command that makes an entry anew for an ESP at its new place (firmware entries cannot be
// edited): `efibootmgr -b 0001 -B` then `efibootmgr -c -d DISK -p N -L LABEL -l PATH`.
QString firmwareEntryRepair(const FirmwareEntry &entry, const QString &disk, int partition);

} // namespace partwise
