// Plan files from a hostile or careless hand: every field of a valid plan replaced by values of
// the wrong type, absurd sizes (1e308, 999999999999TiB, negative), huge strings, deep nesting,
// fields removed, the JSON cut short or bytes flipped, and plans thousands of operations long.
// `partwise-cli apply` without --yes previews and then stops unconfirmed: each mutant must be
// refused with a sentence (exit 2) or previewed (exit 1, not confirmed), in bounded time, never
// crash, and the target image must not change by one byte.

#include "buildsetting.h"
#include "clirun.h"
#include "filechecksum.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace pwtest;

namespace {

constexpr int kMutants = 40;
constexpr qint64 kSlowMs = 30000;

const char *const kSeed = R"({"operations":[
  {"op":"new-table", "type":"gpt"},
  {"op":"create", "size":"24MiB", "fs":"ext4", "label":"root", "align":"mib"},
  {"op":"create", "size":"16MiB", "fs":"vfat", "name":"EFI", "flags":["esp"], "kind":"primary"},
  {"op":"create", "size":"rest", "start":"48MiB", "fs":"swap"},
  {"op":"resize", "number":1, "size":"32MiB", "start":"2MiB"},
  {"op":"label", "number":1, "label":"data"},
  {"op":"flag", "number":2, "flag":"boot", "state":true},
  {"op":"check", "number":1, "repair":false},
  {"op":"delete", "number":3}, {"op":"format", "number":2, "fs":"ext4"}]})";

QJsonValue hostileValue(QRandomGenerator &rng)
{
    QJsonArray deep;
    for (int i = 0; i < 64; ++i)
        deep = QJsonArray{deep};
    const QList<QJsonValue> values{QJsonValue(QJsonValue::Null),
                                   true,
                                   -1,
                                   0,
                                   1e308,
                                   -1e308,
                                   9.3e18,
                                   4294967297.0,
                                   QStringLiteral("999999999999TiB"),
                                   QStringLiteral("99999999999999999999"),
                                   QStringLiteral("-5MiB"),
                                   QStringLiteral("rest"),
                                   QString(),
                                   QString(100000, QLatin1Char('x')),
                                   QStringLiteral("../../etc/shadow"),
                                   QStringLiteral("ext4\nfs"),
                                   QJsonArray{1, QStringLiteral("a")},
                                   deep,
                                   QJsonObject{{QStringLiteral("op"), QStringLiteral("create")}}};
    return values.at(int(rng.bounded(values.size())));
}

} // namespace

class TestPlanFileFuzz : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_image;
    QByteArray m_imageSha;

    // Runs apply on `plan`; returns a failure description, empty when the answer was sound.
    QString applyPlan(const QByteArray &plan)
    {
        const QString path = m_dir.filePath(QStringLiteral("plan.json"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(plan) != plan.size())
            return QStringLiteral("cannot write the plan");
        f.close();
        QElapsedTimer timer;
        timer.start();
        const CliResult r = runCli({QStringLiteral("apply"), QStringLiteral("--backup-dir"),
                                    m_dir.filePath(QStringLiteral("backups")), path, m_image},
                                   kSlowMs * 2);
        if (r.crashed)
            return QStringLiteral("crashed or hung: ") + r.describe();
        if (timer.elapsed() > kSlowMs)
            return QStringLiteral("took %1 ms").arg(timer.elapsed());
        if (r.exitCode != 1 && r.exitCode != 2)
            return QStringLiteral("exit %1 without --yes").arg(r.exitCode);
        if (r.exitCode == 2 && r.err.trimmed().isEmpty())
            return QStringLiteral("refused without a reason");
        if (fileSha256(m_image) != m_imageSha)
            return QStringLiteral("the image changed");
        return {};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
        m_image = m_dir.filePath(QStringLiteral("disk.img"));
        QFile f(m_image);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(64 << 20));
        f.close();
        m_imageSha = fileSha256(m_image);
    }

    void seedIsPreviewed()
    {
        const QString why = applyPlan(kSeed);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void fieldsReplacedAndRemoved()
    {
        QRandomGenerator rng(0x9A1Au);
        const QJsonArray seed =
            QJsonDocument::fromJson(kSeed).object().value(QStringLiteral("operations")).toArray();
        QStringList failures;
        for (int i = 0; i < kMutants; ++i) {
            QJsonArray ops = seed;
            for (int k = 0, n = 1 + int(rng.bounded(3)); k < n; ++k) {
                const int at = int(rng.bounded(ops.size()));
                QJsonObject op = ops.at(at).toObject();
                const QStringList keys =
                    op.keys() + QStringList{QStringLiteral("key_file"), QStringLiteral("start")};
                const QString key = keys.at(int(rng.bounded(keys.size())));
                if (rng.bounded(5) == 0)
                    op.remove(key);
                else
                    op.insert(key, hostileValue(rng));
                ops.replace(at, rng.bounded(10) == 0 ? hostileValue(rng) : QJsonValue(op));
            }
            const QByteArray plan =
                QJsonDocument(QJsonObject{{QStringLiteral("operations"), ops}}).toJson();
            if (const QString why = applyPlan(plan); !why.isEmpty())
                failures << QStringLiteral("mutant %1: %2").arg(i).arg(why);
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 5).join(QLatin1Char('\n'))));
    }

    void bytesCutAndFlipped()
    {
        QRandomGenerator rng(0xB17Eu);
        const QByteArray seed(kSeed);
        QStringList failures;
        for (int i = 0; i < kMutants / 2; ++i) {
            QByteArray plan = seed;
            if (i % 2 == 0)
                plan.truncate(int(rng.bounded(seed.size())));
            else
                for (int b = 0, n = 1 + int(rng.bounded(6)); b < n; ++b)
                    plan[int(rng.bounded(plan.size()))] = char(rng.bounded(256));
            if (const QString why = applyPlan(plan); !why.isEmpty())
                failures << QStringLiteral("mutant %1: %2").arg(i).arg(why);
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 5).join(QLatin1Char('\n'))));
    }

    // A plan longer than any disk needs is refused at once; one just within the limit is still
    // answered in bounded time.
    void thousandsOfOperations()
    {
        const QJsonObject label{{QStringLiteral("op"), QStringLiteral("label")},
                                {QStringLiteral("number"), 1},
                                {QStringLiteral("label"), QStringLiteral("x")}};
        for (const int count : {1000, 1001, 100000}) {
            QJsonArray ops{QJsonObject{{QStringLiteral("op"), QStringLiteral("new-table")},
                                       {QStringLiteral("type"), QStringLiteral("gpt")}},
                           QJsonObject{{QStringLiteral("op"), QStringLiteral("create")},
                                       {QStringLiteral("size"), QStringLiteral("rest")},
                                       {QStringLiteral("fs"), QStringLiteral("ext4")}}};
            while (ops.size() < count)
                ops.append(label);
            const QByteArray plan =
                QJsonDocument(QJsonObject{{QStringLiteral("operations"), ops}}).toJson();
            const QString why = applyPlan(plan);
            QVERIFY2(why.isEmpty(),
                     qPrintable(QStringLiteral("%1 operations: %2").arg(count).arg(why)));
        }
        QFile plan(m_dir.filePath(QStringLiteral("plan.json")));
        const CliResult r = runCli({QStringLiteral("apply"), plan.fileName(), m_image});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("at most 1000"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestPlanFileFuzz)
#include "tst_planfilefuzz.moc"
