// Resizing and moving partitions through plans: the filesystem follows (resize2fs), the data
// survives (a file written with debugfs reads back the same), sfdisk and e2fsck agree.
#include "extimage.h"
#include "loopdevice.h"
#include "ops/applyrunner.h"
#include "ops/planfile.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using namespace pwtest;

namespace {

QList<Operation> plan(const QByteArray &json)
{
    QList<Operation> ops;
    QString error;
    if (!parsePlan(json, &ops, &error))
        qWarning() << error;
    return ops;
}

bool fsckClean(const QString &img, qint64 startSector)
{
    return runTool(QStringLiteral("e2fsck"), {QStringLiteral("-fn"), extAt(img, startSector)})
               .exitCode == 0;
}

} // namespace

class ResizeTest : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void growKeepsData();
    void shrinkKeepsData();
    void moveKeepsData();
    void xfsCannotShrink();

private:
    ApplyResult apply(const QByteArray &json);
    QTemporaryDir m_dir;
    QString m_img;
    QByteArray m_payload;
};

ApplyResult ResizeTest::apply(const QByteArray &json)
{
    ApplyOptions o;
    o.backupRoot = m_dir.filePath(QStringLiteral("backups"));
    return applyOperations(m_img, plan(json), o);
}

void ResizeTest::init()
{
    m_img = m_dir.filePath(QStringLiteral("disk-%1.img").arg(QTest::currentTestFunction()));
    QFile f(m_img);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(qint64(256) << 20));
    f.close();
    const ApplyResult r = apply(R"({"operations":[{"op":"new-table","type":"gpt"},
        {"op":"create","size":"100MiB","fs":"ext4","label":"data"}]})");
    QVERIFY2(r.ok, qPrintable(r.error));
    // A file of 3 MiB of varied bytes, written into the filesystem with debugfs.
    QFile payload(m_dir.filePath(QStringLiteral("payload")));
    QVERIFY(payload.open(QIODevice::WriteOnly));
    m_payload.clear();
    for (int i = 0; i < (3 << 20) / 4; ++i)
        m_payload.append(reinterpret_cast<const char *>(&i), 4);
    payload.write(m_payload);
    payload.close();
    QVERIFY(
        runTool(QStringLiteral("debugfs"),
                {QStringLiteral("-w"), QStringLiteral("-R"),
                 QStringLiteral("write %1 payload").arg(payload.fileName()), extAt(m_img, 2048)})
            .ok());
    QCOMPARE(extFile(m_img, 2048, QStringLiteral("payload")), m_payload);
}

void ResizeTest::growKeepsData()
{
    PW_REQUIRE_ROOT_OR_SKIP(); // resize2fs works on a loop device over the partition
    const ApplyResult r = apply(R"({"operations":[{"op":"resize","number":1,"size":"150MiB"}]})");
    QVERIFY2(r.ok, qPrintable(r.error));
    const SfdiskTable t = SfdiskTable::read(m_img);
    QCOMPARE(t.partitions.at(0).start, 2048);
    QCOMPARE(t.partitions.at(0).size * 512, qint64(150) << 20);
    QCOMPARE(QFileInfo(m_img).size(), qint64(256) << 20); // the image keeps its size
    QVERIFY(runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), m_img})
                .out.contains("No problems found"));
    QCOMPARE(extBytes(m_img, 2048), qint64(150) << 20);
    QVERIFY(fsckClean(m_img, 2048));
    QCOMPARE(extFile(m_img, 2048, QStringLiteral("payload")), m_payload);
}

void ResizeTest::shrinkKeepsData()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    const ApplyResult r = apply(R"({"operations":[{"op":"resize","number":1,"size":"60MiB"}]})");
    QVERIFY2(r.ok, qPrintable(r.error));
    const SfdiskTable t = SfdiskTable::read(m_img);
    QCOMPARE(t.partitions.at(0).size * 512, qint64(60) << 20);
    QVERIFY(extBytes(m_img, 2048) <= qint64(60) << 20);
    QCOMPARE(QFileInfo(m_img).size(), qint64(256) << 20);
    QVERIFY(runTool(QStringLiteral("sgdisk"), {QStringLiteral("-v"), m_img})
                .out.contains("No problems found"));
    QVERIFY(fsckClean(m_img, 2048));
    QCOMPARE(extFile(m_img, 2048, QStringLiteral("payload")), m_payload);
}

void ResizeTest::moveKeepsData()
{
    const ApplyResult r =
        apply(R"({"operations":[{"op":"resize","number":1,"start":"20MiB","size":"100MiB"}]})");
    QVERIFY2(r.ok, qPrintable(r.error));
    const SfdiskTable t = SfdiskTable::read(m_img);
    QCOMPARE(t.partitions.at(0).start, 40960); // 20 MiB in 512-byte sectors
    QCOMPARE(t.partitions.at(0).size * 512, qint64(100) << 20);
    QVERIFY(fsckClean(m_img, 40960));
    QCOMPARE(extFile(m_img, 40960, QStringLiteral("payload")), m_payload);
    QVERIFY(!QFile::exists(m_img + QStringLiteral(".partwise-move.realign"))); // journal gone
}

void ResizeTest::xfsCannotShrink()
{
    // XFS needs at least 300 MiB.
    QFile f(m_img);
    QVERIFY(f.resize(qint64(1) << 30));
    QVERIFY(apply(R"({"operations":[{"op":"new-table","type":"gpt"},
        {"op":"create","size":"400MiB","fs":"xfs"}]})")
                .ok);
    const SfdiskTable before = SfdiskTable::read(m_img);
    const ApplyResult r = apply(R"({"operations":[{"op":"resize","number":1,"size":"60MiB"}]})");
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("cannot be shrunk")), qPrintable(r.error));
    QCOMPARE(SfdiskTable::read(m_img).partitions.at(0).size, before.partitions.at(0).size);
}

QTEST_GUILESS_MAIN(ResizeTest)
#include "tst_resize.moc"
