#include "lyingdrivefixture.h"

#include "toolrun.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>

namespace pwtest {

namespace {

bool isFuseMount(const QString &mountPoint)
{
    QFile f(QStringLiteral("/proc/self/mountinfo"));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QString canonical = QFileInfo(mountPoint).canonicalFilePath();
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() > 4 && QString::fromLocal8Bit(fields[4]) == canonical &&
            line.contains(" - fuse"))
            return true;
    }
    return false;
}

} // namespace

LyingDrive::LyingDrive(const QString &program, const QString &backingImage,
                       const QString &mountPoint, const LyingDriveSpec &spec)
    : m_mountPoint(mountPoint), m_file(mountPoint + QStringLiteral("/disk"))
{
    QDir().mkpath(mountPoint);
    m_daemon.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QStringList arguments{QStringLiteral("--backing=") + backingImage,
                          QStringLiteral("--physical=%1").arg(spec.physical),
                          QStringLiteral("--offset=%1").arg(spec.offset),
                          QStringLiteral("--penalty-ms=%1").arg(spec.penaltyMs)};
    if (!spec.hold.isEmpty())
        arguments << QStringLiteral("--hold=") + spec.hold;
    m_daemon.start(program,
                   arguments + QStringList{mountPoint, QStringLiteral("-f"), QStringLiteral("-s")});
    if (!m_daemon.waitForStarted()) {
        m_error = QStringLiteral("cannot start %1: %2").arg(program, m_daemon.errorString());
        return;
    }
    const QDeadlineTimer deadline(10000);
    while (!isFuseMount(mountPoint) && !deadline.hasExpired() &&
           m_daemon.state() == QProcess::Running)
        QThread::msleep(20);
    if (!isFuseMount(mountPoint)) {
        m_error = QStringLiteral("lying-drive did not mount %1").arg(mountPoint);
        return;
    }
    const ToolResult r =
        runTool(QStringLiteral("losetup"), {QStringLiteral("-f"), QStringLiteral("--show"),
                                            QStringLiteral("--direct-io=on"), m_file});
    if (!r.ok()) {
        m_error = r.describe();
        return;
    }
    m_loop = QString::fromUtf8(r.out).trimmed();
}

LyingDrive::~LyingDrive()
{
    if (!m_loop.isEmpty())
        runTool(QStringLiteral("losetup"), {QStringLiteral("-d"), m_loop});
    if (m_daemon.state() != QProcess::NotRunning) {
        // The loop device lets go of the file a moment after `losetup -d`: try a few times.
        for (int attempt = 0; attempt < 50 && isFuseMount(m_mountPoint); ++attempt) {
            if (runTool(QStringLiteral("fusermount3"), {QStringLiteral("-u"), m_mountPoint}).ok())
                break;
            QThread::msleep(100);
        }
        if (!m_daemon.waitForFinished(10000)) {
            m_daemon.kill();
            m_daemon.waitForFinished(5000);
        }
    }
}

bool LyingDrive::directIo() const
{
    QFile f(QStringLiteral("/sys/block/%1/loop/dio").arg(QFileInfo(m_loop).fileName()));
    return f.open(QIODevice::ReadOnly) && f.readAll().trimmed() == "1";
}

} // namespace pwtest
