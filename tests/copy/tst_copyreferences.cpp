// `partwise-cli copy --new-ids` of a small Debian-like disk (a FAT ESP, an ext4 root, and an
// ext4 whose config files are links out of it): the references inside the copied filesystems to
// the old ids name the new ones afterwards. Judged by independent tools: the new ids as blkid
// and sfdisk -J read the copy, each edited file as debugfs and mtools read it (the text the test
// wrote with the new ids put in, every other byte the same), every other file's SHA-256, each
// filesystem's own check, and the host's files a link points at unchanged.
// The copy is killed inside the rewrite and finished by resume.
// The same copy through the helper (`partwise-cli serve`, as the window asks it): the ids its
// plan showed are the ids blkid and sfdisk -J read on the copy and the ids its fstab names; ids
// that are not new are refused with nothing written.

#include "blkidprobe.h"
#include "buildsetting.h"
#include "clirun.h"
#include "filebytes.h"
#include "loopdevice.h"
#include "partitioncontents.h"
#include "serveclient.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QUuid>
#include <QtTest>

using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;
constexpr qint64 kEspStart = 2048, kRootStart = 2048 * 9, kOtherStart = 2048 * 25; // sectors
const QString kEspSerial = QStringLiteral("B06D-9B03");
const QString kP1 = QStringLiteral("9558653b-7d4a-9547-b37a-ddab454cbba3");
const QString kP2 = QStringLiteral("9abea751-98ab-734f-80f6-69ddadc1ee9c");
const QString kP3 = QStringLiteral("3f0c2b11-4d6e-4f7a-8a9b-0c1d2e3f4a5b");

QByteArray sha256Of(const QString &path)
{
    QFile f(path);
    QCryptographicHash h(QCryptographicHash::Sha256);
    return f.open(QIODevice::ReadOnly) && h.addData(&f) ? h.result().toHex() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

QString ext(const QString &image, qint64 startSector)
{
    return QStringLiteral("%1?offset=%2").arg(image).arg(startSector * 512);
}

QString fat(const QString &image, qint64 startSector)
{
    return QStringLiteral("%1@@%2").arg(image).arg(startSector * 512);
}

// A file of an ext filesystem as debugfs reads it.
QByteArray extFile(const QString &image, qint64 start, const QString &path)
{
    return runTool(QStringLiteral("debugfs"),
                   {QStringLiteral("-R"), QStringLiteral("cat ") + path, ext(image, start)})
        .out;
}

QByteArray extStat(const QString &image, qint64 start, const QString &path)
{
    return runTool(QStringLiteral("debugfs"),
                   {QStringLiteral("-R"), QStringLiteral("stat ") + path, ext(image, start)})
        .out;
}

// A file of a FAT filesystem as mtools reads it (its bytes, through a file: mtype may convert).
QByteArray fatFile(const QString &image, qint64 start, const QString &path, const QString &scratch)
{
    QFile::remove(scratch);
    runTool(QStringLiteral("mcopy"), {QStringLiteral("-n"), QStringLiteral("-i"), fat(image, start),
                                      QStringLiteral("::") + path, scratch});
    QFile f(scratch);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(missing)");
}

} // namespace

