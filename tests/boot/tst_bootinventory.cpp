// What boots from a disk, told from bytes: the boot code GRUB, syslinux and Debian ship (read
// from their packages' own files), GRUB's pointers moved with a BIOS boot partition and found
// done on a second run, BCD device elements as documented, efibootmgr's two output formats,
// and what a move does to each kind of loader; what `check --json` says read back with every
// field checked. (A plan that breaks a loader refused until accepted: tst_bootrefusals.)
// No root; real boots are tst_bootqemu's.

#include "boot/bcdstore.h"
#include "boot/bootcode.h"
#include "boot/bootimpact.h"
#include "boot/firmwareentries.h"
#include "boot/grubcore.h"
#include "buildsetting.h"
#include "report/bootjsonreader.h"

#include "bootfixtures.h"
#include "serveclient.h"

#include "clirun.h"
#include "filechecksum.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

using namespace partwise;

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray signedSector(QByteArray code)
{
    code.resize(512, '\0');
    code[510] = char(0x55);
    code[511] = char(0xAA);
    return code;
}

const QString kGrubDir = QStringLiteral("/usr/lib/grub/i386-pc");

// A disk image as grub-install leaves a BIOS boot partition at `start`: boot.img in the MBR
// pointing at `start`, diskboot.img there with one block-list entry for the next `rest` sectors.
QByteArray grubDisk(qint64 start, int rest, qint64 sectors)
{
    QByteArray disk(int(sectors * 512), '\0');
    QByteArray mbr = readFile(kGrubDir + QStringLiteral("/boot.img"));
    qToLittleEndian<quint64>(quint64(start), mbr.data() + 0x5C);
    disk.replace(0, 512, mbr);
    QByteArray diskboot = readFile(kGrubDir + QStringLiteral("/diskboot.img"));
    qToLittleEndian<quint64>(quint64(start + 1), diskboot.data() + 0x1F4);
    qToLittleEndian<quint16>(quint16(rest), diskboot.data() + 0x1F4 + 8);
    disk.replace(int(start * 512), 512, diskboot);
    for (int i = 1; i <= rest; ++i) // core.img's other sectors: recognisable bytes
        disk.replace(int((start + i) * 512), 4, QByteArray::number(i).rightJustified(4, '0'));
    return disk;
}

// What the mover does: the partition's sectors copied to their new place.
void moveSectors(QByteArray *disk, qint64 from, qint64 to, qint64 count)
{
    const QByteArray data = disk->mid(int(from * 512), int(count * 512));
    disk->replace(int(to * 512), int(count * 512), data);
}

quint64 u64At(const QByteArray &d, qint64 offset)
{
    return qFromLittleEndian<quint64>(d.constData() + offset);
}

} // namespace

class TestBootInventory : public QObject
{
    Q_OBJECT

private slots:
    void mbrCodeFromThePackages();
    void windowsMbrCode();
    void partedsGenericMbrCode();
    void partitionLoaders();
    void diskbootBlockList();
    void grubFollowsItsBiosBootPartition_data();
    void grubFollowsItsBiosBootPartition();
    void grubRelocationResumesAfterTheBlockList();
    void grubLeftAloneWhenElsewhere();
    void bcdDeviceElement();
    void efibootmgrFormats();
    void moveEffects();
    void checkJsonReadBack();
};

void TestBootInventory::mbrCodeFromThePackages()
{
    const QByteArray grub = readFile(kGrubDir + QStringLiteral("/boot.img"));
    QCOMPARE(grub.size(), 512);
    QCOMPARE(identifyMbrCode(grub), MbrCode::Grub);
    for (const char *name : {"mbr.bin", "gptmbr.bin", "altmbr.bin"}) {
        const QByteArray code =
            readFile(QStringLiteral("/usr/lib/syslinux/mbr/") + QLatin1String(name));
        QVERIFY2(!code.isEmpty(), name);
        QCOMPARE(identifyMbrCode(signedSector(code)), MbrCode::Syslinux);
    }
    QCOMPARE(identifyMbrCode(signedSector({})), MbrCode::Empty);
    QCOMPARE(identifyMbrCode(QByteArray(512, 'x')), MbrCode::None); // no 0x55AA
    QCOMPARE(identifyMbrCode(signedSector(QByteArray(400, char(0x90)))), MbrCode::Unknown);
    // boot.img's pointer, as grub-install writes it.
    QByteArray pointed = grub;
    qToLittleEndian<quint64>(34, pointed.data() + 0x5C);
    QCOMPARE(grubCoreSector(pointed), std::optional<quint64>(34));
    QCOMPARE(grubCoreSector(readFile(QStringLiteral("/usr/lib/syslinux/mbr/mbr.bin"))),
             std::nullopt);
}

