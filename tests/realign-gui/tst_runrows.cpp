// The run page's progress rows as a person reads them, for a run whose journal the window cannot
// read (a helper keeps it) and whose extended partition shifts: the old-fdisk practice disk,
// partition 1 moved by shifting the partitions after it, so extended partition 2 is widened
// first and moved last. Its real plan drives the page; a scripted backend stands in for the
// helper and reports progress and the outcome without writing. Each partition that moves has
// one row, named; a failed run leaves no row "waiting" and no copy that stopped marked done.
#include "buildsetting.h"
#include "ops/practicedisk.h"
#include "realign/realignbackend.h"
#include "realign/realignpages.h"
#include "realign/realignwizard.h"
#include "realign/realignwizardstate.h"

#include "table/diskreader.h"

#include <QCheckBox>
#include <QLabel>
#include <QProgressBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <functional>

using namespace partwise;

namespace {

class ScriptedBackend : public RealignBackend
{
public:
    using Script = std::function<void(ScriptedBackend *, const PreparedRealign &)>;
    Script script;

    bool isBusy() const override { return false; }
    void prepare(const QString &target, const RealignOptions &options,
                 const RealignRequest &request) override
    {
        RealignRequest shifting = request;
        shifting.ways[1] = RealignWay::ShiftFollowing;
        const PreparedRealign plan = prepareRealignment(target, options, shifting);
        QTimer::singleShot(0, this, [this, plan] { emit prepared(plan, {}); });
    }
    void run(const QString &, const PreparedRealign &prepared, const RealignOptions &) override
    {
        QTimer::singleShot(0, this, [this, prepared] { script(this, prepared); });
    }
    void resume(const QString &, const QString &, qint64) override {}
    void cancel() override {}
    bool cancelRequested() const override { return false; }
    bool loadJournal(const QString &, WriteJournal *) const override { return false; }

    void report(int index, const PreparedRealign &p, quint64 done)
    {
        RealignProgress progress;
        progress.moveIndex = index;
        progress.moveCount = int(p.plan.moves.size());
        progress.partition = p.plan.moves.at(index).number;
        progress.bytesTotal = 1 << 20;
        progress.bytesDone = done;
        emit this->progress(progress);
    }
    void finish(const RealignResult &result, const PreparedRealign &p)
    {
        emit finished(result, p.layout, p.layout, true);
    }
};

struct ShownRow
{
    int index = 0; // the step of the plan
    QString name, detail;
    int bar = 0;
};

// The rows a person sees, top to bottom.
QList<ShownRow> shownRows(RealignRunPage *run)
{
    QList<ShownRow> rows;
    for (int i = 0; run->progressBar(i); ++i) {
        QProgressBar *bar = run->progressBar(i);
        if (!bar->isVisible())
            continue;
        auto *detail = run->findChild<QLabel *>(QStringLiteral("moveDetail%1").arg(i));
        rows << ShownRow{i, bar->accessibleName(), detail ? detail->text() : QString(),
                         bar->value()};
    }
    return rows;
}

QString describe(const QList<ShownRow> &rows)
{
    QStringList lines;
    for (const ShownRow &r : rows)
        lines << QStringLiteral("%1 | %2 | %3").arg(r.name).arg(r.bar).arg(r.detail);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class RunRowsTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void eachPartitionOneNamedRow();
    void failedRunLeavesNoRowWaiting();

private:
    // Runs the wizard to its run page with `script` as the helper's answer.
    void runWith(const ScriptedBackend::Script &script, QList<ShownRow> *rows, QString *status,
                 QList<PartitionMove> *moves);

    QTemporaryDir m_dir;
    QString m_image;
};

void RunRowsTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_image = m_dir.filePath(QStringLiteral("old-fdisk.img"));
    PracticeDiskSpec spec;
    spec.path = m_image;
    spec.sizeBytes = qint64(256) << 20;
    spec.preset = PracticePreset::OldFdiskLogical;
    QString error;
    QVERIFY2(createPracticeDisk(spec, &error), qPrintable(error));
}

