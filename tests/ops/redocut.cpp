#include "redocut.h"

#include "move/redorecord.h"

#include <QFile>
#include <QRandomGenerator>

#include <sys/wait.h>
#include <unistd.h>

namespace pwtest {

namespace {

quint64 le64(const QByteArray &bytes, int at)
{
    quint64 v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | quint8(bytes[at + i]);
    return v;
}

} // namespace

int runUntilCommit(const char *marker, int record, const QString &cutNote, const CutJob &job)
{
    const pid_t child = ::fork();
    if (child == 0) {
        int seen = 0;
        const QLatin1String wanted(marker);
        const auto log = [&](const QString &line) {
            const qsizetype at = line.indexOf(wanted);
            if (at < 0 || ++seen != record)
                return;
            QFile note(cutNote);
            if (note.open(QIODevice::WriteOnly))
                note.write(line.mid(at + wanted.size()).toUtf8());
            note.close();
            ::_exit(kStoppedAtCommit);
        };
        ::_exit(job(log) ? 0 : 2);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool reachImage(const QString &image, const QString &cutNote, Reach reach, quint32 seed,
                qint64 *blocks, QString *error)
{
    QFile note(cutNote);
    if (!note.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("no cut note %1").arg(cutNote);
        return false;
    }
    const QString redo = QString::fromUtf8(note.readAll());
    // The record's place from its header (redorecord.h): offset at byte 16, length 24, tag 40.
    QFile record(redo);
    if (!record.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("no record %1").arg(redo);
        return false;
    }
    const QByteArray header = record.read(64);
    const partwise::move::RedoRegion region{qint64(le64(header, 16)), qint64(le64(header, 24)),
                                            le64(header, 40)};
    *blocks = partwise::move::checkRedoRecord(redo, region).blocks;
    if (*blocks <= 0) {
        *error = QStringLiteral("%1 is not a committed record").arg(redo);
        return false;
    }
    QRandomGenerator random(seed);
    const qint64 torn = reach == Reach::RandomTorn ? qint64(random.bounded(quint32(*blocks))) : -1;
    QFile disk(image);
    if (!disk.open(QIODevice::ReadWrite)) {
        *error = disk.errorString();
        return false;
    }
    qint64 index = 0;
    return partwise::move::applyRedoRecord(
        redo, region,
        [&](qint64 at, const char *data, qint64 length) {
            const qint64 i = index++;
            if (reach == Reach::FirstGarbled)
                return i > 0 || (disk.seek(at) && disk.write(QByteArray(length, '\0')) == length);
            const bool whole = reach == Reach::FirstHalf ? i < *blocks / 2
                               : reach == Reach::AllButLast
                                   ? i < *blocks - 1
                                   : reach == Reach::RandomTorn && random.bounded(2) == 1;
            if (!whole && i != torn)
                return true;
            const qint64 n =
                i == torn ? std::min<qint64>(length, 512 * (1 + random.bounded(7))) : length;
            return disk.seek(at) && disk.write(data, n) == n;
        },
        error);
}

const char *reachName(Reach reach)
{
    switch (reach) {
    case Reach::None:
        return "none reached";
    case Reach::FirstHalf:
        return "the first half reached";
    case Reach::AllButLast:
        return "all but the last block reached";
    case Reach::RandomTorn:
        return "a random part reached, one torn";
    case Reach::FirstGarbled:
        return "only the first block reached, garbled";
    }
    return "";
}

} // namespace pwtest
