#include "ops/operationexecution.h"

#include "align/alignmentgeometry.h"
#include "device/exclusiveclaim.h"
#include "device/signaturewipe.h"
#include "fs/filesystemformatter.h"
#include "fs/filesystemtools.h"
#include "fs/filesystemuuid.h"
#include "fs/journaledresize.h"
#include "fs/resizesupport.h"
#include "layer/layercreator.h"
#include "ops/formattype.h"
#include "ops/identityfollow.h"
#include "ops/journaledtablecommit.h"
#include "ops/partitionaccess.h"
#include "ops/tableeditor.h"
#include "table/diskreader.h"
#include "table/tableidentifiers.h"

#include <QFile>
#include <QUuid>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

QString placeOf(const PartitionInfo &p)
{
    return QStringLiteral("%1:%2-%3").arg(p.number).arg(p.startSector).arg(p.endSector);
}

class OperationExecution
{
public:
    explicit OperationExecution(const OperationContext &context) : m_context(context) {}

    bool run(const Operation &op, const DiskLayout &before, const QString &tableBefore,
             QString *error)
    {
        const bool tableWritten =
            !tableBefore.isEmpty() && op.changesTable() && tableSummary(before) != tableBefore;
        int number = op.number;
        if (tableWritten) {
            m_context.log(QStringLiteral("  the table change was already written"));
            if (op.type == Operation::Type::Create)
                number = addedPartition(before, tableBefore);
            if (op.type == Operation::Type::Create && number <= 0) {
                *error = QStringLiteral("The partition it created cannot be found.");
                return false;
            }
        } else if (op.type == Operation::Type::NewPartitionGuid) {
            return newPartitionGuid(op.number, error);
        } else if (op.changesTable()) {
            // Claimed through the commit: a partition mounted since the busy check would keep
            // the kernel on the old table while the disk holds the new one.
            ExclusiveClaim claim;
            TableEditor editor(m_context.ask);
            const RedoJournal redo = m_context.tableRedo();
            if (!claim.takeForTableWrite(m_context.target, error) || !editor.open(before, error) ||
                !editor.apply(op, m_context.policy, error, &number) ||
                !editor.commit(error, redo.path.isEmpty() ? nullptr : &redo))
                return false;
        }
        // The ISO a new table replaced would otherwise still be read there (and refused).
        if (op.type == Operation::Type::NewTable && before.isHybridIso() &&
            !wipeWholeDiskSignatures(m_context.target, before.wholeDiskFilesystem, error))
            return false;
        if (op.type == Operation::Type::Create && op.filesystem.isEmpty())
            return true;
        if (op.type == Operation::Type::Create || op.type == Operation::Type::Format)
            return format(number, op, error);
        if (op.type == Operation::Type::NewUuid || op.type == Operation::Type::SetLabel)
            return renameFilesystem(number, op, error);
        if (op.type == Operation::Type::Check)
            return withDeviceNode(
                number, !op.repair, error, [&](const QString &node, const PartitionInfo &p) {
                    const ToolResult r = checkFilesystem(node, p.filesystem, op.repair);
                    m_context.log(QStringLiteral("  $ %1\n%2").arg(r.command, r.output.trimmed()));
                    if (!r.ok)
                        *error = r.error;
                    return r.ok;
                });
        return true;
    }

private:
    bool partition(int number, DiskLayout *layout, PartitionInfo *part, QString *error)
    {
        if (!m_context.read(layout, error))
            return false;
        const PartitionInfo *p = layout->partitionByNumber(number);
        if (!p) {
            *error = QStringLiteral("Partition %1 is not on the disk.").arg(number);
            return false;
        }
        *part = *p;
        return true;
    }

    bool format(int number, const Operation &op, QString *error)
    {
        DiskLayout layout;
        PartitionInfo p;
        if (!partition(number, &layout, &p, error))
            return false;
        const qint64 ss = layout.device.topology.logicalSectorSize;
        FormatRequest req;
        req.filesystem = op.filesystem;
        req.label = op.label;
        const FilesystemLocation where = partitionLocation(layout, p.startSector, number);
        req.targetIsImage = where.isImage;
        req.target = where.path;
        req.offsetBytes = p.startSector * ss;
        req.sizeBytes = p.lengthSectors() * ss;
        req.startSector = p.startSector;
        req.logicalSectorSize = ss;
        const AlignmentGeometry geometry =
            resolveAlignmentGeometry(layout.device.topology, m_context.policy);
        req.grainBytes = geometry.grainBytes;
        req.physicalSectorBytes = geometry.physicalAssumed;
        req.keyFile = op.keyFile;
        req.passphrase = op.passphrase;
        const ToolResult r =
            isCreatableLayer(req.filesystem) ? createLayer(req) : formatFilesystem(req);
        m_context.log(QStringLiteral("  $ %1").arg(r.command));
        if (!r.ok)
            *error = r.error;
        // A Create's entry got its type from libparted already; a Format's kept the old one.
        return r.ok && (op.type != Operation::Type::Format ||
                        giveContentType(m_context, layout, number, op.filesystem, error));
    }

