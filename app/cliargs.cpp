#include "cliargs.h"

#include "align/alignmentpolicy.h"
#include "cli/exitstatus.h"
#include "device/imagesectorsize.h"

#include <QCoreApplication>

#include <unistd.h>

namespace partwise::clitool {

QTextStream &stdOut()
{
    static QTextStream s(stdout);
    return s;
}

QTextStream &stdErr()
{
    static QTextStream s(stderr);
    return s;
}

namespace {

const char *const kUsage =
    "Usage: partwise-cli COMMAND [OPTIONS] [TARGET...]\n"
    "\n"
    "Commands:\n"
    "  check     report the alignment of each partition (default: every disk)\n"
    "  realign   move misaligned partitions (and their data) to the grain\n"
    "  resume    finish a realignment, Apply or copy that was interrupted\n"
    "  copy      copy a disk (or one partition) onto another, every partition on the grain\n"
    "  apply     run a plan file (JSON) of operations on a disk or image\n"
    "  restore   put a partition-table backup taken before Apply back\n"
    "  probe     time writes to find a drive's real physical sector size and offset\n"
    "  practice  create a practice disk image from a preset (--list shows them)\n"
    "  serve     answer JSON-RPC requests on stdin/stdout (the window's helper)\n"
    "  watch     print disks as they are plugged in, removed or changed\n"
    "  unlock    open a LUKS partition with a passphrase (read from standard input)\n"
    "  lock      close a LUKS partition's mapping again\n"
    "  vg-activate    activate the LVM volume group of a physical volume partition\n"
    "  vg-deactivate  deactivate it again\n"
    "  power-off power off a USB drive so it can be unplugged\n"
    "\n"
    "Run 'partwise-cli COMMAND --help' for a command's options.\n"
    "Exit status: 0 nothing misaligned, 1 something misaligned or the work "
    "failed, 2 bad input.\n";

} // namespace

const char *usageText()
{
    return kUsage;
}

int usageError(const QString &message)
{
    stdErr() << "partwise-cli: " << message << "\n\n" << kUsage;
    return ExitBadInput;
}

// Parses `args`; returns -1 to go on, or the exit status to end with (help shown, bad usage).
int parseOrExit(QCommandLineParser &parser, const QStringList &args, int positionals)
{
    if (!parser.parse(args))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        // Qt's usage line names the program file; people type "partwise-cli COMMAND".
        QString help = parser.helpText();
        const QStringList typed = QCoreApplication::arguments();
        const QString usage = QStringLiteral("Usage: ") + typed.value(0);
        if (help.startsWith(usage))
            help.replace(0, usage.size(), QStringLiteral("Usage: partwise-cli ") + typed.value(1));
        stdOut() << help;
        return ExitOk;
    }
    if (positionals >= 0 && parser.positionalArguments().size() != positionals)
        return usageError(QStringLiteral("expected %1 argument(s) after the command; see --help.")
                              .arg(positionals));
    return -1;
}

bool readGrain(const QCommandLineParser &parser, const SharedOptions &o, qint64 *bytes)
{
    const auto parsed = parseByteSize(parser.value(o.grain));
    if (!parsed) {
        usageError(QStringLiteral("--grain: '%1' is not a size such as 4k or 1m.")
                       .arg(parser.value(o.grain)));
        return false;
    }
    if (const QString why = AlignmentPolicy::grainProblem(*parsed); !why.isEmpty()) {
        usageError(QStringLiteral("--grain: ") + why);
        return false;
    }
    *bytes = *parsed;
    return true;
}

bool readSectorSize(const QCommandLineParser &parser, const SharedOptions &o, qint64 *bytes)
{
    *bytes = 0;
    if (!parser.isSet(o.sectorSize))
        return true;
    if (!parseSectorSize(parser.value(o.sectorSize), bytes)) {
        usageError(QStringLiteral("--sector-size must be %1.").arg(supportedSectorSizesText()));
        return false;
    }
    return true;
}

bool askOnTerminal(const QString &question)
{
    if (!::isatty(STDIN_FILENO))
        return false;
    stdOut() << question << " [y/N] ";
    stdOut().flush();
    QTextStream in(stdin);
    const QString answer = in.readLine().trimmed().toLower();
    return answer == QLatin1String("y") || answer == QLatin1String("yes");
}

} // namespace partwise::clitool
