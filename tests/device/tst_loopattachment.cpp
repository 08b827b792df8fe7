// LoopAttachment: a loop device over part of an image, for the filesystem tools. What a user
// would check with losetup: it covers the right bytes, writes reach the image, read-only means
// read-only, and nothing stays attached afterwards, even when Partwise is killed.
#include "buildsetting.h"
#include "device/loopattachment.h"
#include "loopdevice.h"
#include "toolrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace partwise;

using namespace pwtest;

namespace {

constexpr qint64 kMiB = 1 << 20;
// How long after the helper is ready it may be killed: a few of its attach cycles.
constexpr int kKillWindowUs = 20000;

// /sys/block/loopN/<name>; "loop/offset" and the like for the loop driver's own values.
QString sysfsValue(const QString &device, const QString &name)
{
    QFile file(QStringLiteral("/sys/block/%1/%2").arg(QFileInfo(device).fileName(), name));
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    return QString::fromLocal8Bit(file.readAll()).trimmed();
}

// The loop devices `losetup` lists over `image`.
QString attachedOver(const QString &image)
{
    return QString::fromLocal8Bit(
               runTool(QStringLiteral("losetup"), {QStringLiteral("-j"), image}).out)
        .trimmed();
}

// What `losetup --json --list DEVICE` says about it: offset, sizelimit, autoclear, ro, back-file.
QJsonObject losetupEntry(const QString &device)
{
    const QByteArray json = runTool(QStringLiteral("losetup"),
                                    {QStringLiteral("--json"), QStringLiteral("--list"), device})
                                .out;
    return QJsonDocument::fromJson(json)
        .object()
        .value(QStringLiteral("loopdevices"))
        .toArray()
        .first()
        .toObject();
}

// The loop devices whose backing file the kernel reports as `image`, read from sysfs directly
// (losetup's own view could hide a device it cannot read).
QStringList backedBy(const QString &image)
{
    const QString canonical = QFileInfo(image).canonicalFilePath();
    QStringList devices;
    const QStringList names =
        QDir(QStringLiteral("/sys/block")).entryList({QStringLiteral("loop*")}, QDir::Dirs);
    for (const QString &name : names) {
        const QString device = QStringLiteral("/dev/") + name;
        if (sysfsValue(device, QStringLiteral("loop/backing_file")) == canonical)
            devices << device;
    }
    return devices;
}

bool waitUntilNoneBackedBy(const QString &image, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!backedBy(image).isEmpty()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QThread::msleep(20);
    }
    return true;
}

bool waitUntilDetached(const QString &image, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!attachedOver(image).isEmpty()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QThread::msleep(20);
    }
    return true;
}

QByteArray readImage(const QString &image, qint64 offset, qint64 length)
{
    QFile file(image);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(offset))
        return QByteArray();
    return file.read(length);
}

} // namespace

class LoopAttachmentTest : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void coversTheRangeAndWritesReachTheImage();
    void readOnlyRefusesWrites();
    void detachedWhenTheProcessIsKilled();
    void detachedWhenKilledAtRandomInstants();
    void fifoRefusedWithoutBlocking();
    void symbolicLinkFollowedOnce();
    void openDescriptorUsedAsGiven();

private:
    QTemporaryDir m_dir;
    QString m_image;
};

void LoopAttachmentTest::init()
{
    PW_REQUIRE_ROOT_OR_SKIP();
    QVERIFY(m_dir.isValid());
    m_image = m_dir.filePath(QStringLiteral("disk.img"));
    QFile file(m_image);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.write(QByteArray(8 * kMiB, '\x5a')) == 8 * kMiB);
}

// A failed test must not leave its loop device behind for the next one.
void LoopAttachmentTest::cleanup()
{
    if (m_image.isEmpty())
        return;
    const QStringList lines = attachedOver(m_image).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines)
        runTool(QStringLiteral("losetup"),
                {QStringLiteral("-d"), line.section(QLatin1Char(':'), 0, 0)});
}