// The loader parted (libparted) writes with every new MBR table, and so Partwise's new tables:
// named as the generic code it is, not "unknown"; changed bytes in it are unknown again.
void TestBootInventory::partedsGenericMbrCode()
{
    pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString image = dir.filePath(QStringLiteral("parted.img"));
    QVERIFY(pwtest::runTool(QStringLiteral("truncate"),
                            {QStringLiteral("-s"), QStringLiteral("8M"), image})
                .ok());
    const pwtest::ToolResult parted = pwtest::runTool(
        QStringLiteral("parted"),
        {QStringLiteral("-s"), image, QStringLiteral("mklabel"), QStringLiteral("msdos")});
    QVERIFY2(parted.ok(), qPrintable(parted.describe()));
    QByteArray sector = readFile(image).left(512);
    QCOMPARE(identifyMbrCode(sector), MbrCode::Generic);
    const pwtest::CliResult json =
        pwtest::runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
    QVERIFY2(json.jsonValid, qPrintable(json.describe()));
    QCOMPARE(json.devices()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("boot"))
                 .toObject()
                 .value(QStringLiteral("mbr_code"))
                 .toString(),
             QStringLiteral("generic"));
    sector[0x60] = char(0x90); // past its loader, where parted leaves zeros
    QCOMPARE(identifyMbrCode(sector), MbrCode::Unknown);
}

void TestBootInventory::windowsMbrCode()
{
    // Microsoft's code cannot ship with a test; these sectors carry the messages every DOS/NT
    // MBR prints, and the TPM interface name Vista and later compare against.
    QByteArray nt(0x60, char(0x90));
    nt += "Invalid partition table";
    nt += '\0';
    nt += "Error loading operating system";
    nt += '\0';
    nt += "Missing operating system";
    QCOMPARE(identifyMbrCode(signedSector(nt)), MbrCode::WindowsNt);
    QByteArray vista = nt;
    vista.replace(0x10, 4, "TCPA");
    QCOMPARE(identifyMbrCode(signedSector(vista)), MbrCode::WindowsVista);
}

void TestBootInventory::partitionLoaders()
{
    QByteArray ntfs("\xEB\x52\x90NTFS    ");
    ntfs.resize(0x180, '\0');
    ntfs += QByteArray("A disk read error occurred\0BOOTMGR is missing\0", 47);
    QCOMPARE(identifyPartitionLoader(signedSector(ntfs)), PartitionLoader::Bootmgr);
    QByteArray xp = ntfs;
    xp.replace("BOOTMGR", "NTLDR");
    QCOMPARE(identifyPartitionLoader(signedSector(xp)), PartitionLoader::Ntldr);
    QByteArray sys("\xEB\x58\x90SYSLINUX");
    sys.resize(0x1DA, '\0');
    sys += "Boot error\r\n";
    QCOMPARE(identifyPartitionLoader(signedSector(sys)), PartitionLoader::Syslinux);
    QCOMPARE(partitionLoaderName(PartitionLoader::Syslinux, QStringLiteral("ext4")),
             QStringLiteral("extlinux"));
    QCOMPARE(partitionLoaderName(PartitionLoader::Syslinux, QStringLiteral("vfat")),
             QStringLiteral("syslinux"));
    QCOMPARE(identifyPartitionLoader(readFile(kGrubDir + QStringLiteral("/boot.img"))),
             PartitionLoader::Grub);
    QCOMPARE(identifyPartitionLoader(signedSector("\xEB\x3C\x90mkfs.fat")), PartitionLoader::None);
}

