// The store of drive measurements (core/device/drivemeasurements.h) as the probe uses it:
// saved, read back, forgotten, and a damaged store left alone rather than overwritten.
#include "device/drivemeasurements.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

class TestMeasurementStore : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void savesReadsAndForgets();
    void damagedStoreIsLeftAlone();
    void noKeyIsNotRemembered();

private:
    QTemporaryDir m_dir;
    QString m_store;
};

void TestMeasurementStore::init()
{
    QVERIFY(m_dir.isValid());
    m_store = m_dir.filePath(QStringLiteral("state/drives.json"));
    QFile::remove(m_store);
    qputenv("PARTWISE_DRIVE_STORE", QFile::encodeName(m_store));
}

void TestMeasurementStore::savesReadsAndForgets()
{
    DriveMeasurement m;
    m.physicalSectorSize = 4096;
    m.alignmentOffset = 3584;
    m.penaltyRatio = 5.4;
    m.measuredAt = QDateTime(QDate(2024, 5, 1), QTime(12, 0), Qt::UTC);
    QString error;
    QVERIFY2(saveDriveMeasurement(QStringLiteral("serial:A"), m, &error), qPrintable(error));
    QVERIFY(saveDriveMeasurement(QStringLiteral("serial:B"), m, nullptr));
    QFile f(m_store);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject a = QJsonDocument::fromJson(f.readAll()).object()["serial:A"].toObject();
    QCOMPARE(a["physical_sector_size"].toInteger(), 4096);
    QCOMPARE(a["alignment_offset"].toInteger(), 3584);
    const auto loaded = loadDriveMeasurement(QStringLiteral("serial:A"));
    QVERIFY(loaded);
    QCOMPARE(loaded->alignmentOffset, qint64(3584));
    QCOMPARE(loaded->measuredAt, m.measuredAt);
    QVERIFY(forgetDriveMeasurement(QStringLiteral("serial:A"), &error));
    QVERIFY(!loadDriveMeasurement(QStringLiteral("serial:A")));
    QVERIFY(loadDriveMeasurement(QStringLiteral("serial:B")));
}

void TestMeasurementStore::damagedStoreIsLeftAlone()
{
    QDir().mkpath(QFileInfo(m_store).absolutePath());
    QFile f(m_store);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"serial:A\": {\"physical_sector_size\": 4096, "); // cut off
    f.close();
    DriveMeasurement m;
    m.physicalSectorSize = 8192;
    QString error;
    QVERIFY(!saveDriveMeasurement(QStringLiteral("serial:C"), m, &error));
    QVERIFY2(error.contains(QStringLiteral("is left as it is")), qPrintable(error));
    QVERIFY(!forgetDriveMeasurement(QStringLiteral("serial:A"), nullptr));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("{\"serial:A\": {\"physical_sector_size\": 4096, "));
}

void TestMeasurementStore::noKeyIsNotRemembered()
{
    QString error;
    QVERIFY(!saveDriveMeasurement(QString(), DriveMeasurement{}, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(m_store));
    QVERIFY(!loadDriveMeasurement(QString()));
    // An image file is no drive.
    QVERIFY(driveKey(m_dir.filePath(QStringLiteral("nothing.img"))).isEmpty());
}

QTEST_GUILESS_MAIN(TestMeasurementStore)
#include "tst_measurementstore.moc"