void LoopAttachmentTest::coversTheRangeAndWritesReachTheImage()
{
    const QByteArray marker("partwise loop attachment test");
    QString device;
    {
        LoopAttachment loop(m_image, 2 * kMiB, 3 * kMiB, false);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        device = loop.device();
        QCOMPARE(sysfsValue(device, QStringLiteral("loop/offset")), QString::number(2 * kMiB));
        QCOMPARE(sysfsValue(device, QStringLiteral("loop/sizelimit")), QString::number(3 * kMiB));
        QCOMPARE(sysfsValue(device, QStringLiteral("loop/autoclear")), QStringLiteral("1"));
        QCOMPARE(sysfsValue(device, QStringLiteral("ro")), QStringLiteral("0"));
        const QJsonObject entry = losetupEntry(device);
        QCOMPARE(entry.value(QStringLiteral("offset")).toInteger(), 2 * kMiB);
        QCOMPARE(entry.value(QStringLiteral("sizelimit")).toInteger(), 3 * kMiB);
        QCOMPARE(entry.value(QStringLiteral("autoclear")).toBool(), true);
        QCOMPARE(entry.value(QStringLiteral("ro")).toBool(), false);
        QCOMPARE(entry.value(QStringLiteral("back-file")).toString(),
                 QFileInfo(m_image).canonicalFilePath());

        QFile node(device);
        QVERIFY(node.open(QIODevice::ReadWrite));
        QCOMPARE(sysfsValue(device, QStringLiteral("size")).toLongLong() * 512, 3 * kMiB);
        QVERIFY(node.seek(4096));
        QCOMPARE(node.write(marker), qint64(marker.size()));
        node.close();
        QCOMPARE(attachedOver(m_image).isEmpty(), false);
    }
    // Destroyed: detached, and the bytes written through it are in the image at 2 MiB + 4 KiB.
    QVERIFY2(attachedOver(m_image).isEmpty(), qPrintable(attachedOver(m_image)));
    QCOMPARE(readImage(m_image, 2 * kMiB + 4096, marker.size()), marker);
    QCOMPARE(readImage(m_image, 2 * kMiB, 16), QByteArray(16, '\x5a'));
}

void LoopAttachmentTest::readOnlyRefusesWrites()
{
    {
        LoopAttachment loop(m_image, 0, 4 * kMiB, true);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        QCOMPARE(sysfsValue(loop.device(), QStringLiteral("ro")), QStringLiteral("1"));
        const QJsonObject entry = losetupEntry(loop.device());
        QCOMPARE(entry.value(QStringLiteral("ro")).toBool(), true);
        QCOMPARE(entry.value(QStringLiteral("autoclear")).toBool(), true);
        QCOMPARE(entry.value(QStringLiteral("sizelimit")).toInteger(), 4 * kMiB);
        // The kernel may let the device be opened for writing; no write gets through.
        const int fd = ::open(QFile::encodeName(loop.device()).constData(), O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            const char zeros[512] = {};
            const ssize_t written = ::pwrite(fd, zeros, sizeof zeros, 0);
            const int code = written < 0 ? errno : 0;
            ::close(fd);
            QCOMPARE(written, ssize_t(-1));
            QVERIFY2(code == EPERM || code == EROFS || code == EACCES, strerror(code));
        } else {
            QVERIFY2(errno == EROFS || errno == EACCES, strerror(errno));
        }
    }
    QVERIFY(attachedOver(m_image).isEmpty());
    QCOMPARE(readImage(m_image, 0, 4096), QByteArray(4096, '\x5a'));
}

void LoopAttachmentTest::detachedWhenTheProcessIsKilled()
{
    QProcess holder;
    holder.start(pwtest::buildSetting("LOOP_HOLDER"),
                 {m_image, QString::number(kMiB), QString::number(4 * kMiB)});
    QVERIFY(holder.waitForStarted());
    QVERIFY2(holder.waitForReadyRead(30000), holder.readAllStandardError().constData());
    const QString device = QString::fromLocal8Bit(holder.readLine()).trimmed();
    QVERIFY2(device.startsWith(QLatin1String("/dev/loop")), qPrintable(device));
    QVERIFY2(attachedOver(m_image).contains(device), qPrintable(attachedOver(m_image)));

    holder.kill(); // SIGKILL: no destructor runs
    QVERIFY(holder.waitForFinished());
    QCOMPARE(holder.exitStatus(), QProcess::CrashExit);
    QVERIFY2(waitUntilDetached(m_image, 5000),
             qPrintable(QStringLiteral("still attached after the kill: ") + attachedOver(m_image)));
}

