#include "boot/firmwareentries.h"

#include "base/shellquote.h"
#include "base/toolrunner.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace partwise {

QList<FirmwareEntry> parseEfibootmgr(const QString &output)
{
    static const QRegularExpression line(
        QStringLiteral("^Boot([0-9A-Fa-f]{4})(\\*?)\\s+(.*?)\\s*\\t?\\s*"
                       "HD\\((\\d+),(GPT|MBR),([^,]+),0x([0-9A-Fa-f]+),0x([0-9A-Fa-f]+)\\)(.*)$"));
    // Older efibootmgr writes /File(\EFI\x.efi), newer writes /\EFI\x.efi.
    static const QRegularExpression file(QStringLiteral("^/(?:File\\()?(\\\\[^)\\s]*)"));
    QList<FirmwareEntry> entries;
    for (const QString &raw : output.split(QLatin1Char('\n'))) {
        const auto m = line.match(raw.trimmed());
        if (!m.hasMatch())
            continue;
        FirmwareEntry e;
        e.id = QStringLiteral("Boot") + m.captured(1).toUpper();
        e.active = !m.captured(2).isEmpty();
        e.label = m.captured(3).trimmed();
        e.partition = m.captured(4).toInt();
        e.gpt = m.captured(5) == QLatin1String("GPT");
        e.signature = m.captured(6).toLower();
        e.startSector = m.captured(7).toLongLong(nullptr, 16);
        e.sizeSectors = m.captured(8).toLongLong(nullptr, 16);
        if (const auto f = file.match(m.captured(9)); f.hasMatch())
            e.path = f.captured(1);
        entries << e;
    }
    return entries;
}

FirmwareEntries readFirmwareEntries()
{
    FirmwareEntries r;
    if (!QFileInfo::exists(QStringLiteral("/sys/firmware/efi"))) {
        r.reason = QStringLiteral("this machine did not boot through UEFI");
        return r;
    }
    const ToolResult t = runTool(QStringLiteral("efibootmgr"), {QStringLiteral("-v")},
                                 QStringLiteral("efibootmgr"), 20000, ToolChannels::Separate);
    if (!t.ok) {
        r.reason = t.error;
        return r;
    }
    r.available = true;
    r.entries = parseEfibootmgr(t.output);
    return r;
}

QString firmwareEntryRepair(const FirmwareEntry &e, const QString &disk, int partition)
{
    const QString id = e.id.mid(4);
    return QStringLiteral("efibootmgr -b %1 -B && efibootmgr -c -d %2 -p %3 -L %4 -l %5")
        .arg(id, shellQuoted(disk))
        .arg(partition)
        .arg(shellQuoted(e.label),
             shellQuoted(e.path.isEmpty() ? QStringLiteral("\\EFI\\BOOT\\BOOTX64.EFI") : e.path));
}

} // namespace partwise
