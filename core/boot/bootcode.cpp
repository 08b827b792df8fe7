#include "boot/bootcode.h"

#include <QtEndian>

namespace partwise {

namespace {

constexpr int kCodeBytes = 440; // the MBR's code ends where the disk signature begins

bool signed55AA(const QByteArray &s)
{
    return s.size() >= 512 && quint8(s[510]) == 0x55 && quint8(s[511]) == 0xAA;
}

bool codeHas(const QByteArray &s, const char *text)
{
    return s.left(kCodeBytes).contains(text);
}

// libparted writes the same short loader into every MBR table it creates (it finds the active
// partition and jumps to its boot sector), then zeros up to the disk signature. It prints no
// text to search for, so its opening instructions are the signature: cli; mov ax,0x1000;
// mov ss,ax; mov sp,0xb000; mov ax,0; mov ds,ax; mov es,ax; sti; mov si,0x7c00; mov di,0x600.
bool isLibpartedCode(const QByteArray &s)
{
    static const QByteArray opening =
        QByteArray::fromHex("fab800108ed0bc00b0b800008ed88ec0fbbe007cbf0006");
    constexpr int kLoaderBytes = 0x4c;
    const QByteArray code = s.left(kCodeBytes);
    return code.startsWith(opening) &&
           code.mid(kLoaderBytes).count('\0') == kCodeBytes - kLoaderBytes;
}

bool isGrubMessageTable(const QByteArray &s)
{
    return codeHas(s, "GRUB ") && codeHas(s, "Hard Disk") && codeHas(s, "Geom");
}

} // namespace

QString mbrCodeName(MbrCode code)
{
    switch (code) {
    case MbrCode::None:
        return {};
    case MbrCode::Empty:
        return QStringLiteral("empty");
    case MbrCode::Grub:
        return QStringLiteral("grub");
    case MbrCode::GrubLegacy:
        return QStringLiteral("grub-legacy");
    case MbrCode::Syslinux:
        return QStringLiteral("syslinux");
    case MbrCode::WindowsNt:
        return QStringLiteral("windows-nt");
    case MbrCode::WindowsVista:
        return QStringLiteral("windows-vista");
    case MbrCode::Generic:
        return QStringLiteral("generic");
    case MbrCode::Unknown:
        return QStringLiteral("unknown");
    }
    return {};
}

MbrCode identifyMbrCode(const QByteArray &s)
{
    if (s.size() < 512)
        return MbrCode::None;
    if (s.left(kCodeBytes).count('\0') == kCodeBytes)
        return MbrCode::Empty;
    if (!signed55AA(s))
        return MbrCode::None;
    if (isGrubMessageTable(s) && quint8(s[0]) == 0xEB)
        return quint8(s[1]) == 0x63   ? MbrCode::Grub
               : quint8(s[1]) == 0x48 ? MbrCode::GrubLegacy
                                      : MbrCode::Unknown;
    if (codeHas(s, "Operating system load error.") ||
        (codeHas(s, "Missing OS") && codeHas(s, "Multiple active partitions")))
        return MbrCode::Syslinux;
    if (codeHas(s, "Invalid partition table") && codeHas(s, "Error loading operating system"))
        return codeHas(s, "TCPA") ? MbrCode::WindowsVista : MbrCode::WindowsNt;
    if (isLibpartedCode(s))
        return MbrCode::Generic;
    return MbrCode::Unknown;
}

std::optional<quint64> grubCoreSector(const QByteArray &s)
{
    const MbrCode code = identifyMbrCode(s);
    if (code != MbrCode::Grub)
        return std::nullopt;
    return qFromLittleEndian<quint64>(s.constData() + kGrubKernelSectorOffset);
}

PartitionLoader identifyPartitionLoader(const QByteArray &s)
{
    if (!signed55AA(s))
        return PartitionLoader::None;
    if (isGrubMessageTable(s) && quint8(s[0]) == 0xEB && quint8(s[1]) == 0x63)
        return PartitionLoader::Grub;
    const QByteArray oem = s.mid(3, 8);
    if ((oem == "SYSLINUX" || oem == "EXTLINUX") && s.left(510).contains("Boot error"))
        return PartitionLoader::Syslinux;
    const QByteArray code = s.left(510);
    if (code.contains("BOOTMGR"))
        return PartitionLoader::Bootmgr;
    if (code.contains("NTLDR"))
        return PartitionLoader::Ntldr;
    return PartitionLoader::None;
}

QString partitionLoaderName(PartitionLoader loader, const QString &filesystem)
{
    switch (loader) {
    case PartitionLoader::None:
        return {};
    case PartitionLoader::Grub:
        return QStringLiteral("grub");
    case PartitionLoader::Syslinux:
        return filesystem == QLatin1String("vfat") ? QStringLiteral("syslinux")
                                                   : QStringLiteral("extlinux");
    case PartitionLoader::Ntldr:
        return QStringLiteral("ntldr");
    case PartitionLoader::Bootmgr:
        return QStringLiteral("bootmgr");
    }
    return {};
}

} // namespace partwise