void TestBootInventory::diskbootBlockList()
{
    QByteArray diskboot = readFile(kGrubDir + QStringLiteral("/diskboot.img"));
    QVERIFY(isGrubDiskboot(diskboot));
    QVERIFY(!isGrubDiskboot(readFile(kGrubDir + QStringLiteral("/boot.img"))));
    // As shipped, the first entry is the terminator grub-install fills in.
    QCOMPARE(readGrubBlockList(diskboot)->size(), 0);
    qToLittleEndian<quint64>(35, diskboot.data() + 0x1F4);
    qToLittleEndian<quint16>(70, diskboot.data() + 0x1F4 + 8);
    qToLittleEndian<quint64>(200, diskboot.data() + 0x1E8);
    qToLittleEndian<quint16>(5, diskboot.data() + 0x1E8 + 8);
    const auto blocks = readGrubBlockList(diskboot);
    QVERIFY(blocks);
    QCOMPARE(blocks->size(), 2);
    QCOMPARE(blocks->at(0).start, 35u);
    QCOMPARE(blocks->at(0).sectors, 70);
    QCOMPARE(blocks->at(0).segment, 0x820); // diskboot.img's default load segment
    QCOMPARE(blocks->at(1).start, 200u);
    // Entries all the way down into the code: no terminator, not trusted.
    for (int at = 0x1F4; at >= 0x150; at -= 12)
        qToLittleEndian<quint16>(1, diskboot.data() + at + 8);
    QVERIFY(!readGrubBlockList(diskboot));
}

void TestBootInventory::grubFollowsItsBiosBootPartition_data()
{
    QTest::addColumn<qint64>("from");
    QTest::addColumn<qint64>("to");
    QTest::addColumn<qint64>("length");
    QTest::newRow("34 to 1 MiB (apart)") << qint64(34) << qint64(2048) << qint64(2014);
    QTest::newRow("34 to 40, 4 KiB (overlapping)") << qint64(34) << qint64(40) << qint64(2008);
    QTest::newRow("2048 down to 40 (overlapping)") << qint64(2048) << qint64(40) << qint64(2014);
}

void TestBootInventory::grubFollowsItsBiosBootPartition()
{
    QFETCH(qint64, from);
    QFETCH(qint64, to);
    QFETCH(qint64, length);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("disk.img"));
    QByteArray disk = grubDisk(from, 60, 4200);
    moveSectors(&disk, from, to, length);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(disk) == disk.size());
    f.close();
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDWR);
    QVERIFY(fd >= 0);
    const GrubRelocation first = relocateGrubCore(fd, from, to, length, path);
    QVERIFY2(first.ok, qPrintable(first.error));
    QVERIFY(first.changed);
    const GrubRelocation second = relocateGrubCore(fd, from, to, length, path);
    QVERIFY2(second.ok, qPrintable(second.error));
    QVERIFY(!second.changed); // found done, nothing written
    ::close(fd);
    const QByteArray after = readFile(path);
    QCOMPARE(u64At(after, 0x5C), quint64(to));
    QCOMPARE(u64At(after, to * 512 + 0x1F4), quint64(to + 1));
    // Everything else of the disk is as the mover left it.
    QByteArray expected = disk;
    expected.replace(0x5C, 8, after.mid(0x5C, 8));
    expected.replace(int(to * 512 + 0x1F4), 8, after.mid(int(to * 512 + 0x1F4), 8));
    QVERIFY(after == expected);
}

void TestBootInventory::grubRelocationResumesAfterTheBlockList()
{
    // Killed between its two writes: the block list moved, the MBR not yet.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("disk.img"));
    QByteArray disk = grubDisk(34, 60, 2200);
    moveSectors(&disk, 34, 40, 2008);
    qToLittleEndian<quint64>(41, disk.data() + 40 * 512 + 0x1F4);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(disk) == disk.size());
    f.close();
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDWR);
    const GrubRelocation r = relocateGrubCore(fd, 34, 40, 2008, path);
    ::close(fd);
    QVERIFY2(r.ok, qPrintable(r.error));
    const QByteArray after = readFile(path);
    QCOMPARE(u64At(after, 0x5C), 40u);
    QCOMPARE(u64At(after, 40 * 512 + 0x1F4), 41u); // not moved twice
}

