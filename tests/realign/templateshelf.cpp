// Disk images built once per layout (sfdisk, then each filesystem made and filled with the
// same file tree), copied afresh for each test, and the checks every realigned copy must pass:
// the table by sfdisk/sgdisk, each partition on the grain with its size, blkid identity, its
// filesystem's own check, FAT's hidden sectors, the SHA-256 of every file, and partwise-cli
// check. Shared by the end-to-end suites.
#include "templateshelf.h"

#include "clirun.h"
#include "filetree.h"
#include "fsfixture.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

#include <fcntl.h>
#include <unistd.h>

namespace pwtest {

TemplateShelf::TemplateShelf(const QString &dir, const QString &source,
                             const QMap<QString, QByteArray> &expected)
    : m_dir(dir), m_source(source), m_expected(expected)
{
}

bool TemplateShelf::build(const Layout &layout, QString *error)
{
    Template t;
    t.layout = layout;
    t.path = m_dir.filePath(layout.name + QStringLiteral(".template.img"));
    QFile f(t.path);
    if (!f.open(QIODevice::WriteOnly) || !f.resize(layout.diskSectors * kSector)) {
        *error = f.errorString();
        return false;
    }
    f.close();
    const ToolResult table =
        runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), t.path}, layout.script.toUtf8());
    if (!table.ok()) {
        *error = table.describe();
        return false;
    }
    if (!layout.parted.isEmpty()) {
        const ToolResult more =
            runTool(QStringLiteral("parted"),
                    QStringList{QStringLiteral("-s"), QStringLiteral("-a"), QStringLiteral("none"),
                                t.path, QStringLiteral("unit"), QStringLiteral("s")} +
                        layout.parted);
        if (!more.ok()) {
            *error = more.describe();
            return false;
        }
    }
    for (const PartSpec &p : layout.parts) {
        if (p.fs.isEmpty())
            continue;
        if (reuseBuiltPartition(p, t.path, &t.ids[p.number], error))
            continue; // the same bytes passed the checks below when they were made
        if (!error->isEmpty())
            return false;
        LoopRange loop(t.path, p.start * kSector, p.size * kSector);
        if (!loop.ok()) {
            *error = loop.error();
            return false;
        }
        if (!makeFilesystem(loop.path(), p.fs, p.label, p.start, error) ||
            !fillFilesystem(loop.path(), p.fs, m_source, error))
            return false;
        t.ids.insert(p.number, blkidProbe(loop.path()));
        if (t.ids[p.number].type != blkidTypeOf(p.fs)) {
            *error = QStringLiteral("blkid sees %1 on partition %2, not %3")
                         .arg(t.ids[p.number].type)
                         .arg(p.number)
                         .arg(p.fs);
            return false;
        }
        // The fixture itself must pass every check the realigned copy will face.
        if (p.fs != QLatin1String("swap")) {
            const QStringList diff =
                compareTrees(m_expected, filesystemTreeSha256(loop.path(), p.fs, error));
            if (!diff.isEmpty()) {
                *error = QStringLiteral("fixture partition %1: %2")
                             .arg(p.number)
                             .arg(diff.mid(0, 5).join(QLatin1String(", ")));
                return false;
            }
        }
        const ToolResult fsck = checkFilesystemReadOnly(loop.path(), p.fs);
        if (!fsck.ok()) {
            *error = fsck.describe() + QString::fromUtf8(fsck.out);
            return false;
        }
        if (!keepBuiltPartition(p, t.path, t.ids[p.number], error))
            return false;
    }
    m_templates.insert(layout.name, t);
    return true;
}

