#include "realignguisupport.h"
#include "buildsetting.h"

#include "partitionmodel.h"
#include "realign/realignpages.h"
#include "realign/realignwizard.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QRandomGenerator>
#include <QSettings>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QtTest>

using namespace partwise;

using pwtest::runTool;
using pwtest::SfdiskTable;

qint64 nextBoundary(qint64 start, qint64 unit)
{
    return (start + unit - 1) / unit * unit;
}

void useFreshSettings(const QString &application)
{
    QCoreApplication::setOrganizationName(QStringLiteral("PartwiseTests"));
    QCoreApplication::setApplicationName(application);
    QSettings().clear();
}

QString missingTool(const QStringList &tools)
{
    for (const QString &tool : tools)
        if (QStandardPaths::findExecutable(tool).isEmpty())
            return QStringLiteral("%1 is not installed").arg(tool);
    return QString();
}

QString screenshot(QWidget *widget, const QString &name)
{
    const QDir dir(
        (pwtest::buildSetting("PARTWISE_TEST_BUILD_DIR") + QStringLiteral("/screenshots")));
    dir.mkpath(QStringLiteral("."));
    const QString path = dir.filePath(name + QStringLiteral(".png"));
    QTest::qWait(80); // let labels whose text just changed lay out
    widget->grab().save(path);
    return path;
}

bool buildDisk(const QString &folder, const QString &name, const DiskShape &shape, TestDisk *disk,
               QString *error)
{
    disk->image = QDir(folder).filePath(name + QStringLiteral(".img"));
    disk->sourceDir = QDir(folder).filePath(name + QStringLiteral("-tree"));
    QDir().mkpath(disk->sourceDir + QStringLiteral("/docs"));
    auto write = [&](const QString &relative, const QByteArray &bytes) {
        QFile f(QDir(disk->sourceDir).filePath(relative));
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return false;
        disk->digests.insert(relative, QCryptographicHash::hash(bytes, QCryptographicHash::Sha256));
        return true;
    };
    QByteArray big(shape.bigFileBytes, Qt::Uninitialized);
    QRandomGenerator rng(42);
    rng.fillRange(reinterpret_cast<quint32 *>(big.data()), big.size() / 4);
    if (!write(QStringLiteral("big.bin"), big))
        return false;
    for (int i = 0; i < 40; ++i)
        if (!write(QStringLiteral("docs/note%1.txt").arg(i),
                   QByteArray("note ") + QByteArray::number(i).repeated(50 + i)))
            return false;

    const qint64 p1Sectors = shape.p1Sectors;
    const qint64 p2Start = shape.p2Start;
    QFile f(disk->image);
    if (!f.open(QIODevice::WriteOnly) || !f.resize(shape.imageBytes)) {
        *error = f.errorString();
        return false;
    }
    f.close();
    const QString rest = shape.rest.isEmpty()
                             ? QStringLiteral("start=%1, size=16384, type=83\n").arg(p2Start)
                             : shape.rest;
    const QByteArray script =
        (QStringLiteral("label: dos\nstart=63, size=%1, type=83\n").arg(p1Sectors) + rest).toUtf8();
    pwtest::ToolResult r = runTool(QStringLiteral("sfdisk"), {disk->image}, script);
    if (!r.ok()) {
        *error = r.describe();
        return false;
    }
    r = runTool(QStringLiteral("mkfs.ext4"),
                {QStringLiteral("-F"), QStringLiteral("-q"), QStringLiteral("-L"),
                 QStringLiteral("pwlegacy"), QStringLiteral("-d"), disk->sourceDir,
                 QStringLiteral("-E"), QStringLiteral("offset=%1").arg(63 * kSector), disk->image,
                 QStringLiteral("%1k").arg(p1Sectors * kSector / 1024)});
    if (!r.ok()) {
        *error = r.describe();
        return false;
    }
    const SfdiskTable table = SfdiskTable::read(disk->image);
    if (!table.ok || !table.find(1) || !table.find(2)) {
        *error = table.error;
        return false;
    }
    disk->p1Start = table.find(1)->start;
    disk->p1Size = table.find(1)->size;
    disk->p2Start = table.find(2)->start;
    return true;
}

bool formatExt4(const QString &image, qint64 startSector, qint64 sectors, const QString &label,
                QString *error)
{
    const pwtest::ToolResult r =
        runTool(QStringLiteral("mkfs.ext4"),
                {QStringLiteral("-F"), QStringLiteral("-q"), QStringLiteral("-L"), label,
                 QStringLiteral("-E"), QStringLiteral("offset=%1").arg(startSector * kSector),
                 image, QStringLiteral("%1k").arg(sectors * kSector / 1024)});
    if (!r.ok())
        *error = r.describe();
    return r.ok();
}