void TestBootInventory::grubLeftAloneWhenElsewhere()
{
    // core.img in the MBR gap (sector 1) and a partition at 63 moving: nothing to follow.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("disk.img"));
    QByteArray disk = grubDisk(1, 50, 2200);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(disk) == disk.size());
    f.close();
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDWR);
    const GrubRelocation r = relocateGrubCore(fd, 63, 2048, 100, path);
    ::close(fd);
    QVERIFY(r.ok);
    QVERIFY(!r.changed);
    QVERIFY(readFile(path) == disk);
}

void TestBootInventory::bcdDeviceElement()
{
    // A Windows 8.1 osloader's device element on an MBR disk, as published byte for byte
    // (mistyprojects.co.uk, "Devices Partition - Data"): offset 0x15f00000, signature b3eba8f1.
    const QByteArray element =
        QByteArray::fromHex("00000000000000000000000000000000"
                            "06000000" // options GUID, type 6 (partition)
                            "00000000"
                            "48000000"
                            "00000000"         // flags, size 0x48, reserved
                            "0000f01500000000" // 0x20: byte offset 0x15f00000
                            "000000000000000000000000"
                            "01000000" // 0x34: MBR
                            "f1a8ebb3" // 0x38: disk signature
                            "00000000000000000000000000000000000000000000000000000000");
    QCOMPARE(element.size(), 0x58);
    const QList<BcdPartitionDevice> devices = parseBcdDeviceElement(element);
    QCOMPARE(devices.size(), 1);
    QCOMPARE(devices[0].partitionOffsetBytes, 368050176);
    QCOMPARE(devices[0].diskSignature, 0xb3eba8f1u);
    // Nested in a larger element (a file device naming its partition), still found.
    QCOMPARE(parseBcdDeviceElement(QByteArray(0x24, '\0') + element).size(), 1);
    // A GPT partition device (style 0) names a GUID, not an offset: not reported.
    QByteArray gpt = element;
    gpt[0x34] = 0;
    QVERIFY(parseBcdDeviceElement(gpt).isEmpty());
}

void TestBootInventory::efibootmgrFormats()
{
    const QString v17 = QStringLiteral(
        "BootCurrent: 0001\nTimeout: 1 seconds\nBootOrder: 0001,0000\n"
        "Boot0000* UiApp\tFvVol(7cb8bdc9-f8eb-4f34-aaea-3ee4af6516a1)/"
        "FvFile(462caa21-7614-4503-836e-8ab6f4662331)\n"
        "Boot0001* debian\tHD(1,GPT,3E6F6B0A-7C71-4C8E-A3B8-D3D4E8A0B1F1,0x800,0x100000)/"
        "File(\\EFI\\debian\\shimx64.efi)\n");
    const QList<FirmwareEntry> a = parseEfibootmgr(v17);
    QCOMPARE(a.size(), 1);
    QCOMPARE(a[0].id, QStringLiteral("Boot0001"));
    QCOMPARE(a[0].label, QStringLiteral("debian"));
    QVERIFY(a[0].active && a[0].gpt);
    QCOMPARE(a[0].signature, QStringLiteral("3e6f6b0a-7c71-4c8e-a3b8-d3d4e8a0b1f1"));
    QCOMPARE(a[0].startSector, 2048);
    QCOMPARE(a[0].sizeSectors, 0x100000);
    QCOMPARE(a[0].path, QStringLiteral("\\EFI\\debian\\shimx64.efi"));
    const QString v18 =
        QStringLiteral("Boot0003  Windows Boot Manager\tHD(2,MBR,0x1a2b3c4d,0x3f,0x1f400)/"
                       "\\EFI\\Microsoft\\Boot\\bootmgfw.efi\n");
    const QList<FirmwareEntry> b = parseEfibootmgr(v18);
    QCOMPARE(b.size(), 1);
    QVERIFY(!b[0].active && !b[0].gpt);
    QCOMPARE(b[0].label, QStringLiteral("Windows Boot Manager"));
    QCOMPARE(b[0].partition, 2);
    QCOMPARE(b[0].startSector, 63);
    QCOMPARE(b[0].path, QStringLiteral("\\EFI\\Microsoft\\Boot\\bootmgfw.efi"));
    QCOMPARE(firmwareEntryRepair(b[0], QStringLiteral("/dev/sdb"), 2),
             QStringLiteral("efibootmgr -b 0003 -B && efibootmgr -c -d /dev/sdb -p 2 -L "
                            "'Windows Boot Manager' -l '\\EFI\\Microsoft\\Boot\\bootmgfw.efi'"));
}

