// New UUID and new partition GUID through a plan file and `partwise-cli apply`, on a loop disk
// with every filesystem Partwise can renumber: blkid must see another UUID, each filesystem's
// own check must stay clean and every file intact; sfdisk -J must see the new GPT partition
// GUIDs; and a mounted filesystem is refused with nothing written.
#include "blkidprobe.h"
#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "fsfixture.h"
#include "loopdevice.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

struct Part
{
    QString fs;
    int mib;
};

// exFAT last: it is left out where tune.exfat or the exfat driver is missing.
const QList<Part> kParts = {{QStringLiteral("ext4"), 16},   {QStringLiteral("xfs"), 32},
                            {QStringLiteral("btrfs"), 128}, {QStringLiteral("vfat"), 16},
                            {QStringLiteral("ntfs"), 16},   {QStringLiteral("swap"), 8},
                            {QStringLiteral("exfat"), 16}};

// Partition number -> its GPT unique GUID, as `sfdisk -J` reads it.
QMap<int, QString> partitionGuids(const QString &disk)
{
    QMap<int, QString> out;
    for (const SfdiskPartition &p : SfdiskTable::read(disk).partitions)
        out[p.number] = p.entry.value(QStringLiteral("uuid")).toString().toUpper();
    return out;
}

} // namespace

class NewUuidTest : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void everyFilesystemAndPartitionGetsNewIds();
    void mountedFilesystemIsRefused();
    void partitionGuidOn4KnImage();
    void referencesFollowNewUuid();
    void referencesFollowNewLabel();
    void malformedUuidIsRefused();

private:
    QString writePlan(const QString &name, const QJsonArray &ops);
    QString makeDisk(const QString &name, const QList<Part> &parts);
    QTemporaryDir m_dir;
    QString m_files;
};

void NewUuidTest::initTestCase()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    m_files = m_dir.filePath(QStringLiteral("files"));
    QDir().mkpath(m_files + QStringLiteral("/sub"));
    for (const QString &name : {QStringLiteral("a.txt"), QStringLiteral("sub/b.bin")}) {
        QFile f(m_files + QLatin1Char('/') + name);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(70000, 'x') + name.toUtf8());
    }
}

QString NewUuidTest::makeDisk(const QString &name, const QList<Part> &parts)
{
    QByteArray script = "label: gpt\n";
    qint64 total = 2;
    for (const Part &p : parts) {
        script += QStringLiteral("size=%1MiB\n").arg(p.mib).toUtf8();
        total += p.mib;
    }
    const QString img = m_dir.filePath(name);
    QString error;
    if (!SfdiskTable::writeImage(img, (total + 1) << 20, script, &error))
        qWarning() << error;
    return img;
}

