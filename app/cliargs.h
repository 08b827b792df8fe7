#pragma once

// What every partwise-cli command shares: its output streams, the usage text and its error, the
// options spelled the same everywhere, their readers, and the terminal's yes/no question.

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QStringList>
#include <QTextStream>

namespace partwise::clitool {

QTextStream &stdOut();
QTextStream &stdErr();

// The commands, one a line, for `partwise-cli` alone or with --help.
const char *usageText();

// Prints `message` and the usage text; returns the exit status of bad input.
int usageError(const QString &message);

// The options several commands share, spelled the same everywhere.
struct SharedOptions
{
    QCommandLineOption grain{QStringLiteral("grain"),
                             QStringLiteral("Alignment grain: 4k, 1m (mib), or bytes with K/M."),
                             QStringLiteral("SIZE"), QStringLiteral("1m")};
    QCommandLineOption sectorSize{QStringLiteral("sector-size"),
                                  QStringLiteral("Logical sector size of an image (512 or 4096; "
                                                 "default: detected)."),
                                  QStringLiteral("N")};
    QCommandLineOption backupDir{QStringLiteral("backup-dir"),
                                 QStringLiteral("Where partition-table backups go."),
                                 QStringLiteral("DIR")};
    QCommandLineOption yes{QStringLiteral("yes"), QStringLiteral("Do not ask for confirmation.")};
    QCommandLineOption unmount{
        QStringLiteral("unmount"),
        QStringLiteral("Unmount (or swap off) what the job touches first, and mount it back "
                       "afterwards; refuse, naming the process, when something stays busy.")};
};

// Parses `args`; returns -1 to go on, or the exit status to end with (help shown, bad usage).
int parseOrExit(QCommandLineParser &parser, const QStringList &args, int positionals);

bool readGrain(const QCommandLineParser &parser, const SharedOptions &o, qint64 *bytes);
bool readSectorSize(const QCommandLineParser &parser, const SharedOptions &o, qint64 *bytes);

// Asks `question` on the terminal; false without one.
bool askOnTerminal(const QString &question);

} // namespace partwise::clitool
