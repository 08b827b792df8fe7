// Practice disks: the layouts must be what their titles promise, as sfdisk and blkid see them.
#include "ops/practicedisk.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

namespace {

struct SfdiskPartition
{
    qint64 start = 0;
    qint64 size = 0;
    QString type;
};

QString run(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(program, args);
    p.waitForFinished(60000);
    return QString::fromUtf8(p.readAllStandardOutput());
}

QList<SfdiskPartition> sfdiskPartitions(const QString &image, QString *label, qint64 *sectorSize)
{
    const QJsonObject table =
        QJsonDocument::fromJson(
            run(QStringLiteral("sfdisk"), {QStringLiteral("-J"), image}).toUtf8())
            .object()
            .value(QStringLiteral("partitiontable"))
            .toObject();
    *label = table.value(QStringLiteral("label")).toString();
    *sectorSize = table.value(QStringLiteral("sectorsize")).toInteger();
    QList<SfdiskPartition> out;
    for (const QJsonValue &v : table.value(QStringLiteral("partitions")).toArray()) {
        const QJsonObject o = v.toObject();
        out << SfdiskPartition{o.value(QStringLiteral("start")).toInteger(),
                               o.value(QStringLiteral("size")).toInteger(),
                               o.value(QStringLiteral("type")).toString()};
    }
    return out;
}

QString blkidValue(const QString &image, qint64 offset, const QString &tag)
{
    return run(QStringLiteral("blkid"),
               {QStringLiteral("-p"), QStringLiteral("-O"), QString::number(offset),
                QStringLiteral("-s"), tag, QStringLiteral("-o"), QStringLiteral("value"), image})
        .trimmed();
}

} // namespace

class PracticeDiskTest : public QObject
{
    Q_OBJECT
private slots:
    void windowsXpStartsAtSector63();
    void oldFdiskUsesCylindersAndLogicals();
    void gptAt34();
    void modernLayoutIsOnMiB();
    void fourKnGptStartsAtFirstUsableLba();
    void refusesToOverwrite();

private:
    QString make(PracticePreset preset, qint64 sectorSize = 512);
    QTemporaryDir m_dir;
};

QString PracticeDiskTest::make(PracticePreset preset, qint64 sectorSize)
{
    PracticeDiskSpec spec;
    spec.path = m_dir.filePath(QStringLiteral("p%1-%2.img").arg(int(preset)).arg(sectorSize));
    spec.sizeBytes = qint64(256) << 20;
    spec.sectorSize = sectorSize;
    spec.preset = preset;
    QString error;
    if (!createPracticeDisk(spec, &error))
        qWarning() << error;
    return spec.path;
}

void PracticeDiskTest::windowsXpStartsAtSector63()
{
    const QString img = make(PracticePreset::WindowsXp);
    QString label;
    qint64 ss = 0;
    const auto parts = sfdiskPartitions(img, &label, &ss);
    QCOMPARE(label, QStringLiteral("dos"));
    QCOMPARE(parts.size(), 1);
    QCOMPARE(parts[0].start, 63);
    QCOMPARE(parts[0].type, QStringLiteral("7"));
    QCOMPARE(blkidValue(img, 63 * 512, QStringLiteral("TYPE")), QStringLiteral("ntfs"));
    QCOMPARE(blkidValue(img, 63 * 512, QStringLiteral("LABEL")), QStringLiteral("WINXP"));
}

void PracticeDiskTest::oldFdiskUsesCylindersAndLogicals()
{
    const QString img = make(PracticePreset::OldFdiskLogical);
    QString label;
    qint64 ss = 0;
    const auto parts = sfdiskPartitions(img, &label, &ss);
    QCOMPARE(parts.size(), 4);
    QCOMPARE(parts[0].start, 63);
    QCOMPARE(parts[1].type, QStringLiteral("5"));
    QCOMPARE(parts[1].start % 16065, 0);
    QCOMPARE(parts[2].start, parts[1].start + 63); // logical right after its EBR track
    QCOMPARE((parts[3].start - 63) % 16065, 0);
    QCOMPARE(blkidValue(img, parts[2].start * 512, QStringLiteral("LABEL")),
             QStringLiteral("home"));
    QCOMPARE(blkidValue(img, parts[3].start * 512, QStringLiteral("TYPE")), QStringLiteral("swap"));
}

void PracticeDiskTest::gptAt34()
{
    const QString img = make(PracticePreset::GptAt34);
    QString label;
    qint64 ss = 0;
    const auto parts = sfdiskPartitions(img, &label, &ss);
    QCOMPARE(label, QStringLiteral("gpt"));
    QCOMPARE(parts.size(), 3);
    QCOMPARE(parts[0].start, 34);
    QCOMPARE(parts[1].start, parts[0].start + parts[0].size); // adjacent, no room between
    QCOMPARE(parts[2].start % 2048, 0);
    QCOMPARE(blkidValue(img, 34 * 512, QStringLiteral("TYPE")), QStringLiteral("vfat"));
    QVERIFY(run(QStringLiteral("sgdisk"), {QStringLiteral("-v"), img})
                .contains(QLatin1String("No problems found")));
}

void PracticeDiskTest::modernLayoutIsOnMiB()
{
    const QString img = make(PracticePreset::ModernMiB);
    QString label;
    qint64 ss = 0;
    const auto parts = sfdiskPartitions(img, &label, &ss);
    QCOMPARE(parts.size(), 3);
    for (const auto &p : parts) {
        QCOMPARE(p.start % 2048, 0);
        QCOMPARE(p.size % 2048, 0);
    }
    for (int n = 1; n <= 3; ++n) {
        // parted -s reports align-check through its exit status only.
        const int status = QProcess::execute(
            QStringLiteral("parted"), {QStringLiteral("-s"), img, QStringLiteral("align-check"),
                                       QStringLiteral("opt"), QString::number(n)});
        QCOMPARE(status, 0);
    }
}

void PracticeDiskTest::fourKnGptStartsAtFirstUsableLba()
{
    const QString img = make(PracticePreset::GptAt34, 4096);
    // sfdisk reads images as 512-byte sectors; the 4Kn GPT header sits at byte 4096.
    QFile f(img);
    QVERIFY(f.open(QIODevice::ReadOnly));
    f.seek(4096);
    QCOMPARE(f.read(8), QByteArray("EFI PART"));
    f.seek(512);
    QVERIFY(f.read(8) != QByteArray("EFI PART"));
    QCOMPARE(blkidValue(img, 6 * 4096, QStringLiteral("TYPE")), QStringLiteral("vfat"));
}

void PracticeDiskTest::refusesToOverwrite()
{
    const QString img = make(PracticePreset::Empty);
    QFile f(img);
    QVERIFY(f.exists());
    PracticeDiskSpec spec;
    spec.path = img;
    spec.preset = PracticePreset::ModernMiB;
    QString error;
    QVERIFY(!createPracticeDisk(spec, &error));
    QVERIFY(error.contains(QLatin1String("already exists")));
}

QTEST_GUILESS_MAIN(PracticeDiskTest)
#include "tst_practicedisk.moc"