    // A new UUID's and a new label's writes go through a redo record: a cut while the tool's
    // writes were half on the disk could leave a FAT's boot sector and its backup, or an NTFS's
    // $Volume, disagreeing. A new UUID's and a new label's references follow it
    // (ops/identityfollow.h).
    bool renameFilesystem(int number, const Operation &op, QString *error)
    {
        DiskLayout layout;
        PartitionInfo p;
        if (!partition(number, &layout, &p, error))
            return false;
        const bool newUuid = op.type == Operation::Type::NewUuid;
        const QString uuid =
            newUuid && op.uuid.isEmpty() ? randomFilesystemUuid(p.filesystem) : op.uuid;
        if (newUuid && !fitsFilesystemUuid(p.filesystem, uuid)) {
            *error = QStringLiteral("%1 is no UUID for the %2 filesystem on partition %3; nothing "
                                    "was changed.")
                         .arg(uuid, p.filesystem)
                         .arg(number);
            return false;
        }
        const qint64 bytes = p.lengthSectors() * layout.device.topology.logicalSectorSize;
        ToolResult said = ToolResult::failed(QString());
        const ToolResult r =
            journaled(partitionLocation(layout, p.startSector, number), bytes,
                      [&](const FilesystemLocation &view) {
                          said = newUuid ? newFilesystemUuid(view, bytes, p.filesystem, uuid)
                                         : relabelIn(view, bytes, p, op.label);
                          return said;
                      });
        if (!finishTool(r, said, error))
            return false;
        const IdentityChange change = newUuid ? uuidChange(op, p, uuid) : labelChange(op, p);
        if (change.from.isEmpty() || change.to.isEmpty() || change.from == change.to)
            return true;
        if (change.kind == IdentityChange::Kind::Label && !labelFollowable(change.to)) {
            m_context.log(QStringLiteral("  LABEL=%1 is not rewritten: fstab and boot entries "
                                         "cannot name a label with a space, comma, semicolon or "
                                         "quote unescaped; edit them by hand")
                              .arg(change.from));
            return true;
        }
        return followIdentityChange(layout, change, m_context.log, error);
    }

    // The queued old UUID; else the disk's, unless a resume finds the new one given already.
    static IdentityChange uuidChange(const Operation &op, const PartitionInfo &p,
                                     const QString &uuid)
    {
        const QString old = !op.oldUuid.isEmpty()                       ? op.oldUuid
                            : p.uuid.compare(uuid, Qt::CaseInsensitive) ? p.uuid
                                                                        : QString();
        return IdentityChange{IdentityChange::Kind::Uuid, old, uuid};
    }

    // The queued old label; else the one read before the write (a resume after the write
    // reads the new one there: nothing follows then but what the queue named).
    static IdentityChange labelChange(const Operation &op, const PartitionInfo &p)
    {
        const QString old = op.oldLabel.isEmpty() ? p.label : op.oldLabel;
        return IdentityChange{IdentityChange::Kind::Label, old, op.label};
    }

    static ToolResult relabelIn(const FilesystemLocation &view, qint64 bytes,
                                const PartitionInfo &p, const QString &label)
    {
        const FilesystemNode node(view, bytes, false);
        if (node.node().isEmpty())
            return ToolResult::failed(node.error());
        return relabelFilesystem(node.node(), p.filesystem, label);
    }

    // `tool` on a copy-on-write view of `where` with its writes redo-logged beside Apply's
    // journal; without a journal, on `where` itself.
    ToolResult journaled(const FilesystemLocation &where, qint64 bytes, const JournaledTool &tool)
    {
        const RedoJournal redo = m_context.filesystemRedo();
        return redo.path.isEmpty() ? tool(where) : runToolJournaled(where, bytes, redo, tool);
    }

