#include "boot/fatreferencefiles.h"

#include "base/toolrunner.h"

#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <unistd.h>

namespace partwise {

namespace {

const QString kPackage = QStringLiteral("mtools");

QString dosPath(const QString &path)
{
    return QStringLiteral("::/") + path;
}

} // namespace

FatReferenceFiles::FatReferenceFiles(const QString &path, qint64 offset)
    : m_path(path), m_image(QStringLiteral("%1@@%2").arg(path).arg(offset))
{
}

ReferenceFiles::Read FatReferenceFiles::read(const QString &path, QByteArray *bytes, QString *why)
{
    if (!m_scratch.isValid()) {
        *why = QStringLiteral("no scratch folder: %1").arg(m_scratch.errorString());
        return Read::Failed;
    }
    const QString local = m_scratch.filePath(QStringLiteral("read"));
    QFile::remove(local);
    // The filesystem is a user's: a 4 GiB grub.cfg must not fill root's disk before it is
    // refused. mcopy stops one byte past the largest file taken.
    const ToolResult r = runToolWritingAtMost(
        QStringLiteral("mcopy"),
        {QStringLiteral("-n"), QStringLiteral("-i"), m_image, dosPath(path), local}, kPackage,
        kMaxReferenceFileBytes + 1);
    if (QFileInfo(local).size() > kMaxReferenceFileBytes) {
        QFile::remove(local);
        *why = QStringLiteral("larger than %1 bytes").arg(kMaxReferenceFileBytes);
        return Read::NotPlain;
    }
    if (!r.ok) {
        if (r.exitCode > 0 && r.output.contains(QLatin1String("not found")))
            return Read::Missing;
        *why = r.error;
        return Read::Failed;
    }
    const QFileInfo info(local);
    if (!info.isFile() || info.isSymLink()) {
        QFile::remove(local);
        *why = QStringLiteral("not a file");
        return Read::NotPlain;
    }
    QFile f(local);
    if (!f.open(QIODevice::ReadOnly)) {
        *why = f.errorString();
        return Read::Failed;
    }
    *bytes = f.readAll();
    return Read::Ok;
}

QStringList FatReferenceFiles::list(const QString &folder)
{
    const ToolResult r =
        runTool(QStringLiteral("mdir"),
                {QStringLiteral("-b"), QStringLiteral("-i"), m_image, dosPath(folder)}, kPackage,
                10 * 60 * 1000, ToolChannels::Separate);
    QStringList names;
    if (!r.ok)
        return names;
    const QString prefix = dosPath(folder) + QLatin1Char('/');
    for (QString line : r.output.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        line = line.trimmed();
        if (!line.startsWith(prefix, Qt::CaseInsensitive))
            continue;
        QString name = line.mid(prefix.size());
        if (name.endsWith(QLatin1Char('/')))
            name.chop(1);
        if (!name.isEmpty() && !name.contains(QLatin1Char('/')))
            names << name;
    }
    names.sort();
    return names;
}

bool FatReferenceFiles::writeNew(const QString &path, const QString &, const QByteArray &bytes,
                                 QString *why)
{
    return rewrite(path, bytes, why);
}

// FAT has no owner or mode to keep; mcopy -o replaces the file's contents.
bool FatReferenceFiles::rewrite(const QString &path, const QByteArray &bytes, QString *why)
{
    const QString local = m_scratch.filePath(QStringLiteral("write"));
    QFile f(local);
    if (!m_scratch.isValid() || !f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(bytes) != bytes.size() || !f.flush()) {
        *why = QStringLiteral("cannot stage it: %1").arg(f.errorString());
        return false;
    }
    f.close();
    const ToolResult r = runTool(
        QStringLiteral("mcopy"),
        {QStringLiteral("-o"), QStringLiteral("-i"), m_image, local, dosPath(path)}, kPackage);
    if (!r.ok) {
        *why = r.error;
        return false;
    }
    // mtools leaves its writes to the page cache: the backup is durable before the file changes.
    const int fd = ::open(QFile::encodeName(m_path).constData(), O_RDONLY | O_CLOEXEC);
    const bool synced = fd >= 0 && ::fsync(fd) == 0;
    if (fd >= 0)
        ::close(fd);
    if (!synced)
        *why = QStringLiteral("syncing %1 failed").arg(m_path);
    return synced;
}

} // namespace partwise
