#pragma once

// What the paste suites share (tests/copy/tst_copypaste.cpp, tst_pasteentry.cpp): a source image
// with an ext4 and a FAT partition, plan files run by `partwise-cli apply`, and the checks that
// a pasted partition lies on the grain and holds the source's files.

#include "clirun.h"
#include "partitioncontents.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

namespace pastetest {

using namespace pwtest;

inline constexpr qint64 kMiB = 1 << 20;
inline constexpr qint64 kExtStart = 2048, kExtSectors = 24 * 2048; // partition 1: ext4, 24 MiB
inline constexpr qint64 kFatStart = kExtStart + kExtSectors, kFatSectors = 16 * 2048; // 2: FAT

inline QByteArray sha256Of(const QString &path)
{
    QFile f(path);
    QCryptographicHash h(QCryptographicHash::Sha256);
    return f.open(QIODevice::ReadOnly) && h.addData(&f) ? h.result().toHex() : QByteArray();
}

inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

inline QByteArray randomBytes(qint64 n)
{
    QByteArray bytes(n, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), n / 4);
    return bytes;
}

class PasteFixture
{
protected:
    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // A GPT image of `mib` MiB with an ext4 partition (files from mkfs.ext4 -d, `extData` bytes
    // of random data among them) and a FAT one (files by mcopy), the rest free.
    QString makeSource(const QString &name, qint64 mib, qint64 extData)
    {
        const QString image = path(name);
        QString error;
        const QByteArray script =
            QStringLiteral("label: gpt\nstart=%1, size=%2, type=L\nstart=%3, size=%4, "
                           "type=EBD0A0A2-B9E5-4433-87C0-68B6B7264699\n")
                .arg(kExtStart)
                .arg(kExtSectors)
                .arg(kFatStart)
                .arg(kFatSectors)
                .toUtf8();
        if (!SfdiskTable::writeImage(image, mib * kMiB, script, &error)) {
            qWarning("%s", qPrintable(error));
            return {};
        }
        QTemporaryDir tree;
        QDir(tree.path()).mkpath(QStringLiteral("docs/deep"));
        writeFile(tree.filePath(QStringLiteral("hello.txt")), "pasted with Partwise\n");
        writeFile(tree.filePath(QStringLiteral("docs/deep/notes.txt")), QByteArray(5000, 'n'));
        writeFile(tree.filePath(QStringLiteral("docs/data.bin")), randomBytes(extData));
        const ToolResult ext =
            runTool(QStringLiteral("mkfs.ext4"),
                    {QStringLiteral("-q"), QStringLiteral("-L"), QStringLiteral("pasteme"),
                     QStringLiteral("-d"), tree.path(), QStringLiteral("-E"),
                     QStringLiteral("offset=%1").arg(kExtStart * 512), image,
                     QStringLiteral("%1k").arg(kExtSectors / 2)});
        const QString fat = image + QStringLiteral("@@%1").arg(kFatStart * 512);
        const ToolResult vfat =
            runTool(QStringLiteral("mkfs.vfat"),
                    {QStringLiteral("--offset"), QString::number(kFatStart), QStringLiteral("-n"),
                     QStringLiteral("FATSRC"), image, QString::number(kFatSectors / 2)});
        writeFile(tree.filePath(QStringLiteral("fat.bin")), randomBytes(300 * 1024));
        const ToolResult copied =
            runTool(QStringLiteral("mcopy"),
                    {QStringLiteral("-i"), fat, tree.filePath(QStringLiteral("fat.bin")),
                     tree.filePath(QStringLiteral("hello.txt")), QStringLiteral("::")});
        if (!ext.ok() || !vfat.ok() || !copied.ok()) {
            qWarning("%s %s %s", qPrintable(ext.describe()), qPrintable(vfat.describe()),
                     qPrintable(copied.describe()));
            return {};
        }
        return image;
    }

    QString writePlan(const QString &name, const QByteArray &json)
    {
        const QString plan = path(name);
        writeFile(plan, json);
        return plan;
    }

    CliResult apply(const QString &plan, const QString &target)
    {
        return runCli({QStringLiteral("apply"), QStringLiteral("--yes"),
                       QStringLiteral("--backup-dir"), path(QStringLiteral("backups")), plan,
                       target},
                      300000);
    }

    static QMap<int, PartitionContents> contents(const QString &disk)
    {
        QStringList problems;
        const auto c = partitionContents(disk, 512, SfdiskTable::read(disk), &problems);
        if (!problems.isEmpty())
            qWarning("%s", qPrintable(problems.join(QLatin1Char('\n'))));
        return problems.isEmpty() ? c : QMap<int, PartitionContents>{};
    }

    // Partition `copy` of `after` holds what partition `original` of `before` holds: the same
    // filesystem type and every file with the same SHA-256 (its check already ran clean).
    static void verifySame(const QMap<int, PartitionContents> &before, int original,
                           const QMap<int, PartitionContents> &after, int copy)
    {
        QVERIFY2(before.contains(original), "the source partition was not read");
        QVERIFY2(after.contains(copy), qPrintable(QStringLiteral("no partition %1").arg(copy)));
        QCOMPARE(after[copy].fs, before[original].fs);
        QVERIFY(!before[original].files.isEmpty());
        QCOMPARE(after[copy].files, before[original].files);
    }

    // The new partition as sfdisk reads it: on the 1 MiB grain, at least `minBytes` long.
    static void verifyOnGrain(const SfdiskTable &table, int number, qint64 minBytes)
    {
        const SfdiskPartition *p = table.find(number);
        QVERIFY2(p, qPrintable(QStringLiteral("sfdisk finds no partition %1").arg(number)));
        QCOMPARE(p->start * 512 % kMiB, 0);
        QVERIFY2(
            p->size * 512 >= minBytes,
            qPrintable(QStringLiteral("partition %1 has %2 sectors").arg(number).arg(p->size)));
    }
};

} // namespace pastetest