namespace {

QString partitionKey(const PartSpec &p)
{
    return QStringLiteral("%1-%2-%3-%4").arg(p.fs, p.label).arg(p.start).arg(p.size);
}

// Copies the data of `length` bytes from `from` at `fromOffset` to `to` at `toOffset`, hole by
// hole: the templates start out sparse (zeros where nothing was written), and the 320 MiB
// partitions hold some 10 MiB of filesystem.
bool copyRange(const QString &from, qint64 fromOffset, const QString &to, qint64 toOffset,
               qint64 length, QString *error)
{
    const int in = ::open(QFile::encodeName(from).constData(), O_RDONLY | O_CLOEXEC);
    const int out = ::open(QFile::encodeName(to).constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    bool ok = in >= 0 && out >= 0;
    for (qint64 at = fromOffset, end = fromOffset + length; ok && at < end;) {
        const off_t data = ::lseek(in, at, SEEK_DATA);
        if (data < 0 || data >= end)
            break; // only a hole (or the file's end) is left
        const off_t hole = std::min<off_t>(::lseek(in, data, SEEK_HOLE), end);
        for (loff_t src = data, dst = toOffset + (data - fromOffset); ok && src < hole;) {
            const ssize_t n = ::copy_file_range(in, &src, out, &dst, size_t(hole - src), 0);
            ok = n > 0;
        }
        at = hole;
    }
    if (!ok)
        *error = QStringLiteral("copying %1 into %2: %3").arg(from, to, qt_error_string(errno));
    if (in >= 0)
        ::close(in);
    if (out >= 0)
        ::close(out);
    return ok;
}

} // namespace

bool TemplateShelf::reuseBuiltPartition(const PartSpec &p, const QString &image, BlkidInfo *id,
                                        QString *error) const
{
    const auto built = m_partitions.constFind(partitionKey(p));
    if (built == m_partitions.cend())
        return false;
    if (!copyRange(built->path, 0, image, p.start * kSector, p.size * kSector, error))
        return false;
    *id = built->id;
    return true;
}

bool TemplateShelf::keepBuiltPartition(const PartSpec &p, const QString &image, const BlkidInfo &id,
                                       QString *error)
{
    const QString path =
        m_dir.filePath(QStringLiteral("partition-%1.img").arg(m_partitions.size()));
    QFile::remove(path);
    if (!copyRange(image, p.start * kSector, path, 0, p.size * kSector, error))
        return false;
    m_partitions.insert(partitionKey(p), {path, id});
    return true;
}

QString TemplateShelf::freshCopy(const QString &layout, const QString &name)
{
    const QString path = m_dir.filePath(name + QStringLiteral(".img"));
    QFile::remove(journalOf(path));
    QFile::remove(journalOf(path) + QStringLiteral(".data"));
    QString error;
    if (!copySparse(m_templates.value(layout).path, path, &error)) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    return path;
}

QStringList TemplateShelf::verify(const Template &t, const QString &image)
{
    QStringList problems;
    const bool gpt = t.layout.name.startsWith(QLatin1String("gpt"));
    // 1. The table, by its own validators.
    const ToolResult valid = gpt ? runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), image})
                                 : runTool(QStringLiteral("sfdisk"), {QStringLiteral("-V"), image});
    if (!valid.ok() || (gpt && !valid.out.contains("No problems found")))
        problems
            << QStringLiteral("table: %1 %2").arg(valid.describe(), QString::fromUtf8(valid.out));
    const SfdiskTable table = SfdiskTable::read(image);
    if (!table.ok)
        return problems << table.error;

    // 2. Each partition on the grain, its size kept, its filesystem intact.
    for (const PartSpec &spec : t.layout.parts) {
        const SfdiskPartition *p = table.find(spec.number);
        if (!p) {
            problems << QStringLiteral("partition %1 is gone").arg(spec.number);
            continue;
        }
        if (spec.fs.isEmpty()) {
            // An extended partition may shift with its logical partitions, never change size.
            if (p->size != spec.size || (!t.layout.extendedMayMove && p->start != spec.start))
                problems << QStringLiteral("extended partition changed: %1+%2")
                                .arg(p->start)
                                .arg(p->size);
            continue;
        }
        const QString where = QStringLiteral("partition %1 (%2)").arg(spec.number).arg(spec.fs);
        if (p->start % kGrainSectors != 0)
            problems << QStringLiteral("%1 starts at %2, not on 1 MiB").arg(where).arg(p->start);
        if (p->size != spec.size - spec.shrinkBy)
            problems << QStringLiteral("%1 is %2 sectors, was %3")
                            .arg(where)
                            .arg(p->size)
                            .arg(spec.size);
        LoopRange loop(image, p->start * kSector, p->size * kSector, true);
        if (!loop.ok()) {
            problems << loop.error();
            continue;
        }
        const BlkidInfo id = blkidProbe(loop.path());
        const BlkidInfo was = t.ids.value(spec.number);
        if (id.type != was.type || id.uuid != was.uuid || id.label != was.label)
            problems << QStringLiteral("%1: blkid sees %2 %3 %4, expected %5 %6 %7")
                            .arg(where, id.type, id.uuid, id.label, was.type, was.uuid, was.label);
        const ToolResult fsck = checkFilesystemReadOnly(loop.path(), spec.fs);
        if (!fsck.ok())
            problems << QStringLiteral("%1: %2 %3")
                            .arg(where, fsck.describe(), QString::fromUtf8(fsck.out.right(600)));
        if (blkidTypeOf(spec.fs) == QLatin1String("vfat") &&
            fatHiddenSectors(loop.path()) != p->start)
            problems << QStringLiteral("%1: FAT hidden sectors %2, partition starts at %3")
                            .arg(where)
                            .arg(fatHiddenSectors(loop.path()))
                            .arg(p->start);
        if (spec.fs == QLatin1String("swap"))
            continue;
        QString error;
        const QStringList diff =
            compareTrees(m_expected, filesystemTreeSha256(loop.path(), spec.fs, &error));
        if (!diff.isEmpty())
            problems << QStringLiteral("%1: %2 files differ (%3) %4")
                            .arg(where)
                            .arg(diff.size())
                            .arg(diff.mid(0, 4).join(QLatin1String(", ")), error);
    }

    // 3. Partwise's own check now agrees that everything is aligned.
    const CliResult check = runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
    if (check.exitCode != 0 || !check.jsonValid || check.devices().size() != 1)
        problems << QStringLiteral("check: %1").arg(check.describe());
    else
        for (const QJsonValue &v :
             check.devices().first().toObject().value(QStringLiteral("partitions")).toArray()) {
            const QString status = v.toObject().value(QStringLiteral("status")).toString();
            if (status != QLatin1String("aligned") && status != QLatin1String("container"))
                problems << QStringLiteral("check: partition %1 is %2")
                                .arg(v.toObject().value(QStringLiteral("number")).toInt())
                                .arg(status);
        }
    return problems;
}

} // namespace pwtest
