#include "ops/formattype.h"

#include "boot/partitionentries.h"
#include "ops/operation.h"
#include "ops/tableeditor.h"
#include "table/tableidentifiers.h"

#include <QDir>
#include <QFile>
#include <QTemporaryFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

QString entryType(const QString &path, qint64 sectorSize, int number)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return QString();
    const PartitionEntries entries = readPartitionEntries(fd, sectorSize);
    ::close(fd);
    const PartitionEntry *e = entries.ok ? entries.byNumber(number) : nullptr;
    return e ? e->typeId() : QString();
}

// libparted 3.5 chooses a type for contents but tells no one which: its table is written on a
// sparse scratch copy of the disk's size and the entry read back from there.
QString libpartedType(const AlignmentPolicy &policy, const DiskLayout &layout, int number,
                      const QString &content, QString *error)
{
    QTemporaryFile scratch(QDir::temp().filePath(QStringLiteral("partwise-type-XXXXXX")));
    const qint64 ss = layout.device.topology.logicalSectorSize;
    if (!scratch.open() || !scratch.resize(layout.device.lengthSectors * ss)) {
        *error = scratch.errorString();
        return QString();
    }
    Operation format;
    format.type = Operation::Type::Format;
    format.number = number;
    format.filesystem = content;
    TableEditor editor;
    if (!editor.openReplica(layout, scratch.fileName(), error) ||
        !editor.apply(format, policy, error) || !editor.commit(error))
        return QString();
    return entryType(scratch.fileName(), ss, number);
}

} // namespace

bool giveContentType(const OperationContext &context, const DiskLayout &layout, int number,
                     const QString &content, QString *error)
{
    if (layout.tableType != QLatin1String("msdos") && layout.tableType != QLatin1String("gpt"))
        return true; // other labels carry no type Partwise sets
    const qint64 ss = layout.device.topology.logicalSectorSize;
    QString why;
    const QString wanted = libpartedType(context.policy, layout, number, content, &why);
    const QString now = entryType(context.target, ss, number);
    if (wanted.isEmpty()) {
        *error = QStringLiteral("Partition %1 was formatted as %2, but the type that goes with "
                                "it cannot be worked out: %3")
                     .arg(number)
                     .arg(content, why);
        return false;
    }
    if (now.compare(wanted, Qt::CaseInsensitive) == 0)
        return true;
    const int fd = ::open(QFile::encodeName(context.target).constData(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        *error = QStringLiteral("Partition %1 was formatted as %2, but %3 cannot be opened to give "
                                "it the type that goes with it: %4")
                     .arg(number)
                     .arg(content, context.target, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    PartitionIdentity id;
    id.number = number;
    id.typeId = wanted;
    const bool ok = setTableIdentifiers(fd, context.target, ss, {id}, QString(), error);
    ::close(fd);
    if (ok)
        context.log(QStringLiteral("  partition %1's type is now %2 (was %3), as %4 has")
                        .arg(number)
                        .arg(wanted, now.isEmpty() ? QStringLiteral("unknown") : now, content));
    else
        error->prepend(QStringLiteral("Partition %1 was formatted as %2, but giving it the type "
                                      "%3 failed. ")
                           .arg(number)
                           .arg(content, wanted));
    return ok;
}

} // namespace partwise