// Autoclear is set in the call that binds the device, so no instant of attaching leaves a
// device without it. A helper attaches and detaches over and over and is killed at random
// instants; afterwards nothing is attached over the image. (With autoclear set in a second
// step after binding, kills between the two leave devices behind.)
void LoopAttachmentTest::detachedWhenKilledAtRandomInstants()
{
    constexpr int kRounds = 40;
    for (int round = 0; round < kRounds; ++round) {
        QProcess holder;
        holder.start(pwtest::buildSetting("LOOP_HOLDER"),
                     {QStringLiteral("--repeat"), m_image, QString::number(kMiB),
                      QString::number(4 * kMiB)});
        QVERIFY(holder.waitForStarted());
        QVERIFY2(holder.waitForReadyRead(10000), holder.readAllStandardError().constData());
        QThread::usleep(QRandomGenerator::global()->bounded(kKillWindowUs));
        holder.kill(); // SIGKILL: no destructor runs
        QVERIFY(holder.waitForFinished());
        // Still attaching when killed, not stopped by an error of its own.
        QVERIFY2(holder.exitStatus() == QProcess::CrashExit,
                 holder.readAllStandardError().constData());
    }
    QVERIFY2(waitUntilNoneBackedBy(m_image, 3000),
             qPrintable(QStringLiteral("still attached after the kills: ") +
                        backedBy(m_image).join(QLatin1Char(' '))));
}

// A FIFO opened for reading would block until a writer came: it is refused on its type first.
void LoopAttachmentTest::fifoRefusedWithoutBlocking()
{
    const QString fifo = m_dir.filePath(QStringLiteral("pipe"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    // In a child, so that a regression that blocks fails here instead of hanging the suite.
    QElapsedTimer timer;
    timer.start();
    QProcess holder;
    holder.start(pwtest::buildSetting("LOOP_HOLDER"),
                 {fifo, QStringLiteral("0"), QString::number(kMiB)});
    const bool finished = holder.waitForFinished(5000);
    if (!finished)
        holder.kill();
    QVERIFY2(finished, "blocked on the FIFO");
    QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(holder.exitCode(), 1);
    const QString error = QString::fromLocal8Bit(holder.readAllStandardError());
    QVERIFY2(error.contains(QLatin1String("named pipe (FIFO)")), qPrintable(error));
    QVERIFY(backedBy(fifo).isEmpty());
}

// A user's image reached through a link (~/disk.img linked to another disk) is the image the
// link names: resolved once, then held by its descriptor. The root helper never passes a link
// here: its target guard refuses them for a user before anything opens.
void LoopAttachmentTest::symbolicLinkFollowedOnce()
{
    const QString link = m_dir.filePath(QStringLiteral("link.img"));
    QVERIFY(QFile::link(m_image, link));
    LoopAttachment loop(link, 0, kMiB, true);
    QVERIFY2(loop.ok(), qPrintable(loop.error()));
    QCOMPARE(backedBy(m_image), QStringList{loop.device()});
}

// A descriptor opened once is used as it is: read-only stays read-only, and is refused where a
// writable device was asked for rather than quietly giving a read-only one.
void LoopAttachmentTest::openDescriptorUsedAsGiven()
{
    const int fd = ::open(QFile::encodeName(m_image).constData(), O_RDONLY | O_CLOEXEC);
    QVERIFY(fd >= 0);
    {
        LoopAttachment writable(fd, 0, kMiB, false);
        QVERIFY(!writable.ok());
        QVERIFY2(writable.error().contains(QLatin1String("read-only")),
                 qPrintable(writable.error()));
        LoopAttachment loop(fd, kMiB, kMiB, true);
        QVERIFY2(loop.ok(), qPrintable(loop.error()));
        QCOMPARE(backedBy(m_image), QStringList{loop.device()});
        QCOMPARE(sysfsValue(loop.device(), QStringLiteral("loop/offset")), QString::number(kMiB));
        QCOMPARE(sysfsValue(loop.device(), QStringLiteral("ro")), QStringLiteral("1"));
    }
    ::close(fd);
    QVERIFY(backedBy(m_image).isEmpty());
}

QTEST_GUILESS_MAIN(LoopAttachmentTest)
#include "tst_loopattachment.moc"
