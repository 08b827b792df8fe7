#include "diskimagebuilder.h"

#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryFile>

namespace pwtest {

namespace {

constexpr qint64 MiB = 1024 * 1024;

bool check(const ToolResult &r, QString *error)
{
    if (r.ok())
        return true;
    if (error)
        *error = r.describe();
    return false;
}

Fixture finish(Fixture f, bool ok, const QString &error)
{
    f.ok = ok;
    if (!ok)
        f.error = QStringLiteral("%1: %2").arg(f.name, error);
    return f;
}

QString classicGptScript()
{
    return QStringLiteral("label: gpt\nfirst-lba: 34\n\n"
                          "start=34, size=6, type=L\n"
                          "start=40, size=2008, type=L\n"
                          "start=2048, size=65536, type=L\n");
}

// Breaks the header CRC (offset 16 in the header) of the GPT header at `headerOffset`.
bool breakGptHeader(const QString &image, qint64 headerOffset, QString *error)
{
    return DiskImageBuilder::writeAt(image, headerOffset + 16, QByteArray("\xde\xad\xbe\xef", 4),
                                     error);
}

} // namespace

DiskImageBuilder::DiskImageBuilder(const QString &dir) : m_dir(dir) {}

Fixture DiskImageBuilder::start(const QString &name) const
{
    Fixture f;
    f.name = name;
    f.path = QDir(m_dir).filePath(name + QStringLiteral(".img"));
    return f;
}

QString DiskImageBuilder::createSparse(const QString &name, qint64 bytes, QString *error)
{
    const QString path = QDir(m_dir).filePath(name + QStringLiteral(".img"));
    QFile::remove(path);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !f.resize(bytes)) {
        if (error)
            *error = QStringLiteral("cannot create %1: %2").arg(path, f.errorString());
        return {};
    }
    return path;
}

bool DiskImageBuilder::sfdisk(const QString &image, const QString &script, QString *error)
{
    return check(runTool(QStringLiteral("sfdisk"),
                         {QStringLiteral("--quiet"), QStringLiteral("--no-reread"),
                          QStringLiteral("--no-tell-kernel"), image},
                         script.toUtf8()),
                 error);
}

bool DiskImageBuilder::fdiskScript(const QString &image, int sectorSize, const QString &script,
                                   QString *error)
{
    QTemporaryFile file;
    if (!file.open() || file.write(script.toUtf8()) < 0 || !file.flush()) {
        if (error)
            *error = QStringLiteral("cannot write fdisk script");
        return false;
    }
    const QByteArray commands = "I\n" + file.fileName().toUtf8() + "\nw\n";
    const ToolResult r =
        runTool(QStringLiteral("fdisk"), {QStringLiteral("-b"), QString::number(sectorSize), image},
                commands);
    if (r.ok() && r.out.contains("Script successfully applied"))
        return true;
    if (error)
        *error = r.describe() + QString::fromUtf8(r.out);
    return false;
}

bool DiskImageBuilder::mkfsExt4(const QString &image, qint64 offsetBytes, qint64 bytes,
                                const QString &label, QString *error)
{
    return check(runTool(QStringLiteral("mkfs.ext4"),
                         {QStringLiteral("-F"), QStringLiteral("-q"), QStringLiteral("-L"), label,
                          QStringLiteral("-E"), QStringLiteral("offset=%1").arg(offsetBytes), image,
                          QStringLiteral("%1k").arg(bytes / 1024)}),
                 error);
}

bool DiskImageBuilder::mkfsVfat(const QString &image, qint64 offsetBytes, qint64 bytes,
                                const QString &label, QString *error)
{
    // mkfs.fat counts --offset in 512-byte sectors and the size in 1 KiB blocks.
    return check(runTool(QStringLiteral("mkfs.vfat"),
                         {QStringLiteral("--offset=%1").arg(offsetBytes / 512),
                          QStringLiteral("-n"), label, image, QString::number(bytes / 1024)}),
                 error);
}

bool DiskImageBuilder::writeAt(const QString &image, qint64 offset, const QByteArray &bytes,
                               QString *error)
{
    QFile f(image);
    if (f.open(QIODevice::ReadWrite) && f.seek(offset) && f.write(bytes) == bytes.size())
        return true;
    if (error)
        *error =
            QStringLiteral("cannot write %1 at %2: %3").arg(image).arg(offset).arg(f.errorString());
    return false;
}

