#include "fs/bytesat.h"

#include <unistd.h>

namespace partwise {

bool BytesAt::open(QString *error)
{
    if (m_file.open(QIODevice::ReadWrite | QIODevice::Unbuffered))
        return true;
    *error = QStringLiteral("Cannot open %1: %2").arg(m_file.fileName(), m_file.errorString());
    return false;
}

QByteArray BytesAt::read(qint64 at, qint64 length)
{
    if (!m_file.seek(at))
        return QByteArray();
    QByteArray bytes = m_file.read(length);
    return bytes.size() == length ? bytes : QByteArray();
}

bool BytesAt::write(qint64 at, const QByteArray &bytes, QString *error)
{
    if (m_file.seek(at) && m_file.write(bytes) == bytes.size() && m_file.flush() &&
        ::fsync(m_file.handle()) == 0)
        return true;
    *error = QStringLiteral("Cannot write %1 bytes at byte %2 of %3: %4")
                 .arg(bytes.size())
                 .arg(at)
                 .arg(m_file.fileName(), m_file.errorString());
    return false;
}

} // namespace partwise
