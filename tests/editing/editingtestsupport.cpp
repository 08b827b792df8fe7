#include "editingtestsupport.h"
#include "buildsetting.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

QString blankImage(const QTemporaryDir &dir, const QString &name, qint64 bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !f.resize(bytes))
        return QString();
    return path;
}

QString fingerprint(const DiskLayout &layout)
{
    QStringList lines{QStringLiteral("table=%1 first=%2 last=%3")
                          .arg(layout.tableType)
                          .arg(layout.firstUsableSector)
                          .arg(layout.lastUsableSector)};
    for (const PartitionInfo &r : layout.regions)
        lines << QStringLiteral("%1 #%2 %3-%4 ext=%5 name=%6 flags=%7 fs=%8 label=%9")
                     .arg(partitionKindName(r.kind))
                     .arg(r.number)
                     .arg(r.startSector)
                     .arg(r.endSector)
                     .arg(r.insideExtended)
                     .arg(r.name, r.flags.join(QLatin1Char(',')), r.filesystem, r.label);
    return lines.join(QLatin1Char('\n'));
}

QString describeFully(const Operation &op)
{
    return QStringLiteral("%1 n=%2 table=%3 kind=%4 start=%5 size=%6 align=%7 fs=%8 label=%9 "
                          "name=%10 flags=%11 flag=%12 state=%13 repair=%14")
        .arg(operationTypeName(op.type))
        .arg(op.number)
        .arg(op.tableType, partitionKindName(op.kind))
        .arg(op.startBytes)
        .arg(op.sizeBytes)
        .arg(alignToName(op.alignTo), op.filesystem, op.label, op.name,
             op.flags.join(QLatin1Char(',')), op.flag)
        .arg(op.flagState)
        .arg(op.repair);
}

QStringList describeAll(const QList<Operation> &ops)
{
    QStringList out;
    for (const Operation &op : ops)
        out << describeFully(op);
    return out;
}

int rowOf(const DiskLayout &layout, int number)
{
    for (int i = 0; i < layout.regions.size(); ++i)
        if (!layout.regions[i].isFree() && layout.regions[i].number == number)
            return i;
    return -1;
}

const PartitionInfo *largestFree(const DiskLayout &layout, bool insideExtended)
{
    const PartitionInfo *best = nullptr;
    for (const PartitionInfo &r : layout.regions)
        if (r.isFree() && r.insideExtended == insideExtended &&
            (!best || r.lengthSectors() > best->lengthSectors()))
            best = &r;
    return best;
}

QString screenshotPath(const QString &name)
{
    const QString dir =
        (pwtest::buildSetting("PARTWISE_TEST_BUILD_DIR") + QStringLiteral("/screenshots"));
    QDir().mkpath(dir);
    return QDir(dir).filePath(name + QStringLiteral(".png"));
}

Operation newTable(const QString &type)
{
    Operation op;
    op.type = Operation::Type::NewTable;
    op.tableType = type;
    return op;
}

ApplyResult applyWithDialog(const QString &target, const QList<Operation> &ops,
                            qint64 forcedSectorSize, QString *log, const QString &screenshot)
{
    ApplyOptions options;
    options.forcedSectorSize = forcedSectorSize;
    options.backupRoot = QFileInfo(target).absolutePath() + QStringLiteral("/backups");
    ApplyDialog dialog(target, ops, options);
    dialog.setQuestionHandler(
        [](const PartedMessage &m) { return PartedSession::readOnlyResolution(m); });
    QSignalSpy done(&dialog, &ApplyDialog::applyFinished);
    dialog.show();
    dialog.start();
    if (!done.wait(180000))
        qWarning("Apply did not finish");
    QTest::qWait(50); // let the layout follow the final texts
    if (!screenshot.isEmpty())
        dialog.grab().save(screenshotPath(screenshot));
    if (log)
        *log = dialog.logText();
    return dialog.result();
}
