// Editing through plan files, checked with sfdisk, sgdisk, parted and blkid.
#include "ops/applyrunner.h"
#include "ops/planfile.h"
#include "ops/tablebackup.h"
#include "table/diskreader.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

namespace {

QString output(const QString &program, const QStringList &args, int *status = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    p.waitForFinished(120000);
    if (status)
        *status = p.exitCode();
    return QString::fromUtf8(p.readAll());
}

QJsonArray sfdiskPartitions(const QString &target)
{
    return QJsonDocument::fromJson(
               output(QStringLiteral("sfdisk"), {QStringLiteral("-J"), target}).toUtf8())
        .object()
        .value(QStringLiteral("partitiontable"))
        .toObject()
        .value(QStringLiteral("partitions"))
        .toArray();
}

QByteArray fileHash(const QString &path, qint64 length = -1)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    QCryptographicHash h(QCryptographicHash::Sha256);
    if (length < 0)
        h.addData(&f);
    else
        h.addData(f.read(length));
    return h.result();
}

QList<Operation> plan(const char *json)
{
    QList<Operation> ops;
    QString error;
    if (!parsePlan(QByteArray(json), &ops, &error))
        qWarning() << error;
    return ops;
}

bool requireRoot()
{
    return ::geteuid() == 0;
}

} // namespace

class ApplyTest : public QObject
{
    Q_OBJECT
private slots:
    void gptWithThreeFormattedPartitions();
    void mbrLogicalPartitionsStartOnTheGrain();
    void fourKnUsesItsOwnSectors();
    void impossiblePlanChangesNothing();
    void backupRestoresTableByteForByte();
    void planRoundTrips();
    void mountedPartitionIsRefused();

private:
    QString image(const QString &name, qint64 size = qint64(512) << 20);
    ApplyOptions options() const;
    QTemporaryDir m_dir;
};

QString ApplyTest::image(const QString &name, qint64 size)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.resize(size);
    return path;
}

ApplyOptions ApplyTest::options() const
{
    ApplyOptions o;
    o.backupRoot = m_dir.filePath(QStringLiteral("backups"));
    return o;
}

void ApplyTest::gptWithThreeFormattedPartitions()
{
    const QString img = image(QStringLiteral("gpt.img"));
    const ApplyResult r = applyOperations(img, plan(R"({"operations":[
        {"op":"new-table","type":"gpt"},
        {"op":"create","size":"256MiB","fs":"ext4","label":"root"},
        {"op":"create","size":"64MiB","fs":"vfat","name":"EFI","flags":["esp"]},
        {"op":"create","size":"rest","fs":"swap","label":"swap"}]})"),
                                          options());
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(output(QStringLiteral("sgdisk"), {QStringLiteral("-v"), img})
                .contains(QLatin1String("No problems found")));
    const QJsonArray parts = sfdiskPartitions(img);
    QCOMPARE(parts.size(), 3);
    const char *types[] = {"ext4", "vfat", "swap"};
    for (int i = 0; i < 3; ++i) {
        const qint64 start = parts[i].toObject().value(QStringLiteral("start")).toInteger();
        QCOMPARE(start % 2048, 0);
        int status = -1;
        output(QStringLiteral("parted"),
               {QStringLiteral("-s"), img, QStringLiteral("align-check"), QStringLiteral("opt"),
                QString::number(i + 1)},
               &status);
        QCOMPARE(status, 0);
        QCOMPARE(output(QStringLiteral("blkid"),
                        {QStringLiteral("-p"), QStringLiteral("-O"), QString::number(start * 512),
                         QStringLiteral("-s"), QStringLiteral("TYPE"), QStringLiteral("-o"),
                         QStringLiteral("value"), img})
                     .trimmed(),
                 QString::fromLatin1(types[i]));
    }
    QCOMPARE(parts[1].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("EFI"));
    QCOMPARE(parts[1].toObject().value(QStringLiteral("type")).toString(),
             QStringLiteral("C12A7328-F81F-11D2-BA4B-00A0C93EC93B")); // the ESP type GUID
    QVERIFY(QFile::exists(r.backupFolder + QStringLiteral("/first-mib.bin")));
}

