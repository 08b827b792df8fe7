#include "device/loopattachment.h"

#include "fs/toolrunner.h"

#include <unistd.h>

LoopAttachment::LoopAttachment(const QString &image, qint64 offset, qint64 size, bool readOnly)
{
    if (::geteuid() != 0) {
        m_error = QStringLiteral("This needs a loop device over the image, and only root can "
                                 "create one: run Partwise as root for this operation.");
        return;
    }
    QStringList args{QStringLiteral("--find"),      QStringLiteral("--show"),
                     QStringLiteral("--offset"),    QString::number(offset),
                     QStringLiteral("--sizelimit"), QString::number(size)};
    if (readOnly)
        args << QStringLiteral("--read-only");
    const ToolResult r = runTool(QStringLiteral("losetup"), args << image, QStringLiteral("mount"));
    if (r.ok)
        m_device = r.output.trimmed();
    else
        m_error = r.error;
}

LoopAttachment::~LoopAttachment()
{
    if (!m_device.isEmpty())
        runTool(QStringLiteral("losetup"), {QStringLiteral("--detach"), m_device});
}