void NewUuidTest::everyFilesystemAndPartitionGetsNewIds()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QList<Part> parts = kParts;
    // exFAT where tune.exfat is installed; its files only where the kernel mounts exFAT.
    if (QStandardPaths::findExecutable(QStringLiteral("tune.exfat")).isEmpty())
        parts.removeLast();
    QFile known(QStringLiteral("/proc/filesystems"));
    QVERIFY(known.open(QIODevice::ReadOnly));
    const bool exfatFiles = known.readAll().contains("\texfat\n");
    const auto withFiles = [exfatFiles](const QString &fs) {
        return fs != QLatin1String("swap") && (fs != QLatin1String("exfat") || exfatFiles);
    };
    const QString img = makeDisk(QStringLiteral("ids.img"), parts);
    LoopDevice loop(img);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    QMap<int, QString> uuids;
    QMap<int, QMap<QString, QByteArray>> trees;
    QJsonArray ops;
    for (int i = 0; i < parts.size(); ++i) {
        const int n = i + 1;
        const QString node = loop.partitionNode(n);
        const QString fs = parts[i].fs;
        QString error;
        QVERIFY2(makeFilesystem(node, fs, QStringLiteral("P%1").arg(n), 0, &error),
                 qPrintable(error));
        if (withFiles(fs)) {
            QVERIFY2(fillFilesystem(node, fs, m_files, &error), qPrintable(fs + error));
            trees[n] = filesystemTreeSha256(node, fs, &error);
            QVERIFY2(trees[n].size() == 2, qPrintable(fs + error));
        }
        uuids[n] = blkidProbe(node).uuid;
        QVERIFY2(!uuids[n].isEmpty(), qPrintable(fs));
        ops.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("new-uuid")},
                               {QStringLiteral("number"), n}});
    }
    for (int n : {1, 4})
        ops.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("new-partition-guid")},
                               {QStringLiteral("number"), n}});
    const QMap<int, QString> guids = partitionGuids(loop.path());
    QCOMPARE(guids.size(), parts.size());

    const QString plan = m_dir.filePath(QStringLiteral("ids.json"));
    QFile f(plan);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(QJsonObject{{QStringLiteral("operations"), ops}}).toJson());
    f.close();
    const CliResult r =
        runCli({QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                m_dir.filePath(QStringLiteral("b")), plan, loop.path()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));

    forgetBtrfsDevices();
    for (int i = 0; i < parts.size(); ++i) {
        const int n = i + 1;
        const QString node = loop.partitionNode(n);
        const QString fs = parts[i].fs;
        const BlkidInfo now = blkidProbe(node);
        QCOMPARE(now.type, fs);
        QVERIFY2(!now.uuid.isEmpty() && now.uuid != uuids[n],
                 qPrintable(QStringLiteral("%1: %2 -> %3").arg(fs, uuids[n], now.uuid)));
        QCOMPARE(now.label, QStringLiteral("P%1").arg(n)); // mlabel keeps FAT's label
        const ToolResult check = checkFilesystemReadOnly(node, fs);
        QVERIFY2(check.ok(), qPrintable(check.describe() + QString::fromUtf8(check.out)));
        if (withFiles(fs)) {
            QString error;
            QCOMPARE(filesystemTreeSha256(node, fs, &error), trees[n]);
        }
    }
    const QMap<int, QString> guidsAfter = partitionGuids(loop.path());
    for (int n = 1; n <= parts.size(); ++n) {
        if (n == 1 || n == 4)
            QVERIFY2(guidsAfter[n] != guids[n] && guidsAfter[n].size() == 36,
                     qPrintable(guidsAfter[n]));
        else
            QCOMPARE(guidsAfter[n], guids[n]);
    }
    const ToolResult verify = runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), img});
    QVERIFY2(verify.ok() && verify.out.contains("No problems found"),
             qPrintable(verify.describe()));
}

// Busy rules as for Format: a mounted filesystem keeps its UUID, and its partition its GUID;
// mounted read-only so that the image's sha256 says whether anything at all was written.
void NewUuidTest::mountedFilesystemIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = makeDisk(QStringLiteral("mounted.img"), {{QStringLiteral("ext4"), 16}});
    LoopDevice loop(img);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    QString error;
    QVERIFY2(makeFilesystem(loop.partitionNode(1), QStringLiteral("ext4"), QStringLiteral("m"), 0,
                            &error),
             qPrintable(error));
    const QString mnt = m_dir.filePath(QStringLiteral("mnt"));
    QDir().mkpath(mnt);
    QVERIFY(runTool(QStringLiteral("mount"),
                    {QStringLiteral("-o"), QStringLiteral("ro"), loop.partitionNode(1), mnt})
                .ok());
    // Unmounted however the test ends, before the loop device goes.
    const auto unmount = qScopeGuard([&] { runTool(QStringLiteral("umount"), {mnt}); });
    const QByteArray before = fileSha256(img);
    for (const char *op : {"new-uuid", "new-partition-guid"}) {
        const QString plan = m_dir.filePath(QStringLiteral("busy.json"));
        QFile f(plan);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QStringLiteral(R"({"operations":[{"op":"%1","number":1}]})")
                    .arg(QLatin1String(op))
                    .toUtf8());
        f.close();
        const CliResult r = runCli({QStringLiteral("apply"), QStringLiteral("--yes"),
                                    QStringLiteral("--backup-dir"),
                                    m_dir.filePath(QStringLiteral("b2")), plan, loop.path()});
        QVERIFY2(r.exitCode != 0 && r.err.contains("mounted on"), qPrintable(r.describe()));
    }
    const QByteArray after = fileSha256(img);
    QCOMPARE(after, before);
}

QString NewUuidTest::writePlan(const QString &name, const QJsonArray &ops)
{
    const QString plan = m_dir.filePath(name);
    QFile f(plan);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(QJsonDocument(QJsonObject{{QStringLiteral("operations"), ops}}).toJson());
    return plan;
}