void ApplyTest::mbrLogicalPartitionsStartOnTheGrain()
{
    const QString img = image(QStringLiteral("mbr.img"));
    const ApplyResult r = applyOperations(img, plan(R"({"operations":[
        {"op":"new-table","type":"msdos"},
        {"op":"create","size":"100MiB"},
        {"op":"create","kind":"extended","size":"rest"},
        {"op":"create","kind":"logical","size":"100MiB"},
        {"op":"create","kind":"logical","size":"100MiB"},
        {"op":"create","kind":"logical","size":"rest"}]})"),
                                          options());
    QVERIFY2(r.ok, qPrintable(r.error));
    const QJsonArray parts = sfdiskPartitions(img);
    QCOMPARE(parts.size(), 5);
    int status = -1;
    output(QStringLiteral("sfdisk"), {QStringLiteral("-V"), img}, &status);
    QCOMPARE(status, 0);
    for (const QJsonValue &v : parts) {
        const QJsonObject p = v.toObject();
        if (p.value(QStringLiteral("type")).toString() == QLatin1String("5"))
            continue; // the extended container itself is exempt
        QVERIFY2(p.value(QStringLiteral("start")).toInteger() % 2048 == 0,
                 qPrintable(p.value(QStringLiteral("node")).toString()));
    }
}

void ApplyTest::fourKnUsesItsOwnSectors()
{
    const QString img = image(QStringLiteral("4kn.img"));
    ApplyOptions o = options();
    o.forcedSectorSize = 4096;
    const ApplyResult r = applyOperations(img, plan(R"({"operations":[
        {"op":"new-table","type":"gpt"},
        {"op":"create","size":"100MiB","fs":"ext4"},
        {"op":"create","size":"rest"}]})"),
                                          o);
    QVERIFY2(r.ok, qPrintable(r.error));
    // sfdisk reads an image with 512-byte sectors; a loop device gives it the 4Kn view.
    QFile f(img);
    QVERIFY(f.open(QIODevice::ReadOnly));
    f.seek(4096);
    QCOMPARE(f.read(8), QByteArray("EFI PART"));
    if (!requireRoot())
        return;
    const QString loop = output(QStringLiteral("losetup"),
                                {QStringLiteral("-f"), QStringLiteral("--show"),
                                 QStringLiteral("--sector-size"), QStringLiteral("4096"), img})
                             .trimmed();
    QVERIFY(loop.startsWith(QLatin1String("/dev/loop")));
    const QJsonArray parts = sfdiskPartitions(loop);
    output(QStringLiteral("losetup"), {QStringLiteral("-d"), loop});
    QCOMPARE(parts.size(), 2);
    for (const QJsonValue &v : parts)
        QCOMPARE(v.toObject().value(QStringLiteral("start")).toInteger() % 256, 0);
}

void ApplyTest::impossiblePlanChangesNothing()
{
    const QString img = image(QStringLiteral("small.img"), qint64(64) << 20);
    QVERIFY(
        applyOperations(img, plan(R"({"operations":[{"op":"new-table","type":"gpt"}]})"), options())
            .ok);
    const QByteArray before = fileHash(img);
    const ApplyResult r = applyOperations(img, plan(R"({"operations":[
        {"op":"create","size":"10MiB"},
        {"op":"create","size":"1GiB"}]})"),
                                          options());
    QVERIFY(!r.ok);
    QVERIFY(r.error.contains(QLatin1String("Nothing was changed")));
    QCOMPARE(fileHash(img), before);
}

