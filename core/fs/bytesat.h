#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace partwise {

// A disk or image read and written at byte offsets, each write flushed and synced before the
// next: the FAT and NTFS sector-size conversions rely on the order of their writes to be safe
// to repeat after a kill.
class BytesAt
{
public:
    explicit BytesAt(const QString &path) : m_file(path) {}
    bool open(QString *error);
    // `length` bytes at `at`; empty when they cannot all be read.
    QByteArray read(qint64 at, qint64 length);
    bool write(qint64 at, const QByteArray &bytes, QString *error);

private:
    QFile m_file;
};

} // namespace partwise
