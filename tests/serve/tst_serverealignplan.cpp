// The realignment's plan through `partwise-cli serve`: realign-plan sends the whole prepared
// plan (read back with every field checked), takes the ways a person picked, and realign runs
// only the moves the person saw ("expect"), writing nothing when its own fresh plan differs.
// Checked against sfdisk and the image's bytes.
#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"
#include "loopdevice.h"
#include "ops/realignjson.h"
#include "serveclient.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using namespace pwtest;

namespace {

constexpr qint64 MiB = 1 << 20;

} // namespace

class TestServeRealignPlan : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    }
    void realignPlanSendsThePreparedPlan();
    void realignPlanTakesTheWaysPicked();
    void realignRunsOnlyThePlanThePersonSaw();
    void realignPlanSaysHowFarTheMapIs();

private:
    // 64 MiB, MBR, no filesystems: 1 from sector 63; 2 from 40001 with free space on both
    // sides, its first MiB random bytes (returned in *data).
    QString twoGapImage(const QString &name, QByteArray *data);

    QTemporaryDir m_dir;
};

QString TestServeRealignPlan::twoGapImage(const QString &name, QByteArray *data)
{
    const QString image = m_dir.filePath(name);
    QString error;
    if (!SfdiskTable::writeImage(image, 64 * MiB,
                                 "label: dos\nstart=63, size=32705, type=83\n"
                                 "start=40001, size=16384, type=83\n",
                                 &error))
        return {};
    data->resize(MiB);
    QRandomGenerator(11).fillRange(reinterpret_cast<quint32 *>(data->data()), data->size() / 4);
    QFile file(image);
    if (!file.open(QIODevice::ReadWrite) || !file.seek(40001 * 512) ||
        file.write(*data) != data->size())
        return {};
    return image;
}

void TestServeRealignPlan::realignPlanSendsThePreparedPlan()
{
    QByteArray data;
    const QString image = twoGapImage(QStringLiteral("prepared.img"), &data);
    QVERIFY(!image.isEmpty());
    const QByteArray before = fileSha256(image);
    const SfdiskTable table = SfdiskTable::read(image);
    QVERIFY2(table.ok, qPrintable(table.error));
    ServeClient client;
    const QJsonObject answer = client.call(QStringLiteral("realign-plan"), {{"path", image}});
    const QJsonObject plan = resultOf(answer);
    for (const char *key : {"grain_bytes", "moves", "skipped", "warnings", "journal", "text"})
        QVERIFY2(plan.contains(QLatin1String(key)), key); // what scripts read stays
    PreparedRealign prepared;
    QString error;
    QVERIFY2(preparedRealignFromJson(plan.value(QStringLiteral("prepared")).toObject(), &prepared,
                                     &error),
             qPrintable(error + describe(answer)));
    QVERIFY(prepared.ok);
    QCOMPARE(prepared.layout.device.path, image);
    QCOMPARE(prepared.journalPath, plan.value(QStringLiteral("journal")).toString());
    const QJsonArray moves = plan.value(QStringLiteral("moves")).toArray();
    QCOMPARE(prepared.plan.moves.size(), 2);
    QCOMPARE(moves.size(), prepared.plan.moves.size());
    for (int i = 0; i < moves.size(); ++i) {
        const PartitionMove &m = prepared.plan.moves[i];
        const SfdiskPartition *p = table.find(m.number);
        QVERIFY(p);
        QCOMPARE(m.oldStart, p->start);
        QCOMPARE(m.oldEnd, p->end());
        QCOMPARE(m.newStart % 2048, 0);
        QCOMPARE(m.newLength(), p->size);
        QCOMPARE(moves[i].toObject().value(QStringLiteral("number")).toInt(), m.number);
        QCOMPARE(moves[i].toObject().value(QStringLiteral("new_start")).toInteger(), m.newStart);
    }
    QCOMPARE(prepared.plan.choices.size(), 2);
    QCOMPARE(prepared.copiedWhole.size(), 2); // no filesystems: copied whole
    // An image nobody has mounted: nothing holds it.
    QVERIFY2(plan.value(QStringLiteral("busy")).isArray(), qPrintable(describe(answer)));
    QVERIFY(plan.value(QStringLiteral("busy")).toArray().isEmpty());
    QCOMPARE(fileSha256(image), before);
}

