// partwise-cli: argument parsing only; every command is a core API.
#include "align/alignmentpolicy.h"
#include "ops/applycommand.h"
#include "ops/realigncommand.h"
#include "report/checkcommand.h"
#include "version.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <unistd.h>

namespace {

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

const char *const kUsage =
    "Usage: partwise-cli COMMAND [OPTIONS] [TARGET...]\n"
    "\n"
    "Commands:\n"
    "  check     report the alignment of each partition (default: every disk)\n"
    "\n"
    "Run 'partwise-cli COMMAND --help' for a command's options.\n"
    "Exit status: 0 nothing misaligned, 1 something misaligned or the work "
    "failed, 2 bad input.\n";

int usageError(const QString &message)
{
    stdErr() << "partwise-cli: " << message << "\n\n" << kUsage;
    return ExitBadInput;
}

int runCheckCommand(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Report the alignment of every partition of each TARGET (block device or disk image)."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("TARGET"),
                                 QStringLiteral("Disk or image; none checks every disk."),
                                 QStringLiteral("[TARGET...]"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    const QCommandLineOption grain(QStringLiteral("grain"),
                                   QStringLiteral("Alignment grain (4k, 1m, or bytes with K/M)."),
                                   QStringLiteral("SIZE"), QStringLiteral("1m"));
    const QCommandLineOption trust(
        QStringLiteral("trust-drive"),
        QStringLiteral(
            "Believe the physical sector size the drive reports (default: at least 4096)."));
    const QCommandLineOption sectorSize(
        QStringLiteral("sector-size"),
        QStringLiteral("Logical sector size of an image (512 or 4096)."), QStringLiteral("N"));
    parser.addOptions({json, grain, trust, sectorSize});
    if (!parser.parse(args))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        stdOut() << parser.helpText();
        return ExitOk;
    }

    CheckOptions options;
    options.targets = parser.positionalArguments();
    options.json = parser.isSet(json);
    options.policy.trustDrive = parser.isSet(trust);
    const auto grainBytes = parseByteSize(parser.value(grain));
    if (!grainBytes)
        return usageError(QStringLiteral("--grain: '%1' is not a size such as 4k or 1m.")
                              .arg(parser.value(grain)));
    options.policy.grainBytes = *grainBytes;
    if (parser.isSet(sectorSize)) {
        const qint64 n = parser.value(sectorSize).toLongLong();
        if (n != 512 && n != 1024 && n != 2048 && n != 4096)
            return usageError(QStringLiteral("--sector-size must be 512, 1024, 2048 or 4096."));
        options.forcedSectorSize = n;
    }
    return runCheck(options, stdOut(), stdErr());
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

int runApplyCommandLine(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Apply a plan file of operations to TARGET. The table is backed up before "
                       "the first write."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("PLAN"), QStringLiteral("Plan file (JSON)."));
    parser.addPositionalArgument(QStringLiteral("TARGET"), QStringLiteral("Disk or image."));
    const QCommandLineOption yes(QStringLiteral("yes"),
                                 QStringLiteral("Do not ask for confirmation."));
    const QCommandLineOption grain(QStringLiteral("grain"), QStringLiteral("Alignment grain."),
                                   QStringLiteral("SIZE"), QStringLiteral("1m"));
    const QCommandLineOption sectorSize(QStringLiteral("sector-size"),
                                        QStringLiteral("Logical sector size of an image."),
                                        QStringLiteral("N"));
    const QCommandLineOption backupDir(QStringLiteral("backup-dir"),
                                       QStringLiteral("Where table backups go."),
                                       QStringLiteral("DIR"));
    parser.addOptions({yes, grain, sectorSize, backupDir});
    if (!parser.parse(args))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        stdOut() << parser.helpText();
        return ExitOk;
    }
    if (parser.positionalArguments().size() != 2)
        return usageError(QStringLiteral("apply needs a PLAN and a TARGET."));
    ApplyCommandOptions options;
    options.planPath = parser.positionalArguments().at(0);
    options.target = parser.positionalArguments().at(1);
    options.assumeYes = parser.isSet(yes);
    const auto grainBytes = parseByteSize(parser.value(grain));
    if (!grainBytes)
        return usageError(QStringLiteral("--grain: '%1' is not a size.").arg(parser.value(grain)));
    options.apply.policy.grainBytes = *grainBytes;
    options.apply.forcedSectorSize = parser.value(sectorSize).toLongLong();
    options.apply.backupRoot = parser.value(backupDir);
    return runApplyCommand(options, stdOut(), stdErr(), askOnTerminal);
}

int runRestoreCommandLine(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Restore a partition-table backup onto TARGET."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("BACKUP"), QStringLiteral("Backup folder."));
    parser.addPositionalArgument(QStringLiteral("TARGET"), QStringLiteral("Disk or image."));
    if (!parser.parse(args))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        stdOut() << parser.helpText();
        return ExitOk;
    }
    if (parser.positionalArguments().size() != 2)
        return usageError(QStringLiteral("restore needs a BACKUP folder and a TARGET."));
    return runRestoreCommand(parser.positionalArguments().at(0), parser.positionalArguments().at(1),
                             stdOut(), stdErr());
}