    // Logs the tool's command (when it ran: `said`) and takes the journaled run's verdict `r`.
    bool finishTool(const ToolResult &r, const ToolResult &said, QString *error)
    {
        if (!said.command.isEmpty())
            m_context.log(QStringLiteral("  $ %1\n%2").arg(said.command, said.output.trimmed()));
        if (!r.ok)
            *error = r.error;
        return r.ok;
    }

    // libparted has no call for a GPT entry's unique GUID; libfdisk changes just that field and
    // the table's checksums. The kernel's partitions are left alone (nothing about them
    // changes), so no re-read is asked for. A resume after a kill here runs it again: the
    // partition then gets another new GUID, which is what was asked.
    bool newPartitionGuid(int number, QString *error)
    {
        DiskLayout layout;
        PartitionInfo p;
        if (!partition(number, &layout, &p, error))
            return false;
        if (layout.tableType != QLatin1String("gpt")) {
            *error = QStringLiteral("Partition %1 is on a %2 table, which has no partition GUIDs.")
                         .arg(number)
                         .arg(layout.tableType);
            return false;
        }
        PartitionIdentity id;
        id.number = number;
        id.partitionGuid = QUuid::createUuid().toString(QUuid::WithoutBraces).toUpper();
        ExclusiveClaim claim; // a table write, as a commit is
        if (!claim.takeForTableWrite(m_context.target, error))
            return false;
        const int fd = ::open(QFile::encodeName(m_context.target).constData(), O_RDWR | O_CLOEXEC);
        if (fd < 0) {
            *error = QStringLiteral("Cannot open %1: %2")
                         .arg(m_context.target, QString::fromLocal8Bit(std::strerror(errno)));
            return false;
        }
        const bool ok = setTableIdentifiers(
            fd, m_context.target, layout.device.topology.logicalSectorSize, {id}, QString(), error);
        ::close(fd);
        if (ok)
            m_context.log(QStringLiteral("  partition %1 has the GUID %2 now")
                              .arg(number)
                              .arg(id.partitionGuid));
        return ok;
    }

    template <typename Action>
    bool withDeviceNode(int number, bool readOnly, QString *error, Action action)
    {
        DiskLayout layout;
        PartitionInfo p;
        if (!partition(number, &layout, &p, error))
            return false;
        const FilesystemLocation where = partitionLocation(layout, p.startSector, number);
        if (!where.isImage)
            return action(where.path, p);
        // A loop device as root; without root the partition as a file through FUSE (or, to
        // check only, a scratch copy).
        const qint64 ss = layout.device.topology.logicalSectorSize;
        const FilesystemNode node(where, p.lengthSectors() * ss, readOnly);
        if (node.node().isEmpty()) {
            *error = node.error();
            return false;
        }
        return action(node.node(), p);
    }

    const OperationContext &m_context;
};

} // namespace

bool OperationContext::read(DiskLayout *layout, QString *error) const
{
    DiskReadOptions ro;
    ro.forcedSectorSize = forcedSectorSize;
    const DiskReadResult r = readDisk(target, ro);
    if (!r.ok) {
        *error = r.error;
        return false;
    }
    *layout = r.layout;
    return true;
}

RedoJournal OperationContext::filesystemRedo() const
{
    RedoJournal r;
    if (journalPath.isEmpty())
        return r;
    r.path = journalPath + QStringLiteral(".fs.redo");
    r.tag = quint64(0x46534f50) << 32 | quint64(quint32(operationIndex)); // 'FSOP'
    r.log = log;
    return r;
}

RedoJournal OperationContext::tableRedo() const
{
    return journalPath.isEmpty() ? RedoJournal{}
                                 : partwise::tableRedo(journalPath, operationIndex, log);
}

bool executeOperation(const OperationContext &context, const Operation &op,
                      const DiskLayout &before, const QString &tableBefore, QString *error)
{
    if (const QString problem = op.textProblem(); !problem.isEmpty()) {
        *error = QStringLiteral("%1: %2; nothing was changed.").arg(op.description(), problem);
        return false;
    }
    return OperationExecution(context).run(op, before, tableBefore, error);
}

int addedPartition(const DiskLayout &now, const QString &before)
{
    const QStringList places = before.split(QLatin1Char('|'));
    for (const PartitionInfo &p : now.partitions())
        if (!places.contains(placeOf(p)))
            return p.number;
    return 0;
}

QString tableSummary(const DiskLayout &layout)
{
    QStringList parts{QStringLiteral("table=") + layout.tableType};
    for (const PartitionInfo &p : layout.partitions())
        parts << placeOf(p);
    return parts.join(QLatin1Char('|'));
}

} // namespace partwise