namespace {

QByteArray debugfsCat(const QString &node, const QString &path)
{
    return runTool(QStringLiteral("debugfs"),
                   {QStringLiteral("-R"), QStringLiteral("cat ") + path, node})
        .out;
}

QByteArray mtype(const QString &node, const QString &path)
{
    return runTool(QStringLiteral("mtype"),
                   {QStringLiteral("-i"), node, QStringLiteral("::") + path})
        .out;
}

} // namespace

// A root filesystem's new UUID follows into the files that name it: its own /etc/fstab and the
// ESP's boot loader entry and grub.cfg, read back with debugfs and mtools; the plan printed
// before Apply names the UUID blkid then reads and the files; each file's original stays
// beside it; both filesystems check clean.
void NewUuidTest::referencesFollowNewUuid()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = makeDisk(QStringLiteral("refs.img"),
                                 {{QStringLiteral("vfat"), 8}, {QStringLiteral("ext4"), 8}});
    LoopDevice loop(img);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    const QString esp = loop.partitionNode(1), root = loop.partitionNode(2);
    const QString old = QStringLiteral("3f0c6b1e-52a4-4d7e-9c11-0a8b7e5d2c41");
    const QByteArray fstab = "UUID=" + old.toUtf8() + " / ext4 defaults 0 1\n";
    const QByteArray entry = "title Debian\noptions root=UUID=" + old.toUtf8() + " ro\n";
    const QByteArray grub = "search --no-floppy --fs-uuid --set=root " + old.toUtf8() + "\n";
    const QString tree = m_dir.filePath(QStringLiteral("rootfs"));
    QDir().mkpath(tree + QStringLiteral("/etc"));
    QFile f(tree + QStringLiteral("/etc/fstab"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(fstab);
    f.close();
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-U"), old,
                     QStringLiteral("-d"), tree, root})
                .ok());
    QVERIFY(runTool(QStringLiteral("mkfs.vfat"), {esp}).ok());
    for (const QString &dir : {QStringLiteral("::/loader"), QStringLiteral("::/loader/entries"),
                               QStringLiteral("::/EFI"), QStringLiteral("::/EFI/debian")})
        QVERIFY(runTool(QStringLiteral("mmd"), {QStringLiteral("-i"), esp, dir}).ok());
    const QList<QPair<QString, QByteArray>> espFiles = {
        {QStringLiteral("/loader/entries/debian.conf"), entry},
        {QStringLiteral("/EFI/debian/grub.cfg"), grub}};
    for (const auto &[path, bytes] : espFiles) {
        const QString local = m_dir.filePath(QStringLiteral("espfile"));
        QFile e(local);
        QVERIFY(e.open(QIODevice::WriteOnly | QIODevice::Truncate));
        e.write(bytes);
        e.close();
        QVERIFY(runTool(QStringLiteral("mcopy"),
                        {QStringLiteral("-i"), esp, local, QStringLiteral("::") + path})
                    .ok());
    }
    const QString plan = writePlan(QStringLiteral("refs.json"),
                                   {QJsonObject{{QStringLiteral("op"), QStringLiteral("new-uuid")},
                                                {QStringLiteral("number"), 2}}});
    const CliResult r =
        runCli({QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                m_dir.filePath(QStringLiteral("b3")), plan, loop.path()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));

    const QString now = blkidProbe(root).uuid;
    QVERIFY2(!now.isEmpty() && now != old, qPrintable(now));
    // The plan, printed before anything ran, named this UUID and the files.
    const QString shown = QString::fromUtf8(r.out.left(r.out.indexOf("The disk afterwards")));
    QVERIFY2(shown.contains(QStringLiteral("the new UUID ") + now) &&
                 shown.contains(QStringLiteral("/etc/fstab")) &&
                 shown.contains(QStringLiteral("/loader/entries/*.conf")),
             r.out.constData());
    const QString suffix = QStringLiteral(".partwise-") + now.left(8);
    QCOMPARE(debugfsCat(root, QStringLiteral("/etc/fstab")),
             QByteArray(fstab).replace(old.toUtf8(), now.toUtf8()));
    QCOMPARE(debugfsCat(root, QStringLiteral("/etc/fstab") + suffix), fstab);
    for (const auto &[path, bytes] : espFiles) {
        QCOMPARE(mtype(esp, path), QByteArray(bytes).replace(old.toUtf8(), now.toUtf8()));
        QCOMPARE(mtype(esp, path + suffix), bytes);
    }
    for (const auto &[node, fs] :
         {qMakePair(esp, QStringLiteral("vfat")), qMakePair(root, QStringLiteral("ext4"))}) {
        const ToolResult check = checkFilesystemReadOnly(node, fs);
        QVERIFY2(check.ok(), qPrintable(check.describe() + QString::fromUtf8(check.out)));
    }
}