class TestCopyReferences : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_rootUuid = QUuid::createUuid().toString(QUuid::WithoutBraces);
    QMap<QString, QByteArray> m_rootFiles, m_espFiles; // path -> what the test wrote

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // The Debian-like files, naming the old ids every way the tools write them.
    void makeFiles()
    {
        const QByteArray root = m_rootUuid.toUtf8(), esp = kEspSerial.toUtf8();
        m_rootFiles[QStringLiteral("/etc/fstab")] =
            "# /etc/fstab: static file system information.\n"
            "UUID=" +
            root +
            " /  ext4  errors=remount-ro 0 1\n"
            "UUID=" +
            esp +
            "  /boot/efi vfat umask=0077 0 1\n"
            "PARTUUID=" +
            kP3.toUtf8() +
            " /srv ext4 defaults 0 2\n"
            "LABEL=ESP /mnt/esp vfat noauto 0 0\n"
            "/dev/disk/by-uuid/" +
            root + " /mnt/again ext4 noauto 0 0\n";
        m_rootFiles[QStringLiteral("/etc/crypttab")] =
            "# <target name> <source device> <key file> <options>\n"
            "srv_crypt PARTUUID=" +
            kP3.toUtf8() + " none luks,discard\n";
        m_rootFiles[QStringLiteral("/etc/kernel/cmdline")] = "root=UUID=" + root + " ro quiet\n";
        m_rootFiles[QStringLiteral("/boot/grub/grub.cfg")] =
            "insmod part_gpt\n"
            "search --no-floppy --fs-uuid --set=root " +
            root +
            "\n"
            "search --no-floppy --fs-uuid --set=esp " +
            esp +
            "\n"
            "menuentry 'Debian' {\n"
            "\tlinux /boot/vmlinuz root=UUID=" +
            root + " ro quiet\n}\n";
        QByteArray env = "# GRUB Environment Block\nsaved_entry=0\nroot_uuid=" + root + "\n";
        m_rootFiles[QStringLiteral("/boot/grub/grubenv")] =
            env + QByteArray(1024 - env.size(), '#');
        m_rootFiles[QStringLiteral("/boot/loader/entries/debian.conf")] =
            "title   Debian\nlinux   /vmlinuz\noptions root=PARTUUID=" + kP2.toUtf8() + " rw\n";
        m_rootFiles[QStringLiteral("/boot/extlinux/extlinux.conf")] =
            "DEFAULT linux\nLABEL linux\n  KERNEL /boot/vmlinuz\n  APPEND root=UUID=" + root +
            " ro\n";
        m_rootFiles[QStringLiteral("/home/user/notes.txt")] = "not a reference: " + root + "\n";
        m_espFiles[QStringLiteral("/EFI/debian/grub.cfg")] =
            "search.fs_uuid " + root +
            " root\r\nset prefix=($root)'/boot/grub'\r\n"
            "configfile $prefix/grub.cfg\r\n";
        m_espFiles[QStringLiteral("/loader/entries/debian.conf")] =
            "title Debian\noptions root=UUID=" + root + " rw\n";
        m_espFiles[QStringLiteral("/EFI/BOOT/notes.txt")] = "not a reference: " + root + "\n";
    }

    // The host files a hostile filesystem's links name: they hold the old ids too.
    // Outside /tmp, where a namespace's own mounts might hide it from a followed link.
    QTemporaryDir m_decoy{QDir::currentPath() + QStringLiteral("/decoy-XXXXXX")};
    QString decoy() const { return m_decoy.path(); }

    // The source, made once for both cases (no copy writes to it: each checks its sha256).
    QString m_sourceMade;
    QString source()
    {
        if (m_sourceMade.isEmpty()) {
            const QString made = makeSource();
            if (!made.isEmpty())
                qWarning("%s", qPrintable(made));
            else
                m_sourceMade = path(QStringLiteral("debian.img"));
        }
        return m_sourceMade;
    }

    QString makeSource()
    {
        const QString image = path(QStringLiteral("debian.img"));
        QString error;
        const QByteArray script =
            "label: gpt\n"
            "start=2048, size=8MiB, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, "
            "uuid=" +
            kP1.toUtf8() +
            "\n"
            "start=18432, size=16MiB, uuid=" +
            kP2.toUtf8() +
            "\n"
            "start=51200, size=4MiB, uuid=" +
            kP3.toUtf8() + "\n";
        if (!SfdiskTable::writeImage(image, 32 * kMiB, script, &error))
            return QStringLiteral("sfdisk: ") + error;
        const QString tree = path(QStringLiteral("root"));
        for (auto it = m_rootFiles.cbegin(); it != m_rootFiles.cend(); ++it)
            writeFile(tree + it.key(), it.value());
        const QString other = path(QStringLiteral("other"));
        QDir().mkpath(other + QStringLiteral("/etc"));
        QDir().mkpath(other + QStringLiteral("/loader/entries"));
        writeFile(other + QStringLiteral("/readme.txt"), "a filesystem with links out of it\n");
        writeFile(decoy() + QStringLiteral("/fstab"),
                  m_rootFiles.value(QStringLiteral("/etc/fstab")));
        writeFile(decoy() + QStringLiteral("/grub/grub.cfg"),
                  m_rootFiles.value(QStringLiteral("/boot/grub/grub.cfg")));
        QFile::link(decoy() + QStringLiteral("/fstab"), other + QStringLiteral("/etc/fstab"));
        QFile::link(decoy(), other + QStringLiteral("/boot"));
        QFile::link(QStringLiteral("/etc/shadow"),
                    other + QStringLiteral("/loader/entries/x.conf"));
        const QList<QStringList> steps{
            {QStringLiteral("mkfs.vfat"), QStringLiteral("-n"), QStringLiteral("ESP"),
             QStringLiteral("-i"), QString(kEspSerial).remove(QLatin1Char('-')),
             QStringLiteral("--offset"), QString::number(kEspStart), image,
             QString::number(8 * 1024)},
            {QStringLiteral("mkfs.ext4"), QStringLiteral("-q"), QStringLiteral("-F"),
             QStringLiteral("-U"), m_rootUuid, QStringLiteral("-L"), QStringLiteral("root"),
             QStringLiteral("-E"), QStringLiteral("offset=%1").arg(kRootStart * 512),
             QStringLiteral("-d"), tree, image, QStringLiteral("16M")},
            {QStringLiteral("mkfs.ext4"), QStringLiteral("-q"), QStringLiteral("-F"),
             QStringLiteral("-E"), QStringLiteral("offset=%1").arg(kOtherStart * 512),
             QStringLiteral("-d"), other, image, QStringLiteral("4M")},
            {QStringLiteral("mmd"), QStringLiteral("-i"), fat(image, kEspStart),
             QStringLiteral("::/EFI"), QStringLiteral("::/EFI/debian"),
             QStringLiteral("::/EFI/BOOT"), QStringLiteral("::/loader"),
             QStringLiteral("::/loader/entries")}};
        for (const QStringList &step : steps)
            if (const ToolResult r = runTool(step.first(), step.mid(1)); !r.ok())
                return step.first() + QStringLiteral(": ") + QString::fromUtf8(r.err);
        for (auto it = m_espFiles.cbegin(); it != m_espFiles.cend(); ++it) {
            const QString local = path(QStringLiteral("esp-file"));
            writeFile(local, it.value());
            if (const ToolResult r =
                    runTool(QStringLiteral("mcopy"), {QStringLiteral("-i"), fat(image, kEspStart),
                                                      local, QStringLiteral("::") + it.key()});
                !r.ok())
                return QStringLiteral("mcopy: ") + QString::fromUtf8(r.err);
        }
        return QString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid() && m_decoy.isValid());
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
        makeFiles();
    }

    void referencesNameTheNewIds()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = this->source();
        QVERIFY(!source.isEmpty());
        const QString target = path(QStringLiteral("copy.img"));
        QVERIFY(makeSparseFile(target, 40 * kMiB));
        const QByteArray shadow = sha256Of(QStringLiteral("/etc/shadow"));
        const QByteArray decoyFstab = sha256Of(decoy() + QStringLiteral("/fstab"));
        const QByteArray decoyGrub = sha256Of(decoy() + QStringLiteral("/grub/grub.cfg"));
        const QByteArray sourceSum = sha256Of(source);
        QStringList problems;
        const SfdiskTable from = SfdiskTable::read(source);
        const QMap<int, PartitionContents> before = partitionContents(source, 512, from, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));

        // Killed inside the rewrite, after the ESP's files and /etc/fstab's backup, then resumed.
        qputenv("LD_PRELOAD", buildSetting("KILL_AT_TRUNCATE").toLocal8Bit());
        qputenv("PW_KILL_AT_TRUNCATE", "/etc/fstab");
        const CliResult r = runCli({QStringLiteral("copy"), QStringLiteral("--yes"),
                                    QStringLiteral("--new-ids"), QStringLiteral("--backup-dir"),
                                    path(QStringLiteral("backups")), source, target},
                                   300000);
        qunsetenv("LD_PRELOAD");
        qunsetenv("PW_KILL_AT_TRUNCATE");
        QVERIFY2(r.crashed, qPrintable(r.describe() + QString::fromUtf8(r.out)));
        QVERIFY(r.out.contains("Rewriting the references"));
        QVERIFY(SfdiskTable::read(target).partitions.isEmpty()); // not yet a disk
        const CliResult resumed = runCli({QStringLiteral("resume"), target}, 300000);
        QVERIFY2(resumed.exitCode == 0,
                 qPrintable(resumed.describe() + QString::fromUtf8(resumed.out)));
        QCOMPARE(sha256Of(source), sourceSum);

        // The new ids, as blkid and sfdisk read the copy.
        const QString root = blkidProbe(target, kRootStart * 512).uuid;
        const QString esp = blkidProbe(target, kEspStart * 512).uuid;
        const QJsonObject table =
            QJsonDocument::fromJson(
                runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), target}).out)
                .object()
                .value(QStringLiteral("partitiontable"))
                .toObject();
        const SfdiskTable to = SfdiskTable::read(target);
        QCOMPARE(to.partitions.size(), 3);
        QStringList parts;
        for (const SfdiskPartition &p : to.partitions)
            parts << p.entry.value(QStringLiteral("uuid")).toString().toLower();
        QVERIFY(!root.isEmpty() && root != m_rootUuid);
        QVERIFY(!esp.isEmpty() && esp != kEspSerial);
        QVERIFY(parts.at(1) != kP2 && parts.at(2) != kP3);
        // The plan named each new PARTUUID before anything ran.
        const QByteArray planned = r.out.left(r.out.indexOf("The target's table was saved"));
        for (const QString &p : parts)
            QVERIFY2(planned.contains(p.toUtf8()), qPrintable(p));
        QVERIFY(planned.contains("/etc/fstab"));

        // Each file the test wrote, with the new ids put in: every other byte as it was.
        const auto renewed = [&](QByteArray text) {
            return text.replace(m_rootUuid.toUtf8(), root.toUtf8())
                .replace(kEspSerial.toUtf8(), esp.toUtf8())
                .replace(kP2.toUtf8(), parts.at(1).toUtf8())
                .replace(kP3.toUtf8(), parts.at(2).toUtf8());
        };
        const QString suffix = QStringLiteral(".partwise-") +
                               table.value(QStringLiteral("id")).toString().toLower().left(8);
        const QStringList unchanged{QStringLiteral("/home/user/notes.txt"),
                                    QStringLiteral("/EFI/BOOT/notes.txt")};
        for (auto it = m_rootFiles.cbegin(); it != m_rootFiles.cend(); ++it) {
            const QByteArray expected =
                unchanged.contains(it.key()) ? it.value() : renewed(it.value());
            QCOMPARE(extFile(target, kRootStart, it.key()), expected);
            if (!unchanged.contains(it.key()))
                QCOMPARE(extFile(target, kRootStart, it.key() + suffix), it.value());
        }
        QCOMPARE(extFile(target, kRootStart, QStringLiteral("/boot/grub/grubenv")).size(), 1024);
        const QString scratch = path(QStringLiteral("read-back"));
        for (auto it = m_espFiles.cbegin(); it != m_espFiles.cend(); ++it) {
            const QByteArray expected =
                unchanged.contains(it.key()) ? it.value() : renewed(it.value());
            QCOMPARE(fatFile(target, kEspStart, it.key(), scratch), expected);
            if (!unchanged.contains(it.key()))
                QCOMPARE(fatFile(target, kEspStart, it.key() + suffix, scratch), it.value());
        }

        // Every other file the same, each filesystem clean (partitioncontents runs its check).
        const QMap<int, PartitionContents> after = partitionContents(target, 512, to, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QCOMPARE(after.keys(), before.keys());
        for (auto it = before.cbegin(); it != before.cend(); ++it) {
            const QMap<QString, QByteArray> &now = after.value(it.key()).files;
            for (auto f = it->files.cbegin(); f != it->files.cend(); ++f) {
                const QString name = QLatin1Char('/') + f.key();
                const bool edited = (it.key() == 2 && m_rootFiles.contains(name)) ||
                                    (it.key() == 1 && m_espFiles.contains(name));
                if (edited && !unchanged.contains(name)) {
                    QCOMPARE(now.value(f.key() + suffix), f.value()); // the backup: the original
                    QVERIFY2(now.value(f.key()) != f.value(), qPrintable(name));
                } else {
                    QVERIFY2(now.value(f.key()) == f.value(), qPrintable(name));
                }
            }
        }

        // The links out of partition 3 were left as links, and what they point at untouched.
        QVERIFY(
            extStat(target, kOtherStart, QStringLiteral("/etc/fstab")).contains("Type: symlink"));
        QCOMPARE(sha256Of(decoy() + QStringLiteral("/fstab")), decoyFstab);
        QCOMPARE(sha256Of(decoy() + QStringLiteral("/grub/grub.cfg")), decoyGrub);
        QCOMPARE(sha256Of(QStringLiteral("/etc/shadow")), shadow);
        QVERIFY(resumed.out.contains("/etc/fstab left alone"));
    }

    // The window's way: copy-plan, then copy with the ids that plan showed.
    void helperWritesTheIdsItsPlanShowed()
    {
        PW_REQUIRE_ROOT_OR_SKIP();
        const QString source = this->source();
        QVERIFY(!source.isEmpty());
        const QString target = path(QStringLiteral("helper-copy.img"));
        QVERIFY(makeSparseFile(target, 40 * kMiB));
        const QByteArray sourceSum = sha256Of(source), blankSum = sha256Of(target);
        ServeClient helper;
        QVERIFY(helper.started());
        const QJsonObject params{{QStringLiteral("source"), source},
                                 {QStringLiteral("target"), target},
                                 {QStringLiteral("grain"), kMiB},
                                 {QStringLiteral("new_ids"), true}};
        const QJsonObject planned = resultOf(helper.call(QStringLiteral("copy-plan"), params));
        const QJsonObject plan = planned.value(QStringLiteral("plan")).toObject();
        const QString shown = planned.value(QStringLiteral("text"))
                                  .toVariant()
                                  .toStringList()
                                  .join(QLatin1Char('\n'));
        const QString diskId = plan.value(QStringLiteral("disk_id")).toString();
        QMap<int, QPair<QString, QString>> ids; // source number -> partition GUID, UUID
        QJsonArray idList, expect;
        for (const QJsonValue &v : plan.value(QStringLiteral("partitions")).toArray()) {
            const QJsonObject p = v.toObject();
            const int number = p.value(QStringLiteral("source_number")).toInt();
            ids[number] = {p.value(QStringLiteral("partition_guid")).toString(),
                           p.value(QStringLiteral("new_uuid")).toString()};
            idList.append(QJsonObject{{QStringLiteral("number"), number},
                                      {QStringLiteral("partition_guid"), ids[number].first},
                                      {QStringLiteral("uuid"), ids[number].second}});
            expect.append(
                QJsonObject{{QStringLiteral("number"), number},
                            {QStringLiteral("new_start"), p.value(QStringLiteral("new_start"))},
                            {QStringLiteral("new_end"), p.value(QStringLiteral("new_end"))}});
        }
        QCOMPARE(ids.keys(), (QList<int>{1, 2, 3}));
        // The plan shows every id it will write, none of them the source's.
        QVERIFY2(shown.contains(diskId), qPrintable(shown));
        for (const auto &[guid, uuid] : std::as_const(ids))
            QVERIFY2(!guid.isEmpty() && !uuid.isEmpty() && shown.contains(guid) &&
                         shown.contains(uuid),
                     qPrintable(shown));
        QVERIFY(ids[2].second != m_rootUuid && ids[1].second != kEspSerial);

        // Ids that are not new (the source's root UUID) are refused; nothing is written.
        QJsonObject stale = params;
        QJsonArray staleList = idList;
        QJsonObject root = staleList.at(1).toObject();
        root[QStringLiteral("uuid")] = m_rootUuid;
        staleList[1] = root;
        stale[QStringLiteral("ids")] = QJsonObject{{QStringLiteral("disk_id"), diskId},
                                                   {QStringLiteral("partitions"), staleList}};
        stale[QStringLiteral("expect")] = expect;
        const QJsonObject refused = helper.call(QStringLiteral("copy"), stale, 300000);
        QVERIFY2(describe(refused).contains(QStringLiteral("is not new")),
                 qPrintable(describe(refused)));
        QCOMPARE(sha256Of(target), blankSum);
        // A malformed one is refused by the validator.
        stale[QStringLiteral("ids")] =
            QJsonObject{{QStringLiteral("disk_id"), QStringLiteral("0; reboot")},
                        {QStringLiteral("partitions"), idList}};
        QCOMPARE(errorCodeOf(helper.call(QStringLiteral("copy"), stale)), -32602);
        QCOMPARE(sha256Of(target), blankSum);

        QJsonObject run = params;
        run[QStringLiteral("ids")] = QJsonObject{{QStringLiteral("disk_id"), diskId},
                                                 {QStringLiteral("partitions"), idList}};
        run[QStringLiteral("expect")] = expect;
        const QJsonObject done = helper.call(QStringLiteral("copy"), run, 300000);
        QVERIFY2(errorCodeOf(done) == 0 && resultOf(done).value(QStringLiteral("ok")).toBool(),
                 qPrintable(describe(done)));
        QCOMPARE(sha256Of(source), sourceSum);

        // The ids as sfdisk -J and blkid read the copy are the ones shown.
        const QJsonObject table =
            QJsonDocument::fromJson(
                runTool(QStringLiteral("sfdisk"), {QStringLiteral("-J"), target}).out)
                .object()
                .value(QStringLiteral("partitiontable"))
                .toObject();
        QCOMPARE(table.value(QStringLiteral("id")).toString().toLower(), diskId.toLower());
        const QJsonArray parts = table.value(QStringLiteral("partitions")).toArray();
        QCOMPARE(parts.size(), 3);
        const qint64 starts[] = {kEspStart, kRootStart, kOtherStart};
        for (int n = 1; n <= 3; ++n) {
            QCOMPARE(parts.at(n - 1).toObject().value(QStringLiteral("uuid")).toString().toLower(),
                     ids[n].first.toLower());
            QCOMPARE(blkidProbe(target, starts[n - 1] * 512).uuid, ids[n].second);
        }
        // And the copy's fstab names them.
        const QByteArray fstab = extFile(target, kRootStart, QStringLiteral("/etc/fstab"));
        QVERIFY2(fstab.contains("UUID=" + ids[2].second.toUtf8() + " /  ext4"), fstab.constData());
        QVERIFY2(fstab.contains("UUID=" + ids[1].second.toUtf8() + "  /boot/efi"),
                 fstab.constData());
        QVERIFY2(fstab.contains("PARTUUID=" + ids[3].first.toLower().toUtf8() + " /srv"),
                 fstab.constData());
    }
};

QTEST_GUILESS_MAIN(TestCopyReferences)
#include "tst_copyreferences.moc"