bool placeFilesystem(const QString &image, qint64 startSector, qint64 sectors, const QString &mkfs,
                     const QStringList &args, QString *error)
{
    const QString scratch = image + QStringLiteral(".fs");
    QFile fs(scratch);
    if (!fs.open(QIODevice::ReadWrite | QIODevice::Truncate) || !fs.resize(sectors * kSector)) {
        *error = fs.errorString();
        return false;
    }
    fs.close();
    const pwtest::ToolResult r = runTool(mkfs, args + QStringList{scratch});
    if (!r.ok()) {
        *error = r.describe();
        return false;
    }
    QFile disk(image);
    if (!fs.open(QIODevice::ReadOnly) || !disk.open(QIODevice::ReadWrite) ||
        !disk.seek(startSector * kSector) || disk.write(fs.readAll()) != sectors * kSector) {
        *error = fs.errorString() + QLatin1Char(' ') + disk.errorString();
        return false;
    }
    fs.remove();
    return true;
}

QString fsAt(const QString &image, qint64 startSector)
{
    return QStringLiteral("%1?offset=%2").arg(image).arg(startSector * kSector);
}

pwtest::ToolResult checkExt4(const QString &image, qint64 startSector)
{
    return runTool(QStringLiteral("e2fsck"), {QStringLiteral("-fn"), fsAt(image, startSector)});
}

QStringList changedFiles(const TestDisk &disk, qint64 startSector)
{
    QStringList changed;
    for (auto it = disk.digests.cbegin(); it != disk.digests.cend(); ++it) {
        const pwtest::ToolResult r =
            runTool(QStringLiteral("debugfs"),
                    {QStringLiteral("-R"), QStringLiteral("cat /%1").arg(it.key()),
                     fsAt(disk.image, startSector)});
        if (!r.ok() || QCryptographicHash::hash(r.out, QCryptographicHash::Sha256) != it.value())
            changed << it.key();
    }
    return changed;
}

int rowOfPartition(const PartitionModel &model, int number)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (!model.region(row).isFree() && model.region(row).number == number)
            return row;
    return -1;
}

QMap<int, qint64> plannedStarts(const QTreeWidget *table)
{
    QMap<int, qint64> starts;
    for (int i = 0; i < table->topLevelItemCount(); ++i)
        starts.insert(table->topLevelItem(i)->data(0, Qt::UserRole).toInt(),
                      table->topLevelItem(i)->text(3).toLongLong());
    return starts;
}

bool waitForPlan(RealignPlanPage *plan)
{
    return QTest::qWaitFor([&] { return plan->isReady(); }, 60000);
}

RealignPlanPage *nextToPlan(RealignWizard *wizard)
{
    wizard->next();
    RealignPlanPage *plan = wizard->planPage();
    return waitForPlan(plan) ? plan : nullptr;
}

bool waitForRun(RealignRunPage *run)
{
    return QTest::qWaitFor([&] { return run->isFinished(); }, 300000);
}

RealignRunPage *runPlan(RealignWizard *wizard)
{
    wizard->next();
    RealignRunPage *run = wizard->runPage();
    return waitForRun(run) ? run : nullptr;
}

Window::Window(const QString &backupRoot)
{
    realign = installRealign(&window, window.editing());
    RealignOptions options;
    options.backupRoot = backupRoot;
    realign->setDefaultOptions(options);
    window.show();
}

bool Window::open(const QString &image)
{
    window.openImage(image);
    return QTest::qWaitFor(
        [&] { return window.currentPath() == image && window.currentLayout().has_value(); }, 60000);
}

RealignWizard *Window::openWizard()
{
    realign->realignAction()->trigger();
    return realign->wizard();
}

bool Window::wizardClosed()
{
    return QTest::qWaitFor([&] { return realign->wizard() == nullptr; }, 5000);
}

void Window::openPlanOfPartition1(const QString &image, RealignWizard **wizard,
                                  RealignPlanPage **plan)
{
    QVERIFY(open(image));
    *wizard = openWizard();
    QVERIFY(*wizard);
    (*wizard)->next();
    QCOMPARE((*wizard)->choosePage()->checkedPartitions(), QList<int>{1});
    *plan = nextToPlan(*wizard);
    QVERIFY(*plan);
    QVERIFY2((*plan)->prepared().ok, qPrintable((*plan)->prepared().error));
}

QString Window::planJournalWarning(const QString &screenshotName)
{
    RealignWizard *wizard = openWizard();
    if (!wizard)
        return QStringLiteral("(no wizard)");
    wizard->next();
    RealignPlanPage *plan = nextToPlan(wizard);
    if (!plan)
        return QStringLiteral("(no plan)");
    auto *label = plan->findChild<QLabel *>(QStringLiteral("planJournalWarning"));
    const QString said = label->isVisible() ? label->text() : QString();
    if (!said.isEmpty() && !screenshotName.isEmpty())
        screenshot(wizard, screenshotName);
    wizard->reject();
    return said;
}
