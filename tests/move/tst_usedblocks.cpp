// The used-block map of ext2/3/4 (core/fs/usedblocks): checked against the filesystem's own
// tools (debugfs for where a file's blocks are), on an image whose filesystem starts at an
// offset, as a partition does.

#include "fs/usedblocks.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

using partwise::move::Extent;

namespace {

constexpr qint64 kMiB = 1024 * 1024;
constexpr qint64 kOffset = 63 * 512; // MBR sector 63: deliberately not block-aligned
constexpr qint64 kFsSize = 64 * kMiB;

bool run(const QString &program, const QStringList &arguments, QByteArray *output = nullptr)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit ||
        process.exitCode() != 0) {
        qWarning() << program << arguments << process.readAllStandardError();
        return false;
    }
    if (output)
        *output = process.readAllStandardOutput();
    return true;
}

bool covered(const std::vector<Extent> &extents, std::uint64_t offset, std::uint64_t length)
{
    for (const Extent &extent : extents) {
        if (offset >= extent.offset && offset + length <= extent.offset + extent.length)
            return true;
    }
    return false;
}

} // namespace

class TestUsedBlocks : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // An image with `blockSize` ext4 at kOffset holding one 3 MiB file; returns its path.
    QString makeImage(const QString &type, int blockSize)
    {
        const QString tree = m_dir.filePath(QStringLiteral("tree-%1").arg(blockSize));
        QDir().mkpath(tree);
        QFile file(tree + QStringLiteral("/data.bin"));
        if (!file.open(QIODevice::WriteOnly))
            return {};
        QByteArray block(4096, '\0');
        for (int i = 0; i < 3 * 256; ++i) {
            block.fill(static_cast<char>(i * 7 + 1));
            file.write(block);
        }
        file.close();
        const QString image = m_dir.filePath(QStringLiteral("%1-%2.img").arg(type).arg(blockSize));
        QFile::remove(image);
        QFile out(image);
        if (!out.open(QIODevice::WriteOnly) || !out.resize(kOffset + kFsSize + kMiB))
            return {};
        out.close();
        if (!run(QStringLiteral("mke2fs"),
                 {QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-t"), type,
                  QStringLiteral("-b"), QString::number(blockSize), QStringLiteral("-E"),
                  QStringLiteral("offset=%1").arg(kOffset), QStringLiteral("-d"), tree, image,
                  QStringLiteral("%1k").arg(kFsSize / 1024)}))
            return {};
        return image;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void extCoversEveryFileBlockAndLittleElse_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("blockSize");
        QTest::newRow("ext4 4k") << QStringLiteral("ext4") << 4096;
        QTest::newRow("ext2 1k") << QStringLiteral("ext2") << 1024;
        QTest::newRow("ext3 2k") << QStringLiteral("ext3") << 2048;
    }

    void extCoversEveryFileBlockAndLittleElse()
    {
        QFETCH(QString, type);
        QFETCH(int, blockSize);
        const QString image = makeImage(type, blockSize);
        QVERIFY(!image.isEmpty());

        QString error;
        const auto extents = usedExtents(image, kOffset, kFsSize + kMiB, type, &error);
        QVERIFY2(extents, qPrintable(error));
        QVERIFY(!extents->empty());
        std::uint64_t used = 0;
        std::uint64_t end = 0;
        for (const Extent &extent : *extents) {
            QVERIFY(extent.length > 0);
            QVERIFY(extent.offset >= end || end == 0); // sorted, disjoint
            end = extent.offset + extent.length;
            used += extent.length;
        }
        QVERIFY(end <= static_cast<std::uint64_t>(kFsSize));
        QVERIFY(covered(*extents, 0, 2048)); // boot block and primary superblock
        // More than the file, far less than the filesystem.
        QVERIFY2(used >= 3 * static_cast<std::uint64_t>(kMiB), qPrintable(QString::number(used)));
        QVERIFY2(used < static_cast<std::uint64_t>(kFsSize) / 2, qPrintable(QString::number(used)));

        // Every block of the file, as debugfs lists them, is inside an extent.
        QByteArray listing;
        QVERIFY(run(QStringLiteral("debugfs"),
                    {QStringLiteral("-R"), QStringLiteral("blocks /data.bin"),
                     image + QStringLiteral("?offset=%1").arg(kOffset)},
                    &listing));
        const QList<QByteArray> blocks = listing.simplified().split(' ');
        // (mke2fs -d leaves all-zero blocks as holes; ext2/3 list their indirect blocks too.)
        QVERIFY(blocks.size() > 3 * kMiB / blockSize - 16);
        for (const QByteArray &number : blocks) {
            const std::uint64_t offset = number.toULongLong() * blockSize;
            QVERIFY2(covered(*extents, offset, blockSize), number.constData());
        }
    }

    void otherFilesystemsAreUnknown()
    {
        QString error = QStringLiteral("stale");
        QVERIFY(!usedExtents(QStringLiteral("/dev/null"), 0, kMiB, QStringLiteral("swap"), &error));
        QVERIFY(error.isEmpty()); // simply no map: the caller copies everything
        QVERIFY(!usedExtentsSupported(QStringLiteral("swap")));
        QVERIFY(usedExtentsSupported(QStringLiteral("ext4")));
        QVERIFY(usedExtentsSupported(QStringLiteral("vfat"))); // partclone's map
    }

    void unreadableOrUncleanExtIsUnknown()
    {
        const QString garbage = m_dir.filePath(QStringLiteral("garbage.img"));
        QFile file(garbage);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4 * kMiB, 'x'));
        file.close();
        QString error;
        QVERIFY(!usedExtents(garbage, 0, 4 * kMiB, QStringLiteral("ext4"), &error));
        QVERIFY(!error.isEmpty());

        // A filesystem marked as not cleanly unmounted: its bitmap may be stale.
        const QString image = makeImage(QStringLiteral("ext4"), 4096);
        QVERIFY(!image.isEmpty());
        QVERIFY(run(QStringLiteral("debugfs"),
                    {QStringLiteral("-w"), QStringLiteral("-R"), QStringLiteral("ssv state 0"),
                     image + QStringLiteral("?offset=%1").arg(kOffset)}));
        error.clear();
        QVERIFY(!usedExtents(image, kOffset, kFsSize, QStringLiteral("ext4"), &error));
        QVERIFY2(error.contains(QStringLiteral("unmounted cleanly")), qPrintable(error));

        // A partition smaller than its filesystem.
        QVERIFY(!usedExtents(image, kOffset, kFsSize / 2, QStringLiteral("ext4"), &error));
    }
};

QTEST_GUILESS_MAIN(TestUsedBlocks)
#include "tst_usedblocks.moc"