bool DiskImageBuilder::truncateTo(const QString &image, qint64 bytes, QString *error)
{
    if (QFile::resize(image, bytes))
        return true;
    if (error)
        *error = QStringLiteral("cannot truncate %1").arg(image);
    return false;
}

Fixture DiskImageBuilder::winXpMbr()
{
    Fixture f = start(QStringLiteral("winxp-mbr"));
    QString e;
    const bool ok = !createSparse(f.name, 64 * MiB, &e).isEmpty() &&
                    sfdisk(f.path,
                           QStringLiteral("label: dos\n\n"
                                          "start=63, size=131009, type=7, bootable\n"),
                           &e) &&
                    mkfsVfat(f.path, 63 * 512, 64 * MiB - 63 * 512, QStringLiteral("PWXP"), &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::oldFdiskCylinder()
{
    return oldFdiskCylinderAs(QStringLiteral("old-fdisk-cylinder"));
}

Fixture DiskImageBuilder::oldFdiskCylinderAs(const QString &name)
{
    Fixture f = start(name);
    QString e;
    const qint64 cylinder = 16065;
    const bool ok = !createSparse(f.name, 8 * cylinder * 512, &e).isEmpty() &&
                    sfdisk(f.path,
                           QStringLiteral("label: dos\n\n"
                                          "start=63, size=32067, type=83\n"
                                          "start=32130, size=96390, type=5\n"
                                          "start=32193, size=16002, type=83\n"
                                          "start=48258, size=32067, type=83\n"
                                          "start=80388, size=48132, type=82\n"),
                           &e) &&
                    mkfsExt4(f.path, 32193 * 512, 16002 * 512, QStringLiteral("pwcyl5"), &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::handAlignedExtended()
{
    Fixture f = start(QStringLiteral("hand-aligned-extended"));
    QString e;
    const bool ok = !createSparse(f.name, 64 * MiB, &e).isEmpty() &&
                    sfdisk(f.path,
                           QStringLiteral("label: dos\n\n"
                                          "start=2048, size=18432, type=83\n"
                                          "start=20481, size=110591, type=5\n"
                                          "start=22528, size=40960, type=83\n"
                                          "start=65536, size=65536, type=83\n"),
                           &e) &&
                    mkfsExt4(f.path, 22528 * 512, 40960 * 512, QStringLiteral("pwhand5"), &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::gptClassic()
{
    return gptClassicAs(QStringLiteral("gpt-34-40-2048"));
}

Fixture DiskImageBuilder::gptClassicAs(const QString &name)
{
    Fixture f = start(name);
    QString e;
    const bool ok = !createSparse(f.name, 64 * MiB, &e).isEmpty() &&
                    sfdisk(f.path, classicGptScript(), &e) &&
                    mkfsExt4(f.path, 2048 * 512, 65536 * 512, QStringLiteral("pwroot"), &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::gptSingle(qint64 startSector)
{
    Fixture f = start(QStringLiteral("gpt-single-%1").arg(startSector));
    QString e;
    const QString script = QStringLiteral("label: gpt\nfirst-lba: 34\n\nstart=%1, size=16384, "
                                          "type=L\n")
                               .arg(startSector);
    const bool ok = !createSparse(f.name, 32 * MiB, &e).isEmpty() && sfdisk(f.path, script, &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::gpt4kn()
{
    Fixture f = start(QStringLiteral("gpt-4kn"));
    f.logicalSectorSize = 4096;
    QString e;
    const QString script = QStringLiteral("label: gpt\nfirst-lba: 6\n\n"
                                          "start=6, size=250, type=L\n"
                                          "start=256, size=4096, type=L\n"
                                          "start=4352, size=8192, type=L\n");
    const bool ok = !createSparse(f.name, 64 * MiB, &e).isEmpty() &&
                    fdiskScript(f.path, 4096, script, &e) &&
                    mkfsExt4(f.path, 256 * 4096, 4096 * 4096, QStringLiteral("pw4kn"), &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::gptMany(int count)
{
    Fixture f = start(QStringLiteral("gpt-many-%1").arg(count));
    QString script = QStringLiteral("label: gpt\ntable-length: 128\n\n");
    for (int i = 1; i <= count; ++i) {
        qint64 first = 2048LL * i;
        if (i == 50)
            first += 3;
        else if (i == 7 || i == 107)
            first += 8;
        script += QStringLiteral("start=%1, size=1024, type=L\n").arg(first);
    }
    QString e;
    const bool ok =
        !createSparse(f.name, (count + 2) * MiB, &e).isEmpty() && sfdisk(f.path, script, &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::modernMbr()
{
    Fixture f = start(QStringLiteral("modern-mbr"));
    QString e;
    const bool ok = !createSparse(f.name, 96 * MiB, &e).isEmpty() &&
                    sfdisk(f.path,
                           QStringLiteral("label: dos\n\n"
                                          "start=2048, size=65536, type=83\n"
                                          "start=67584, size=129024, type=5\n"
                                          "start=69632, size=32768, type=c\n"
                                          "start=104448, size=92160, type=83\n"),
                           &e) &&
                    mkfsExt4(f.path, 2048 * 512, 65536 * 512, QStringLiteral("pwboot"), &e) &&
                    mkfsVfat(f.path, 69632 * 512, 32768 * 512, QStringLiteral("PWDATA"), &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::modernGpt()
{
    Fixture f = start(QStringLiteral("modern-gpt"));
    QString e;
    const bool ok = !createSparse(f.name, 96 * MiB, &e).isEmpty() &&
                    sfdisk(f.path,
                           QStringLiteral("label: gpt\n\n"
                                          "start=2048, size=65536, type=U\n"
                                          "start=67584, size=126976, type=L\n"),
                           &e) &&
                    mkfsVfat(f.path, 2048 * 512, 65536 * 512, QStringLiteral("PWEFI"), &e) &&
                    mkfsExt4(f.path, 67584 * 512, 126976 * 512, QStringLiteral("pwgpt2"), &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::corruptPrimaryGpt()
{
    Fixture f = gptClassicAs(QStringLiteral("gpt-corrupt-primary"));
    QString e;
    return f.ok ? finish(f, breakGptHeader(f.path, 512, &e), e) : f;
}

Fixture DiskImageBuilder::corruptBothGpt()
{
    Fixture f = gptClassicAs(QStringLiteral("gpt-corrupt-both"));
    if (!f.ok)
        return f;
    QString e;
    const bool ok = breakGptHeader(f.path, 512, &e) && breakGptHeader(f.path, 64 * MiB - 512, &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::truncatedGpt()
{
    Fixture f = start(QStringLiteral("gpt-truncated"));
    QString e;
    const bool ok = !createSparse(f.name, 64 * MiB, &e).isEmpty() &&
                    sfdisk(f.path, classicGptScript(), &e) && truncateTo(f.path, 4 * MiB, &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::truncatedMbr()
{
    Fixture f = oldFdiskCylinderAs(QStringLiteral("mbr-truncated"));
    QString e;
    return f.ok ? finish(f, truncateTo(f.path, 8 * MiB, &e), e) : f;
}

Fixture DiskImageBuilder::garbage()
{
    Fixture f = start(QStringLiteral("garbage"));
    QByteArray bytes(4 * MiB, Qt::Uninitialized);
    QRandomGenerator rng(20240601);
    for (qsizetype i = 0; i < bytes.size(); ++i)
        bytes[i] = char(rng.bounded(256));
    bytes[510] = 0x12; // never a 0x55AA boot signature
    QString e;
    const bool ok = !createSparse(f.name, 0, &e).isEmpty() && writeAt(f.path, 0, bytes, &e);
    return finish(f, ok, e);
}

Fixture DiskImageBuilder::emptyFile()
{
    Fixture f = start(QStringLiteral("empty"));
    QString e;
    return finish(f, !createSparse(f.name, 0, &e).isEmpty(), e);
}

Fixture DiskImageBuilder::missingPath()
{
    Fixture f = start(QStringLiteral("does-not-exist"));
    QFile::remove(f.path);
    return finish(f, true, {});
}

} // namespace pwtest
