#include "ops/copytable.h"

#include "boot/bootfixups.h"
#include "boot/grubcore.h"
#include "table/diskreader.h"
#include "table/tableidentifiers.h"
#include "table/tablewriter.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

using Kind = PartitionInfo::Kind;

class CopyTableWriter
{
public:
    CopyTableWriter(const CopyJournal &journal, const std::function<void(const QString &)> &log)
        : m_j(journal), m_log(log)
    {
    }

    QString error() const { return m_error; }

    QList<PartitionSpec> specs() const
    {
        QList<PartitionSpec> list;
        if (plan().addsBiosBoot) {
            PartitionSpec bios;
            bios.startSector = plan().biosBootStart;
            bios.endSector = plan().biosBootEnd;
            bios.flags << QStringLiteral("bios_grub");
            bios.number = plan().biosBootNumber;
            list << bios;
        }
        for (const CopyPartitionPlan &p : plan().partitions) {
            PartitionSpec s;
            s.kind = p.kind;
            s.startSector = p.newStart;
            s.endSector = p.newEnd;
            s.name = plan().targetTable == QLatin1String("gpt") ? p.name : QString();
            s.flags = p.flags;
            s.filesystem = p.filesystem;
            s.number = p.kind == Kind::Logical ? 0 : p.targetNumber;
            list << s;
        }
        return list;
    }

    // Types, GUIDs and the disk identifier, which libparted cannot set, in one more write of
    // the table and one flush.
    bool writeIdentifiers()
    {
        const bool gpt = plan().targetTable == QLatin1String("gpt");
        QList<PartitionIdentity> identities, containers;
        for (const CopyPartitionPlan &p : plan().partitions) {
            PartitionIdentity id;
            id.number = p.targetNumber;
            if (p.typeId != QLatin1String("00"))
                id.typeId = p.typeId;
            if (gpt)
                id.partitionGuid = p.partitionGuid;
            if (id.typeId.isEmpty() && id.partitionGuid.isEmpty())
                continue;
            // libfdisk (2.38) refuses a logical partition's type once the extended entry was
            // set in the same pass, so that one goes last.
            (p.kind == Kind::Extended ? containers : identities) << id;
        }
        identities += containers;
        QString diskId;
        if (!plan().diskId.isEmpty() && (plan().sourceTable == plan().targetTable || plan().newIds))
            diskId = gpt ? plan().diskId : QStringLiteral("0x") + plan().diskId;
        if (identities.isEmpty() && diskId.isEmpty())
            return true;
        const int fd = ::open(QFile::encodeName(m_j.target).constData(), O_RDWR | O_CLOEXEC);
        if (fd < 0)
            return fail(QStringLiteral("Cannot open %1 to set its table's identifiers: %2")
                            .arg(m_j.target, QString::fromLocal8Bit(std::strerror(errno))));
        QString error;
        const bool ok = setTableIdentifiers(fd, m_j.target, tss(), identities, diskId, &error);
        ::close(fd);
        return ok || fail(error);
    }

    bool writeTable()
    {
        QString error;
        const bool image = QFileInfo(m_j.target).isFile();
        // The source's GPT entry count is kept (read again on resume: the source is held
        // unchanged); libparted gives it as the most primaries.
        DiskReadOptions sourceRead;
        sourceRead.forcedSectorSize = plan().sourceSectorSize;
        sourceRead.probeFilesystems = false;
        sourceRead.useMeasurements = false;
        const DiskReadResult source = readDisk(m_j.source, sourceRead);
        const int entries = source.ok && source.layout.tableType == QLatin1String("gpt")
                                ? source.layout.maxPrimaryPartitions
                                : 0;
        if (!writeFreshTableOn(m_j.target, image, tss(), plan().targetSizeBytes, plan().targetTable,
                               specs(), &error, entries))
            return fail(error);
        if (!writeIdentifiers())
            return false;
        if (!carryBootCode())
            return false;
        for (const CopyPartitionPlan &p : plan().partitions) {
            const BootFixResult boot =
                fixBootAfterMove(m_j.target, tss(), p.targetNumber, p.oldStart, p.newStart,
                                 std::min(p.oldEnd - p.oldStart, p.newEnd - p.newStart) + 1);
            for (const QString &line : boot.done)
                log(QStringLiteral("  boot: ") + line);
            if (!boot.ok)
                log(QStringLiteral("  boot loader NOT fixed: ") + boot.error);
        }
        log(QStringLiteral("Wrote the %1 table of %2.").arg(plan().targetTable, m_j.target));
        return true;
    }

    // libparted keeps the boot code it finds; it is written again in case, then GRUB's pointers
    // follow core.img into the BIOS boot partition the copy added.
    bool carryBootCode()
    {
        if (!plan().copiesBootCode && plan().gapSectors == 0 && !plan().syslinuxGptMbr)
            return true;
        // Under syslinux onto GPT the code is syslinux's own for GPT (copyboot.h).
        const QString codeFrom =
            plan().syslinuxGptMbr ? QString::fromLatin1(kSyslinuxGptMbr) : m_j.source;
        const int codeFile = ::open(QFile::encodeName(codeFrom).constData(), O_RDONLY | O_CLOEXEC);
        const int source = ::open(QFile::encodeName(m_j.source).constData(), O_RDONLY | O_CLOEXEC);
        const int target = ::open(QFile::encodeName(m_j.target).constData(), O_RDWR | O_CLOEXEC);
        char code[440];
        bool ok = codeFile >= 0 && source >= 0 && target >= 0 &&
                  ::pread(codeFile, code, 440, 0) == 440 && ::pwrite(target, code, 440, 0) == 440;
        // libparted zeroed the sectors after the MBR (and GRUB's core.img there with them).
        if (ok && plan().gapSectors > 0 && !plan().addsBiosBoot) {
            QByteArray gap(int(plan().gapSectors * 512), '\0');
            ok = ::pread(source, gap.data(), size_t(gap.size()), 512) == gap.size() &&
                 ::pwrite(target, gap.constData(), size_t(gap.size()), 512) == gap.size();
        }
        if (ok && plan().addsBiosBoot) {
            const GrubRelocation r = relocateGrubCore(target, 1, plan().biosBootStart * tss() / 512,
                                                      plan().gapSectors, m_j.target);
            for (const QString &line : r.done)
                log(QStringLiteral("  boot: ") + line);
            if (!r.ok)
                log(QStringLiteral("  GRUB NOT moved: ") + r.error);
        }
        ok = ok && ::fsync(target) == 0;
        if (source >= 0)
            ::close(source);
        if (codeFile >= 0)
            ::close(codeFile);
        if (target >= 0)
            ::close(target);
        if (ok && plan().syslinuxGptMbr)
            log(QStringLiteral("  boot: syslinux's %1 written into the MBR").arg(codeFrom));
        return ok || fail(QStringLiteral("Writing the boot code of %1 failed.").arg(m_j.target));
    }

private:
    const CopyPlan &plan() const { return m_j.plan; }
    qint64 tss() const { return plan().targetSectorSize; }
    void log(const QString &line)
    {
        if (m_log)
            m_log(line);
    }
    bool fail(const QString &error)
    {
        m_error = error;
        return false;
    }

    const CopyJournal &m_j;
    const std::function<void(const QString &)> &m_log;
    QString m_error;
};

} // namespace

bool writeCopyTable(const CopyJournal &journal, const std::function<void(const QString &)> &log,
                    QString *error)
{
    CopyTableWriter writer(journal, log);
    const bool ok = writer.writeTable();
    if (!ok)
        *error = writer.error();
    return ok;
}

} // namespace partwise