void RunRowsTest::runWith(const ScriptedBackend::Script &script, QList<ShownRow> *rows,
                          QString *status, QList<PartitionMove> *moves)
{
    const DiskReadResult read = readDisk(m_image);
    QVERIFY2(read.ok, qPrintable(read.error));
    RealignSetup setup;
    setup.target = m_image;
    setup.layout = read.layout;
    setup.options.journalPath = m_dir.filePath(QStringLiteral("journal"));
    setup.options.backupRoot = m_dir.filePath(QStringLiteral("backups"));
    auto *backend = new ScriptedBackend;
    backend->script = script;
    RealignWizard wizard(setup, backend);
    backend->setParent(&wizard);
    wizard.resize(900, 700);
    wizard.show();
    QVERIFY(QTest::qWaitForWindowExposed(&wizard));
    wizard.next();
    wizard.next();
    RealignPlanPage *plan = wizard.planPage();
    QVERIFY(QTest::qWaitFor([&] { return plan->isReady(); }, 60000));
    QVERIFY2(plan->prepared().ok, qPrintable(plan->prepared().error));
    *moves = plan->prepared().plan.moves;
    plan->backupConfirmation()->setChecked(true);
    wizard.next();
    RealignRunPage *run = wizard.runPage();
    QVERIFY(QTest::qWaitFor([&] { return run->isFinished(); }, 10000));
    QTest::qWait(50);
    *rows = shownRows(run);
    const QStringList labels = [&] {
        QStringList texts;
        for (QLabel *label : run->findChildren<QLabel *>())
            if (label->isVisible())
                texts << label->text();
        return texts;
    }();
    *status = labels.join(QLatin1Char('\n'));
    wizard.grab().save((pwtest::buildSetting("PARTWISE_TEST_BUILD_DIR") +
                        QStringLiteral("/screenshots/realign-run-rows-")) +
                       QString::fromLatin1(QTest::currentTestFunction()) + QStringLiteral(".png"));
    wizard.reject();
}

void RunRowsTest::eachPartitionOneNamedRow()
{
    QList<ShownRow> rows;
    QString texts;
    QList<PartitionMove> moves;
    QString status;
    runWith(
        [](ScriptedBackend *b, const PreparedRealign &p) {
            for (int i = 0; i < p.plan.moves.size(); ++i)
                if (!p.plan.moves.at(i).tableOnly() && !p.plan.moves.at(i).recreateSwap)
                    b->report(i, p, 1 << 20);
            RealignResult ok;
            ok.ok = true;
            b->finish(ok, p);
        },
        &rows, &texts, &moves);
    // The plan shifts the extended partition: two steps of partition 2 (sfdisk: its type 5).
    int extendedSteps = 0;
    QSet<int> moved;
    for (const PartitionMove &m : moves) {
        extendedSteps += m.number == 2 ? 1 : 0;
        moved.insert(m.number);
    }
    QCOMPARE(extendedSteps, 2);
    QCOMPARE(moved, (QSet<int>{1, 2, 5, 6}));
    // One row each, named, done; the status counts partitions, not steps.
    QStringList names;
    for (const ShownRow &r : rows) {
        QVERIFY2(r.name.startsWith(QStringLiteral("Partition ")), qPrintable(describe(rows)));
        QCOMPARE(r.detail, QStringLiteral("done"));
        QCOMPARE(r.bar, 1000);
        names << r.name;
    }
    QCOMPARE(names.size(), moved.size());
    names.removeDuplicates();
    QVERIFY2(names.size() == moved.size(), qPrintable(describe(rows)));
    QVERIFY2(texts.contains(QStringLiteral("Finished.")), qPrintable(texts));
}

void RunRowsTest::failedRunLeavesNoRowWaiting()
{
    QList<ShownRow> rows;
    QString texts;
    QList<PartitionMove> moves;
    int stoppedIndex = -1, doneIndex = -1;
    runWith(
        [&](ScriptedBackend *b, const PreparedRealign &p) {
            // The first data move finishes, the second stops half-way.
            for (int i = 0; i < p.plan.moves.size() && stoppedIndex < 0; ++i) {
                const PartitionMove &m = p.plan.moves.at(i);
                if (m.tableOnly() || m.recreateSwap)
                    continue;
                if (doneIndex < 0) {
                    doneIndex = i;
                    b->report(i, p, 1 << 20);
                } else {
                    stoppedIndex = i;
                    b->report(i, p, 1 << 19);
                }
            }
            RealignResult failed;
            failed.error = QStringLiteral("Writing sector 4711 failed: Input/output error.");
            failed.resumable = true;
            b->finish(failed, p);
        },
        &rows, &texts, &moves);
    QVERIFY(doneIndex >= 0 && stoppedIndex > doneIndex);
    // Steps run in order: those before the stopped copy are done, the rest never started.
    bool sawStopped = false;
    for (const ShownRow &r : rows) {
        QVERIFY2(r.detail != QStringLiteral("waiting"), qPrintable(describe(rows)));
        if (r.index < stoppedIndex) {
            QVERIFY2(r.detail == QStringLiteral("done") && r.bar == 1000,
                     qPrintable(describe(rows)));
        } else if (r.index == stoppedIndex) {
            sawStopped = true;
            QVERIFY2(r.detail == QStringLiteral("stopped") && r.bar == 500,
                     qPrintable(describe(rows)));
        } else {
            QVERIFY2(r.detail != QStringLiteral("done") && r.bar == 0, qPrintable(describe(rows)));
        }
    }
    QVERIFY2(sawStopped, qPrintable(describe(rows)));
    QVERIFY2(texts.contains(QStringLiteral("Stopped at a safe point")), qPrintable(texts));
}

QTEST_MAIN(RunRowsTest)
#include "tst_runrows.moc"
