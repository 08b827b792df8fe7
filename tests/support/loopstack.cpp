#include "loopstack.h"

#include <QDir>
#include <QFile>

namespace pwtest {

LoopStack::LoopStack(const QString &image, int depth) : m_path(image)
{
    for (int i = 0; i < depth; ++i) {
        m_loops.push_back(std::make_unique<LoopDevice>(m_path));
        if (!m_loops.back()->ok()) {
            m_error = m_loops.back()->error();
            return;
        }
        m_path = m_loops.back()->path();
    }
}

LoopStack::~LoopStack()
{
    while (!m_loops.empty())
        m_loops.pop_back();
}

ToolResult writeExtFileUnclaimed(const QString &device, qint64 offset, const QString &name,
                                 const QByteArray &data, const QString &scratch)
{
    const QString local = QDir(scratch).filePath(name);
    QFile file(local);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size()) {
        ToolResult failed;
        failed.command = QStringLiteral("writing %1").arg(local);
        return failed;
    }
    file.close();
    return runTool(QStringLiteral("debugfs"), {QStringLiteral("-w"), QStringLiteral("-R"),
                                               QStringLiteral("write %1 %2").arg(local, name),
                                               device + QStringLiteral("?offset=%1").arg(offset)});
}

} // namespace pwtest
