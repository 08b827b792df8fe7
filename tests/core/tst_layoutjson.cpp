// A disk's layout as the helper sends it (report/layoutjson): what the disk reader reads comes
// back unchanged from its JSON, for every practice preset; and a description whose fields are
// missing, of the wrong type or out of range is refused with the field named, never half used.
#include "buildsetting.h"
#include "clirun.h"
#include "layer/layerreader.h"
#include "report/layoutjson.h"
#include "table/diskreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using namespace pwtest;

class TestLayoutJson : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("preset");
        for (const char *preset : {"windows-xp", "old-fdisk", "gpt-34", "4kn", "modern", "demo"})
            QTest::newRow(preset) << QString::fromLatin1(preset);
    }

    void roundTrip()
    {
        QFETCH(QString, preset);
        const QString image = m_dir.filePath(preset + QStringLiteral(".img"));
        const CliResult made = runCli({QStringLiteral("practice"), preset, image,
                                       QStringLiteral("--size"), QStringLiteral("128M")});
        QVERIFY2(made.exitCode == 0, qPrintable(made.describe()));
        DiskReadResult read = readDisk(image);
        QVERIFY2(read.ok, qPrintable(read.error));
        readLayers(&read.layout);
        const QJsonObject json = layoutToJson(read.layout);
        // Through text, as it travels.
        const QJsonObject travelled =
            QJsonDocument::fromJson(QJsonDocument(json).toJson(QJsonDocument::Compact)).object();
        DiskLayout back;
        QString error;
        QVERIFY2(layoutFromJson(travelled, &back, &error), qPrintable(error));
        QCOMPARE(QJsonDocument(layoutToJson(back)).toJson(), QJsonDocument(json).toJson());
        // Field by field where a mistake would show on the map.
        QCOMPARE(back.regions.size(), read.layout.regions.size());
        for (int i = 0; i < back.regions.size(); ++i) {
            const PartitionInfo &a = read.layout.regions[i];
            const PartitionInfo &b = back.regions[i];
            QCOMPARE(b.kind, a.kind);
            QCOMPARE(b.number, a.number);
            QCOMPARE(b.startSector, a.startSector);
            QCOMPARE(b.endSector, a.endSector);
            QCOMPARE(b.filesystem, a.filesystem);
            QCOMPARE(b.label, a.label);
            QCOMPARE(b.flags, a.flags);
            QCOMPARE(b.insideExtended, a.insideExtended);
        }
        QVERIFY(back.device.topology == read.layout.device.topology);
        QCOMPARE(back.tableType, read.layout.tableType);
        QCOMPARE(back.lastUsableSector, read.layout.lastUsableSector);
        QCOMPARE(back.device.lengthSectors, read.layout.device.lengthSectors);
    }

    void damagedDescriptionsAreRefused()
    {
        const QString image = m_dir.filePath(QStringLiteral("damaged.img"));
        QVERIFY(runCli({QStringLiteral("practice"), QStringLiteral("demo"), image,
                        QStringLiteral("--size"), QStringLiteral("128M")})
                    .exitCode == 0);
        const DiskReadResult read = readDisk(image);
        QVERIFY(read.ok);
        const QJsonObject good = layoutToJson(read.layout);
        const QJsonObject region =
            good.value(QStringLiteral("regions")).toArray().first().toObject();
        struct Case
        {
            const char *what;
            QJsonObject json;
            const char *named; // in the message
        };
        auto withRegion = [&](const char *key, const QJsonValue &value) {
            QJsonObject r = region;
            r[QLatin1String(key)] = value;
            QJsonArray regions = good.value(QStringLiteral("regions")).toArray();
            regions[0] = r;
            QJsonObject j = good;
            j[QStringLiteral("regions")] = regions;
            return j;
        };
        auto with = [&](const char *key, const QJsonValue &value) {
            QJsonObject j = good;
            j[QLatin1String(key)] = value;
            return j;
        };
        auto without = [&](const char *key) {
            QJsonObject j = good;
            j.remove(QLatin1String(key));
            return j;
        };
        const qint64 last = read.layout.device.lengthSectors - 1;
        const QList<Case> cases{
            {"another format", with("format", 2), "format"},
            {"no device", without("device"), "device"},
            {"regions not a list", with("regions", QStringLiteral("x")), "regions"},
            {"too many regions",
             with("regions", QJsonArray::fromVariantList(QVariantList(5000, 0))), "regions"},
            {"start past the disk", withRegion("start_sector", double(last + 1)), "start_sector"},
            {"end before start", withRegion("end_sector", 0), "end_sector"},
            {"negative number", withRegion("number", -1), "number"},
            {"fractional sector", withRegion("start_sector", 100.5), "start_sector"},
            {"huge sector", withRegion("end_sector", 1e300), "end_sector"},
            {"unknown kind", withRegion("kind", QStringLiteral("secret")), "kind"},
            {"flags not strings", withRegion("flags", QJsonArray{1, 2}), "flags"},
            {"label a number", withRegion("label", 7), "label"},
            {"layers not a list", withRegion("layers", QJsonObject{}), "layers"},
            {"warnings not strings", with("warnings", QJsonArray{QJsonObject{}}), "warnings"},
        };
        for (const Case &c : cases) {
            DiskLayout out;
            out.tableType = QStringLiteral("untouched");
            QString error;
            QVERIFY2(!layoutFromJson(c.json, &out, &error), c.what);
            QVERIFY2(error.contains(QLatin1String(c.named)), qPrintable(error));
            QCOMPARE(out.tableType, QStringLiteral("untouched")); // nothing half used
        }
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestLayoutJson)
#include "tst_layoutjson.moc"
