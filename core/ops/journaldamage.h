#pragma once

// What to tell a person whose write journal is damaged. Resume refuses such a journal, since a
// wrong number in it could send data to the wrong place; what the person then needs is what
// can still be read from it, trusted by nobody: where the table backup is, and how far each
// partition got. The file is scanned field by field, so one damaged field hides only itself.

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace partwise {

// `problem` says why the journal at `path` (holding `raw`) was refused; `moveKeys` are the
// fields of one partition's record, which tell where one partition ends and the next begins.
QString describeDamagedJournal(const QString &path, const QByteArray &raw, const QString &problem,
                               const QStringList &moveKeys);

} // namespace partwise