void ApplyTest::backupRestoresTableByteForByte()
{
    const QString img = image(QStringLiteral("restore.img"), qint64(128) << 20);
    QVERIFY(applyOperations(img, plan(R"({"operations":[{"op":"new-table","type":"msdos"},
        {"op":"create","size":"20MiB"},{"op":"create","size":"20MiB"}]})"),
                            options())
                .ok);
    const QByteArray original = fileHash(img);
    const QString sfdiskBefore = output(QStringLiteral("sfdisk"), {QStringLiteral("-d"), img});
    const ApplyResult r =
        applyOperations(img, plan(R"({"operations":[{"op":"new-table","type":"gpt"},
        {"op":"create","size":"rest"}]})"),
                        options());
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(fileHash(img) != original);
    QString error;
    QVERIFY2(restorePartitionTable(r.backupFolder, img, &error), qPrintable(error));
    QCOMPARE(fileHash(img), original);
    QCOMPARE(output(QStringLiteral("sfdisk"), {QStringLiteral("-d"), img}), sfdiskBefore);
}

void ApplyTest::planRoundTrips()
{
    const QList<Operation> ops = plan(R"({"operations":[
        {"op":"new-table","type":"gpt"},
        {"op":"create","size":"256MiB","fs":"ext4","label":"root"},
        {"op":"create","size":"64MiB","fs":"vfat","name":"EFI","flags":["esp"]},
        {"op":"create","size":"rest","fs":"swap","align":"4k"},
        {"op":"delete","number":3},{"op":"format","number":2,"fs":"ext4"}]})");
    QCOMPARE(ops.size(), 6);
    QList<Operation> again;
    QString error;
    QVERIFY(parsePlan(serializePlan(ops), &again, &error));
    QCOMPARE(serializePlan(again), serializePlan(ops));
    QCOMPARE(again[3].alignTo, AlignTo::FourKiB);
    QVERIFY(!parsePlan("{\"operations\":[{\"op\":\"explode\"}]}", &again, &error));
    QVERIFY(error.contains(QLatin1String("explode")));
}

void ApplyTest::mountedPartitionIsRefused()
{
    if (!requireRoot()) {
        if (qEnvironmentVariable("CI") == QLatin1String("true"))
            QFAIL("CI runs as root: the mounted-partition test must run");
        QSKIP("needs root for a loop device and a mount");
    }
    const QString img = image(QStringLiteral("mounted.img"), qint64(128) << 20);
    QVERIFY(applyOperations(img, plan(R"({"operations":[{"op":"new-table","type":"gpt"},
        {"op":"create","size":"rest","fs":"ext4"}]})"),
                            options())
                .ok);
    const QString loop =
        output(QStringLiteral("losetup"), {QStringLiteral("-f"), QStringLiteral("--show"), img})
            .trimmed();
    output(QStringLiteral("partx"), {QStringLiteral("-a"), loop});
    const QString mnt = m_dir.filePath(QStringLiteral("mnt"));
    QDir().mkpath(mnt);
    int status = -1;
    output(QStringLiteral("mount"), {loop + QStringLiteral("p1"), mnt}, &status);
    // The mounted filesystem writes to itself; the table (first MiB) must not change.
    const QByteArray before = fileHash(img, 1 << 20);
    const ApplyResult r =
        applyOperations(loop, plan(R"({"operations":[{"op":"delete","number":1}]})"), options());
    const ApplyResult viaImage = applyOperations(
        img, plan(R"({"operations":[{"op":"format","number":1,"fs":"ext2"}]})"), options());
    const QByteArray after = fileHash(img, 1 << 20);
    output(QStringLiteral("umount"), {mnt});
    output(QStringLiteral("partx"), {QStringLiteral("-d"), loop});
    output(QStringLiteral("losetup"), {QStringLiteral("-d"), loop});
    QCOMPARE(status, 0);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("mounted on")), qPrintable(r.error));
    QVERIFY(!viaImage.ok);
    QVERIFY2(viaImage.error.contains(QLatin1String("mounted on")), qPrintable(viaImage.error));
    QCOMPARE(after, before);
}

QTEST_GUILESS_MAIN(ApplyTest)
#include "tst_apply.moc"