// "ways" is the way a person picked in the wizard; a way the helper does not know is refused.
void TestServeRealignPlan::realignPlanTakesTheWaysPicked()
{
    QByteArray data;
    const QString image = twoGapImage(QStringLiteral("ways.img"), &data);
    QVERIFY(!image.isEmpty());
    const qint64 start = SfdiskTable::read(image).find(2)->start;
    ServeClient client;
    const auto newStartOf2 = [&](const char *way) -> qint64 {
        const QJsonObject answer = client.call(
            QStringLiteral("realign-plan"), {{"path", image}, {"ways", QJsonObject{{"2", way}}}});
        PreparedRealign prepared;
        QString error;
        if (!preparedRealignFromJson(resultOf(answer).value(QStringLiteral("prepared")).toObject(),
                                     &prepared, &error)) {
            qWarning().noquote() << error << describe(answer);
            return -1;
        }
        if (prepared.request.ways.value(2) !=
            (qstrcmp(way, "move-up") == 0 ? RealignWay::MoveUp : RealignWay::MoveDown))
            return -2;
        for (const PartitionMove &m : prepared.plan.moves)
            if (m.number == 2)
                return m.newStart;
        return -3;
    };
    QCOMPARE(newStartOf2("move-down"), start / 2048 * 2048);
    QCOMPARE(newStartOf2("move-up"), (start / 2048 + 1) * 2048);
    const QList<QJsonValue> bad{QJsonObject{{"2", "sideways"}},  QJsonObject{{"0", "move-up"}},
                                QJsonObject{{"two", "move-up"}}, QJsonObject{{"2", 1}},
                                QJsonArray{"move-up"},           QStringLiteral("move-up")};
    for (const QJsonValue &ways : bad) {
        const QJsonObject answer =
            client.call(QStringLiteral("realign-plan"), {{"path", image}, {"ways", ways}});
        QCOMPARE(errorCodeOf(answer), -32602);
        QVERIFY2(answer.value(QStringLiteral("error"))
                     .toObject()
                     .value(QStringLiteral("message"))
                     .toString()
                     .contains(QStringLiteral("\"ways\"")),
                 qPrintable(describe(answer)));
    }
    QJsonObject tooMany;
    for (int n = 1; n <= 257; ++n)
        tooMany.insert(QString::number(n), "move-up");
    QCOMPARE(errorCodeOf(
                 client.call(QStringLiteral("realign-plan"), {{"path", image}, {"ways", tooMany}})),
             -32602);
}

// The helper plans again when it runs and never runs what a client describes: the moves the
// person saw ("expect") must be the ones it planned, or nothing is written.
void TestServeRealignPlan::realignRunsOnlyThePlanThePersonSaw()
{
    QByteArray data;
    const QString image = twoGapImage(QStringLiteral("expect.img"), &data);
    QVERIFY(!image.isEmpty());
    const QByteArray before = fileSha256(image);
    ServeClient client;
    const QJsonObject plan =
        resultOf(client.call(QStringLiteral("realign-plan"),
                             {{"path", image}, {"ways", QJsonObject{{"2", "move-up"}}}}));
    QJsonArray seen;
    for (const QJsonValue &m : plan.value(QStringLiteral("moves")).toArray())
        seen.append(QJsonObject{{"number", m[QStringLiteral("number")]},
                                {"new_start", m[QStringLiteral("new_start")]},
                                {"new_end", m[QStringLiteral("new_end")]}});
    QCOMPARE(seen.size(), 2);

    // The person saw partition 2 move up; the disk (here: the request) now plans it down.
    const int changed =
        client.send(QStringLiteral("realign"),
                    {{"path", image}, {"ways", QJsonObject{{"2", "move-down"}}}, {"expect", seen}});
    const QJsonObject refused = client.answer(changed, 300000);
    QCOMPARE(errorCodeOf(refused), -32003);
    const QJsonObject error = refused.value(QStringLiteral("error")).toObject();
    QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("changed")),
             qPrintable(describe(refused)));
    RealignResult result;
    QString problem;
    QVERIFY2(
        realignResultFromJson(error.value(QStringLiteral("data")).toObject(), &result, &problem),
        qPrintable(problem));
    QVERIFY(!result.ok);
    QVERIFY(!result.resumable);
    QCOMPARE(fileSha256(image), before);
    QVERIFY(!QFile::exists(resultOf(client.call(QStringLiteral("read-disk"), {{"path", image}}))
                               .value(QStringLiteral("interrupted_journal"))
                               .toString()));
    // Fewer moves than planned is a change too.
    const QJsonObject fewer =
        client.call(QStringLiteral("realign"), {{"path", image}, {"expect", QJsonArray{seen[0]}}});
    QCOMPARE(errorCodeOf(fewer), -32003);
    QCOMPARE(fileSha256(image), before);

    // An "expect" that is not a list of moves is not a request at all.
    const QList<QJsonValue> malformed{
        QStringLiteral("all"),
        QJsonArray{1},
        QJsonArray{QJsonObject{{"number", 2}, {"new_start", 40960}}},
        QJsonArray{QJsonObject{{"number", 0}, {"new_start", 40960}, {"new_end", 57343}}},
        QJsonArray{QJsonObject{{"number", 2}, {"new_start", -1}, {"new_end", 57343}}},
        QJsonArray{QJsonObject{{"number", 2}, {"new_start", 40960}, {"new_end", 40959}}},
        QJsonArray{QJsonObject{{"number", 2}, {"new_start", "40960"}, {"new_end", 57343}}},
        QJsonArray::fromVariantList(QVariantList(5000, QVariantMap{}))};
    for (const QJsonValue &expect : malformed)
        QCOMPARE(errorCodeOf(
                     client.call(QStringLiteral("realign"), {{"path", image}, {"expect", expect}})),
                 -32602);
    QCOMPARE(fileSha256(image), before);

    // What the person saw is what it plans: it runs.
    const QJsonObject ran = client.call(
        QStringLiteral("realign"),
        {{"path", image}, {"ways", QJsonObject{{"2", "move-up"}}}, {"expect", seen}}, 300000);
    QVERIFY2(resultOf(ran).value(QStringLiteral("ok")).toBool(), qPrintable(describe(ran)));
    QVERIFY(resultOf(ran).contains(QStringLiteral("shrink_refused")));
    const SfdiskTable after = SfdiskTable::read(image);
    QVERIFY2(after.ok, qPrintable(after.error));
    for (const QJsonValue &m : seen)
        QCOMPARE(after.find(m[QStringLiteral("number")].toInt())->start,
                 m[QStringLiteral("new_start")].toInteger());
    QCOMPARE(after.find(2)->start, 40960);
    QFile file(image);
    QVERIFY(file.open(QIODevice::ReadOnly) && file.seek(40960 * 512));
    QVERIFY2(file.read(data.size()) == data, "partition 2's bytes differ after the move");
}