// A new label's LABEL= references follow it as a new UUID's do: fstab in the ext4 (debugfs) and
// a boot entry on the ESP (mtype) name the new label, the originals are kept beside them, and a
// longer label and a GPT partition's PARTLABEL= that merely start alike are left alone.
void NewUuidTest::referencesFollowNewLabel()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = makeDisk(QStringLiteral("labels.img"),
                                 {{QStringLiteral("vfat"), 8}, {QStringLiteral("ext4"), 8}});
    LoopDevice loop(img);
    QVERIFY2(loop.ok() && loop.addPartitions(), qPrintable(loop.error()));
    const QString esp = loop.partitionNode(1), root = loop.partitionNode(2);
    const QByteArray fstab = "LABEL=oldroot / ext4 defaults 0 1\n"
                             "LABEL=oldroot2 /srv ext4 defaults 0 2\n"
                             "PARTLABEL=oldroot /mnt ext4 noauto 0 0\n"
                             "/dev/disk/by-label/oldroot /again ext4 noauto 0 0\n";
    const QByteArray entry = "title Debian\noptions root=LABEL=oldroot ro\n";
    const QString tree = m_dir.filePath(QStringLiteral("labelled"));
    QDir().mkpath(tree + QStringLiteral("/etc"));
    QFile f(tree + QStringLiteral("/etc/fstab"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(fstab);
    f.close();
    QVERIFY(runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-L"),
                     QStringLiteral("oldroot"), QStringLiteral("-d"), tree, root})
                .ok());
    QVERIFY(runTool(QStringLiteral("mkfs.vfat"), {esp}).ok());
    for (const QString &dir : {QStringLiteral("::/loader"), QStringLiteral("::/loader/entries")})
        QVERIFY(runTool(QStringLiteral("mmd"), {QStringLiteral("-i"), esp, dir}).ok());
    const QString local = m_dir.filePath(QStringLiteral("entryfile"));
    QFile e(local);
    QVERIFY(e.open(QIODevice::WriteOnly | QIODevice::Truncate));
    e.write(entry);
    e.close();
    QVERIFY(runTool(QStringLiteral("mcopy"), {QStringLiteral("-i"), esp, local,
                                              QStringLiteral("::/loader/entries/debian.conf")})
                .ok());
    const QString plan =
        writePlan(QStringLiteral("labels.json"),
                  {QJsonObject{{QStringLiteral("op"), QStringLiteral("label")},
                               {QStringLiteral("number"), 2},
                               {QStringLiteral("label"), QStringLiteral("newroot")}}});
    const CliResult r =
        runCli({QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                m_dir.filePath(QStringLiteral("b5")), plan, loop.path()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QCOMPARE(blkidProbe(root).label, QStringLiteral("newroot"));
    const QString shown = QString::fromUtf8(r.out.left(r.out.indexOf("The disk afterwards")));
    QVERIFY2(shown.contains(QStringLiteral("every LABEL=oldroot in")), r.out.constData());

    // The backups' suffix: 8 hex digits of the new label's SHA-1 (README).
    const QString suffix =
        QStringLiteral(".partwise-") +
        QString::fromLatin1(QCryptographicHash::hash("newroot", QCryptographicHash::Sha1).toHex())
            .left(8);
    QCOMPARE(debugfsCat(root, QStringLiteral("/etc/fstab")),
             QByteArray("LABEL=newroot / ext4 defaults 0 1\n"
                        "LABEL=oldroot2 /srv ext4 defaults 0 2\n"
                        "PARTLABEL=oldroot /mnt ext4 noauto 0 0\n"
                        "/dev/disk/by-label/newroot /again ext4 noauto 0 0\n"));
    QCOMPARE(debugfsCat(root, QStringLiteral("/etc/fstab") + suffix), fstab);
    QCOMPARE(mtype(esp, QStringLiteral("/loader/entries/debian.conf")),
             QByteArray(entry).replace("oldroot", "newroot"));
    QCOMPARE(mtype(esp, QStringLiteral("/loader/entries/debian.conf") + suffix), entry);
    for (const auto &[node, fs] :
         {qMakePair(esp, QStringLiteral("vfat")), qMakePair(root, QStringLiteral("ext4"))}) {
        const ToolResult check = checkFilesystemReadOnly(node, fs);
        QVERIFY2(check.ok(), qPrintable(check.describe() + QString::fromUtf8(check.out)));
    }

    // A label fstab cannot name unquoted is given, and its references left as they were.
    const QByteArray followed = debugfsCat(root, QStringLiteral("/etc/fstab"));
    const QString spaced =
        writePlan(QStringLiteral("spaced.json"),
                  {QJsonObject{{QStringLiteral("op"), QStringLiteral("label")},
                               {QStringLiteral("number"), 2},
                               {QStringLiteral("label"), QStringLiteral("my root")}}});
    const CliResult r2 =
        runCli({QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                m_dir.filePath(QStringLiteral("b6")), spaced, loop.path()});
    QVERIFY2(r2.exitCode == 0, qPrintable(r2.describe()));
    QCOMPARE(runTool(QStringLiteral("e2label"), {root}).out.trimmed(), QByteArray("my root"));
    QVERIFY2(r2.out.contains("LABEL=newroot is not rewritten"), r2.out.constData());
    QCOMPARE(debugfsCat(root, QStringLiteral("/etc/fstab")), followed);
}

// A UUID in a plan (the CLI's, and the helper's request, which takes the same parser) is
// written into files as root: one with a newline after it, or of no filesystem's form, is
// refused before anything is read or written.
void NewUuidTest::malformedUuidIsRefused()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = makeDisk(QStringLiteral("bad.img"), {{QStringLiteral("vfat"), 4}});
    const QByteArray before = fileSha256(img);
    for (const QString &uuid : {QStringLiteral("1A2B-3C4D\n"), QStringLiteral("1A2B-3C4D x"),
                                QStringLiteral("0000-0000")}) {
        const QString plan =
            writePlan(QStringLiteral("bad.json"),
                      {QJsonObject{{QStringLiteral("op"), QStringLiteral("new-uuid")},
                                   {QStringLiteral("number"), 1},
                                   {QStringLiteral("uuid"), uuid}}});
        const CliResult r = runCli({QStringLiteral("apply"), QStringLiteral("--yes"),
                                    QStringLiteral("--backup-dir"),
                                    m_dir.filePath(QStringLiteral("b4")), plan, img});
        QVERIFY2(r.exitCode != 0 && r.err.contains("filesystem UUIDs"), qPrintable(r.describe()));
    }
    QCOMPARE(fileSha256(img), before);
}