void TestBootInventory::moveEffects()
{
    BootInventory inv;
    inv.disk = QStringLiteral("/dev/sdb");
    inv.tableType = QStringLiteral("gpt");
    GrubCoreInfo core;
    core.place = GrubCoreInfo::Place::BiosBootPartition;
    core.sector = 34;
    core.partition = 1;
    core.lastSector = 94;
    inv.grubCore = core;
    inv.partitions = {PartitionBoot{}, PartitionBoot{}};
    inv.partitions[0].number = 1;
    inv.partitions[0].biosBoot = true;
    inv.partitions[1].number = 2;
    inv.partitions[1].esp = true;
    inv.partitions[1].recordedStart = 2048;
    BootEffect e = bootEffectOfMove(inv, 1, 34, 40, 2008);
    QCOMPARE(e.kind, BootEffect::Kind::Fixed);
    QVERIFY(e.fixes.join(QLatin1Char(' ')).contains(QLatin1String("sector 40 (was 34)")));
    QCOMPARE(bootEffectOfMove(inv, 1, 34, 34, 2014).kind, BootEffect::Kind::None);

    // A firmware entry naming the ESP by its start breaks, and says how to make it anew.
    inv.firmwareRead = true;
    FirmwareEntry fw;
    fw.id = QStringLiteral("Boot0004");
    fw.label = QStringLiteral("debian");
    fw.startSector = 2048;
    fw.path = QStringLiteral("\\EFI\\debian\\grubx64.efi");
    inv.firmwareEntries = {DiskFirmwareEntry{fw, 2}};
    e = bootEffectOfMove(inv, 2, 2048, 4096, 1000);
    QCOMPARE(e.kind, BootEffect::Kind::Breaks);
    QCOMPARE(e.fixes.size(), 1); // the boot sector's recorded start is still fixed
    QCOMPARE(e.repairs, QStringList{QStringLiteral(
                            "efibootmgr -b 0004 -B && efibootmgr -c -d /dev/sdb -p 2 -L debian "
                            "-l '\\EFI\\debian\\grubx64.efi'")});

    // core.img inside a filesystem (block lists): breaks, grub-install repairs it.
    core.place = GrubCoreInfo::Place::Partition;
    core.partition = 2;
    inv.grubCore = core;
    inv.firmwareEntries.clear();
    e = bootEffectOfMove(inv, 2, 2048, 4096, 1000);
    QCOMPARE(e.kind, BootEffect::Kind::Breaks);
    QVERIFY(e.repairs.contains(QStringLiteral("grub-install /dev/sdb")));

    // core.img in the MBR gap overwritten by a partition moving down into it.
    core.place = GrubCoreInfo::Place::MbrGap;
    core.sector = 1;
    core.lastSector = 62;
    core.partition = 0;
    inv.grubCore = core;
    QCOMPARE(bootEffectOfMove(inv, 2, 2048, 40, 1000).kind, BootEffect::Kind::Breaks);
    QCOMPARE(bootEffectOfMove(inv, 2, 2048, 63, 1000).kind, BootEffect::Kind::Fixed);

    // Windows on MBR: the BCD names the moving partition by its byte offset.
    BootInventory win;
    win.disk = QStringLiteral("/dev/sda");
    win.tableType = QStringLiteral("msdos");
    win.diskSignature = QStringLiteral("b3eba8f1");
    win.partitions = {PartitionBoot{}, PartitionBoot{}};
    win.partitions[0].number = 1;
    win.partitions[0].loader = PartitionLoader::Bootmgr;
    BcdStore store;
    store.found = store.read = true;
    store.devices = {BcdPartitionDevice{QStringLiteral("{current}"), QStringLiteral("21000001"),
                                        0xb3eba8f1, 63 * 512 + 200 * 1024 * 1024}};
    win.partitions[0].bcd = store;
    win.partitions[1].number = 2;
    const qint64 oldStart = (63 * 512 + 200 * 1024 * 1024) / 512;
    e = bootEffectOfMove(win, 2, oldStart, oldStart + 1985, 1000);
    QCOMPARE(e.kind, BootEffect::Kind::Breaks);
    QVERIFY(e.repairs.first().startsWith(QLatin1String("bcdboot C:\\Windows")));
    QCOMPARE(bootEffectOfMove(win, 2, oldStart + 8, oldStart + 2048, 1000).kind,
             BootEffect::Kind::None);
}