// A large filesystem's used-block map takes seconds to read: while realign-plan reads it, the
// helper says how far it is, so the window is not silent. A sparse 65 GiB XFS at GPT's sector 34.
void TestServeRealignPlan::realignPlanSaysHowFarTheMapIs()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // mkfs.xfs through a loop device at the partition's offset
    const QString image = m_dir.filePath(QStringLiteral("large-xfs.img"));
    constexpr qint64 sectors = 65LL * 1024 * 2048;
    QString error;
    QVERIFY2(SfdiskTable::writeImage(image, 70LL << 30,
                                     QStringLiteral("label: gpt\nfirst-lba: 34\nstart=34, size=%1, "
                                                    "type=L\n")
                                         .arg(sectors)
                                         .toLatin1(),
                                     &error),
             qPrintable(error));
    const ToolResult loop =
        runTool(QStringLiteral("losetup"),
                {QStringLiteral("-f"), QStringLiteral("--show"), QStringLiteral("-o"),
                 QString::number(34 * 512), QStringLiteral("--sizelimit"),
                 QString::number(sectors * 512), image});
    QVERIFY2(loop.ok(), qPrintable(loop.describe()));
    const QString device = QString::fromLatin1(loop.out.trimmed());
    const ToolResult made = runTool(QStringLiteral("mkfs.xfs"), {QStringLiteral("-q"), device});
    runTool(QStringLiteral("losetup"), {QStringLiteral("-d"), device});
    QVERIFY2(made.ok(), qPrintable(made.describe()));

    ServeClient client;
    const QJsonObject answer = client.call(QStringLiteral("realign-plan"), {{"path", image}});
    QVERIFY2(answer.contains(QStringLiteral("result")), QJsonDocument(answer).toJson().constData());
    const QJsonValue id = answer.value(QStringLiteral("id"));
    QList<double> fractions;
    for (const QJsonObject &n : client.notifications()) {
        const QJsonObject params = n.value(QStringLiteral("params")).toObject();
        if (n.value(QStringLiteral("method")).toString() == QLatin1String("map-progress") &&
            params.value(QStringLiteral("id")) == id) {
            QCOMPARE(params.value(QStringLiteral("partition")).toInt(), 1);
            fractions << params.value(QStringLiteral("fraction")).toDouble();
        }
    }
    QVERIFY(!fractions.isEmpty());
    QCOMPARE(fractions.last(), 1.0);
    QVERIFY(std::is_sorted(fractions.cbegin(), fractions.cend()));
}

QTEST_GUILESS_MAIN(TestServeRealignPlan)
#include "tst_serverealignplan.moc"