QTEST_GUILESS_MAIN(NewUuidTest)
// A 4Kn image file (its GPT at byte 4096): the new GUID is written in its own sector size, as
// sfdisk and sgdisk read it through a 4096-byte loop device; the other partition keeps its own.
void NewUuidTest::partitionGuidOn4KnImage()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const QString img = m_dir.filePath(QStringLiteral("4kn.img"));
    const CliResult made = runCli({QStringLiteral("practice"), QStringLiteral("--size"),
                                   QStringLiteral("64m"), QStringLiteral("4kn"), img});
    QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
    const auto guids = [&img] {
        LoopDevice loop(img, 4096, true);
        return loop.ok() ? partitionGuids(loop.path()) : QMap<int, QString>();
    };
    const QMap<int, QString> before = guids();
    QCOMPARE(before.size(), 2);
    const QString plan = m_dir.filePath(QStringLiteral("4kn.json"));
    QFile f(plan);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"operations":[{"op":"new-partition-guid","number":2}]})");
    f.close();
    const CliResult r =
        runCli({QStringLiteral("apply"), QStringLiteral("--yes"), QStringLiteral("--backup-dir"),
                m_dir.filePath(QStringLiteral("b4k")), plan, img});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe() + QString::fromUtf8(r.out)));
    const QMap<int, QString> after = guids();
    QCOMPARE(after.value(1), before.value(1));
    QVERIFY2(after.value(2) != before.value(2) && after.value(2).size() == 36,
             qPrintable(after.value(2)));
    LoopDevice loop(img, 4096, true);
    QVERIFY(loop.ok());
    const ToolResult verify =
        runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), loop.path()});
    QVERIFY2(verify.ok() && verify.out.contains("No problems found"),
             qPrintable(verify.describe()));
}

#include "tst_newuuid.moc"