// `check --json` on a GPT disk with GRUB's core.img in a BIOS boot partition at 34, read back
// as the window reads a helper's answer; and answers with a wrong field refused, naming it.
void TestBootInventory::checkJsonReadBack()
{
    pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString image = dir.filePath(QStringLiteral("bios-boot.img"));
    QString error;
    QVERIFY2(pwtest::SfdiskTable::writeImage(
                 image, 16 << 20,
                 "label: gpt\nfirst-lba: 34\n"
                 "start=34, size=2014, type=21686148-6449-6E6F-744E-656564454649\n"
                 "start=2048, size=8192, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n",
                 &error),
             qPrintable(error));
    QVERIFY2(boottest::writeGrubBiosBootCode(image, 34, 60, &error), qPrintable(error));
    const pwtest::CliResult r =
        pwtest::runCli({QStringLiteral("check"), QStringLiteral("--json"), image});
    QVERIFY2(r.jsonValid, qPrintable(r.describe()));
    const QJsonObject device = r.device(image);
    QString problem;
    const std::optional<BootInventory> boot = bootInventoryFromJson(device, &problem);
    QVERIFY2(boot && problem.isEmpty(), qPrintable(problem));
    QCOMPARE(boot->mbrCode, MbrCode::Grub);
    QVERIFY(boot->grubCore);
    QCOMPARE(boot->grubCore->sector, 34u);
    QCOMPARE(boot->grubCore->lastSector, 34u + 60);
    QCOMPARE(boot->grubCore->place, GrubCoreInfo::Place::BiosBootPartition);
    QCOMPARE(boot->grubCore->partition, 1);
    QCOMPARE(boot->biosBootPartition, 1);
    QCOMPARE(boot->espPartitions, QList<int>{2});
    QVERIFY(!boot->firmwareRead); // an image: this machine's entries are not its business
    QVERIFY(boot->partition(1) && boot->partition(1)->biosBoot);
    QVERIFY(boot->partition(2) && boot->partition(2)->esp);
    // Moving the BIOS boot partition is fixed, as it is when read from the disk itself.
    QCOMPARE(bootEffectOfMove(*boot, 1, 34, 40, 2008).kind, BootEffect::Kind::Fixed);

    // No "boot" (an older helper): nothing, and no problem.
    QJsonObject old = device;
    old.remove(QStringLiteral("boot"));
    QVERIFY(!bootInventoryFromJson(old, &problem) && problem.isEmpty());
    const auto refused = [&](QJsonObject changed, const char *field) {
        QString why;
        const bool read = bootInventoryFromJson(changed, &why).has_value();
        QVERIFY2(!read && why.contains(QLatin1String(field)), qPrintable(why));
    };
    QJsonObject bootObject = device.value(QStringLiteral("boot")).toObject();
    QJsonObject changed = device;
    bootObject[QStringLiteral("mbr_code")] = QStringLiteral("lilo");
    changed[QStringLiteral("boot")] = bootObject;
    refused(changed, "mbr_code");
    bootObject = device.value(QStringLiteral("boot")).toObject();
    QJsonObject core = bootObject.value(QStringLiteral("grub_core")).toObject();
    core[QStringLiteral("sector")] = QStringLiteral("34");
    bootObject[QStringLiteral("grub_core")] = core;
    changed[QStringLiteral("boot")] = bootObject;
    refused(changed, "sector");
    changed = device;
    QJsonArray parts = changed.value(QStringLiteral("partitions")).toArray();
    QJsonObject first = parts[0].toObject();
    QJsonObject loader = first.value(QStringLiteral("boot_loader")).toObject();
    loader[QStringLiteral("esp")] = 1;
    first[QStringLiteral("boot_loader")] = loader;
    parts[0] = first;
    changed[QStringLiteral("partitions")] = parts;
    refused(changed, "esp");
}

QTEST_GUILESS_MAIN(TestBootInventory)
#include "tst_bootinventory.moc"