int runRealignCommandLine(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Move misaligned partitions of TARGET, with their data, to the grain. Journaled: a move "
        "interrupted at any instant is finished by 'partwise-cli resume'."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("TARGET"), QStringLiteral("Disk or image."));
    const QCommandLineOption partition(QStringLiteral("partition"),
                                       QStringLiteral("Realign partition N (repeatable)."),
                                       QStringLiteral("N"));
    const QCommandLineOption all(
        QStringLiteral("all"),
        QStringLiteral("Also move partitions on a physical sector but off the grain."));
    const QCommandLineOption grain(QStringLiteral("grain"),
                                   QStringLiteral("Target grain (4k for the smallest move)."),
                                   QStringLiteral("SIZE"), QStringLiteral("1m"));
    const QCommandLineOption journal(QStringLiteral("journal"),
                                     QStringLiteral("Where the journal is kept (outside TARGET)."),
                                     QStringLiteral("PATH"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"),
                                    QStringLiteral("Show the plan only."));
    const QCommandLineOption yes(QStringLiteral("yes"),
                                 QStringLiteral("Do not ask for confirmation."));
    const QCommandLineOption noVerify(
        QStringLiteral("no-verify"),
        QStringLiteral("Skip re-reading the moved data to compare checksums."));
    const QCommandLineOption sectorSize(QStringLiteral("sector-size"),
                                        QStringLiteral("Logical sector size of an image."),
                                        QStringLiteral("N"));
    const QCommandLineOption backupDir(QStringLiteral("backup-dir"),
                                       QStringLiteral("Where table backups go."),
                                       QStringLiteral("DIR"));
    parser.addOptions(
        {partition, all, grain, journal, dryRun, yes, noVerify, sectorSize, backupDir});
    if (!parser.parse(args))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        stdOut() << parser.helpText();
        return ExitOk;
    }
    if (parser.positionalArguments().size() != 1)
        return usageError(QStringLiteral("realign needs one TARGET."));
    RealignCommandOptions o;
    o.target = parser.positionalArguments().at(0);
    for (const QString &n : parser.values(partition)) {
        bool ok = false;
        const int number = n.toInt(&ok);
        if (!ok || number <= 0)
            return usageError(
                QStringLiteral("--partition: '%1' is not a partition number.").arg(n));
        o.request.partitions << number;
    }
    o.request.includeSectorAligned = parser.isSet(all);
    const auto grainBytes = parseByteSize(parser.value(grain));
    if (!grainBytes)
        return usageError(QStringLiteral("--grain: '%1' is not a size.").arg(parser.value(grain)));
    o.realign.policy.grainBytes = *grainBytes;
    o.realign.journalPath = parser.value(journal);
    o.realign.verify = !parser.isSet(noVerify);
    o.realign.forcedSectorSize = parser.value(sectorSize).toLongLong();
    o.realign.backupRoot = parser.value(backupDir);
    o.dryRun = parser.isSet(dryRun);
    o.assumeYes = parser.isSet(yes);
    return runRealignCommand(o, stdOut(), stdErr(), askOnTerminal);
}

int runResumeCommandLine(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Finish an interrupted realignment of TARGET."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("TARGET"), QStringLiteral("Disk or image."));
    const QCommandLineOption journal(QStringLiteral("journal"),
                                     QStringLiteral("The realignment journal."),
                                     QStringLiteral("PATH"));
    parser.addOption(journal);
    if (!parser.parse(args))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        stdOut() << parser.helpText();
        return ExitOk;
    }
    if (parser.positionalArguments().size() != 1)
        return usageError(QStringLiteral("resume needs one TARGET."));
    return runResumeCommand(parser.positionalArguments().at(0), parser.value(journal), stdOut(),
                            stdErr());
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("partwise-cli"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(kPartwiseVersion));

    QStringList args = QCoreApplication::arguments();
    const QString command = args.value(1);
    if (command == QLatin1String("--version") || command == QLatin1String("-V")) {
        stdOut() << "partwise-cli " << kPartwiseVersion << "\n";
        return ExitOk;
    }
    if (command.isEmpty() || command == QLatin1String("--help") || command == QLatin1String("-h")) {
        (command.isEmpty() ? stdErr() : stdOut()) << kUsage;
        return command.isEmpty() ? ExitBadInput : ExitOk;
    }
    args.removeAt(1); // the command; QCommandLineParser sees "partwise-cli [options] targets"
    if (command == QLatin1String("check"))
        return runCheckCommand(args);
    if (command == QLatin1String("realign"))
        return runRealignCommandLine(args);
    if (command == QLatin1String("resume"))
        return runResumeCommandLine(args);
    if (command == QLatin1String("apply"))
        return runApplyCommandLine(args);
    if (command == QLatin1String("restore"))
        return runRestoreCommandLine(args);
    return usageError(QStringLiteral("unknown command '%1'.").arg(command));
}
