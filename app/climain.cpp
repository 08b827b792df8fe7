// partwise-cli: argument parsing only; every command is a core API.
#include "align/alignmentpolicy.h"
#include "base/toolrunner.h"
#include "cli/applycommand.h"
#include "cli/checkcommand.h"
#include "cli/copycommand.h"
#include "cli/inheritedstate.h"
#include "cli/lukscommand.h"
#include "cli/poweroffcommand.h"
#include "cli/practicecommand.h"
#include "cli/probecommand.h"
#include "cli/realigncommand.h"
#include "cli/serveduser.h"
#include "cli/servesession.h"
#include "cli/volumegroupcommand.h"
#include "cli/watchcommand.h"
#include "cliargs.h"
#include "device/automountinhibitor.h"
#include "device/imagesectorsize.h"
#include "table/partitionnumber.h"
#include "version.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QHash>
#include <QJsonObject>
#include <QTextStream>

#include <cstdio>
#include <unistd.h>

using namespace partwise;

using namespace partwise::clitool;

namespace {

int runCheckCommandLine(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Report the alignment of every partition of each TARGET (block device or disk image)."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("TARGET"),
                                 QStringLiteral("Disk or image; none checks every disk."),
                                 QStringLiteral("[TARGET...]"));
    const SharedOptions shared;
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    const QCommandLineOption trust(
        QStringLiteral("trust-drive"),
        QStringLiteral(
            "Believe the physical sector size the drive reports (default: at least 4096)."));
    parser.addOptions({json, shared.grain, trust, shared.sectorSize});
    if (const int exit = parseOrExit(parser, args, -1); exit >= 0)
        return exit;

    CheckOptions options;
    options.targets = parser.positionalArguments();
    options.json = parser.isSet(json);
    options.policy.trustDrive = parser.isSet(trust);
    if (!readGrain(parser, shared, &options.policy.grainBytes) ||
        !readSectorSize(parser, shared, &options.forcedSectorSize))
        return ExitBadInput;
    return runCheck(options, stdOut(), stdErr());
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
    const SharedOptions shared;
    const QCommandLineOption acceptBootChange(
        QStringLiteral("accept-boot-change"),
        QStringLiteral("Apply a plan whose moves stop a boot loader working, which the plan "
                       "names with the command that repairs it."));
    parser.addOptions({shared.yes, shared.grain, shared.sectorSize, shared.backupDir,
                       shared.unmount, acceptBootChange});
    if (const int exit = parseOrExit(parser, args, 2); exit >= 0)
        return exit;

    ApplyCommandOptions options;
    options.apply.acceptBootChange = parser.isSet(acceptBootChange);
    options.planPath = parser.positionalArguments().at(0);
    options.target = parser.positionalArguments().at(1);
    options.assumeYes = parser.isSet(shared.yes);
    options.unmount = parser.isSet(shared.unmount);
    options.apply.backupRoot = parser.value(shared.backupDir);
    if (!readGrain(parser, shared, &options.apply.policy.grainBytes) ||
        !readSectorSize(parser, shared, &options.apply.forcedSectorSize))
        return ExitBadInput;
    return runApplyCommand(options, stdOut(), stdErr(), askOnTerminal);
}

int runRestoreCommandLine(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Put a partition-table backup (made before Apply, realign or copy wrote) back onto "
        "TARGET. Asks first; refuses while a job of TARGET waits to be resumed, and when data "
        "was moved after the backup."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("BACKUP"), QStringLiteral("Backup folder."));
    parser.addPositionalArgument(QStringLiteral("TARGET"), QStringLiteral("Disk or image."));
    const SharedOptions shared;
    const QCommandLineOption journal(
        QStringLiteral("journal"),
        QStringLiteral("A job journal of TARGET kept elsewhere than the default."),
        QStringLiteral("PATH"));
    parser.addOptions({shared.yes, journal});
    if (const int exit = parseOrExit(parser, args, 2); exit >= 0)
        return exit;
    RestoreCommandOptions options;
    options.backupFolder = parser.positionalArguments().at(0);
    options.target = parser.positionalArguments().at(1);
    options.journalPath = parser.value(journal);
    options.assumeYes = parser.isSet(shared.yes);
    return runRestoreCommand(options, stdOut(), stdErr(), askOnTerminal);
}

int runRealignCommandLine(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Move misaligned partitions of TARGET, with their data, to the grain. Journaled: a move "
        "interrupted at any instant is finished by 'partwise-cli resume'."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("TARGET"), QStringLiteral("Disk or image."));
    const SharedOptions shared;
    const QCommandLineOption partition(QStringLiteral("partition"),
                                       QStringLiteral("Realign partition N (repeatable)."),
                                       QStringLiteral("N"));
    const QCommandLineOption all(
        QStringLiteral("all"),
        QStringLiteral("Also move partitions on a physical sector but off the grain."));
    const QCommandLineOption journal(QStringLiteral("journal"),
                                     QStringLiteral("Where the journal is kept (outside TARGET)."),
                                     QStringLiteral("PATH"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"),
                                    QStringLiteral("Show the plan only."));
    const QCommandLineOption noVerify(
        QStringLiteral("no-verify"),
        QStringLiteral("Skip re-reading the moved data to compare checksums."));
    const QCommandLineOption prefer(
        QStringLiteral("prefer"),
        QStringLiteral("When more than one way makes room: shrink (a filesystem) or move "
                       "(neighbours). Default: the way that copies the fewest bytes."),
        QStringLiteral("shrink|move"));
    const QCommandLineOption acceptBootChange(
        QStringLiteral("accept-boot-change"),
        QStringLiteral("Run a plan that stops a boot loader working, which the plan names with "
                       "the command that repairs it."));
    const QCommandLineOption acceptUnchecked(
        QStringLiteral("accept-unchecked"),
        QStringLiteral("Move filesystems Partwise has no read-only check for (the plan names "
                       "them): damage in them would go along unseen."));
    const QCommandLineOption noDiscard(
        QStringLiteral("no-discard"),
        QStringLiteral("Keep the old bytes the moves leave behind (otherwise they are "
                       "discarded afterwards: TRIM on a drive that takes it, holes in an image)."));
    parser.addOptions({partition, all, shared.grain, journal, dryRun, shared.yes, noVerify,
                       shared.sectorSize, shared.backupDir, prefer, acceptBootChange,
                       acceptUnchecked, shared.unmount, noDiscard});
    if (const int exit = parseOrExit(parser, args, 1); exit >= 0)
        return exit;

    RealignCommandOptions o;
    o.target = parser.positionalArguments().at(0);
    for (const QString &n : parser.values(partition)) {
        bool ok = false;
        const qint64 number = n.toLongLong(&ok);
        if (!ok)
            return usageError(
                QStringLiteral("--partition: '%1' is not a partition number.").arg(n));
        if (const QString why = partitionNumberProblem(number); !why.isEmpty())
            return usageError(QStringLiteral("--partition: ") + why);
        o.request.partitions << int(number);
    }
    o.request.includeSectorAligned = parser.isSet(all);
    if (parser.isSet(prefer)) {
        const QString way = parser.value(prefer);
        if (way == QLatin1String("shrink"))
            o.request.prefer = RealignPreference::Shrink;
        else if (way == QLatin1String("move"))
            o.request.prefer = RealignPreference::Move;
        else
            return usageError(
                QStringLiteral("--prefer: '%1' is neither shrink nor move.").arg(way));
    }
    o.realign.journalPath = parser.value(journal);
    o.realign.verify = !parser.isSet(noVerify);
    o.realign.discard = !parser.isSet(noDiscard);
    o.realign.backupRoot = parser.value(shared.backupDir);
    o.dryRun = parser.isSet(dryRun);
    o.assumeYes = parser.isSet(shared.yes);
    o.unmount = parser.isSet(shared.unmount);
    o.acceptBootChange = parser.isSet(acceptBootChange);
    o.realign.acceptUnchecked = parser.isSet(acceptUnchecked);
    if (!readGrain(parser, shared, &o.realign.policy.grainBytes) ||
        !readSectorSize(parser, shared, &o.realign.forcedSectorSize))
        return ExitBadInput;
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
    if (const int exit = parseOrExit(parser, args, 1); exit >= 0)
        return exit;
    return runResumeCommand(parser.positionalArguments().at(0), parser.value(journal), stdOut(),
                            stdErr());
}

int runCopyCommandLine(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Copy SOURCE (a disk, or partition N of it) onto TARGET, every partition on the grain. "
        "Journaled: a copy interrupted at any instant is finished by 'partwise-cli resume "
        "TARGET'."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("SOURCE[:N]"), QStringLiteral("Disk or image."));
    parser.addPositionalArgument(QStringLiteral("TARGET"), QStringLiteral("Disk or image."));
    const SharedOptions shared;
    const QCommandLineOption dryRun(QStringLiteral("dry-run"),
                                    QStringLiteral("Show the plan only."));
    const QCommandLineOption newIds(
        QStringLiteral("new-ids"),
        QStringLiteral("New filesystem UUIDs, partition GUIDs, disk GUID and MBR signature."));
    const QCommandLineOption table(QStringLiteral("table"),
                                   QStringLiteral("The target's table (default: the source's)."),
                                   QStringLiteral("gpt|msdos"));
    const QCommandLineOption grow(
        QStringLiteral("grow"),
        QStringLiteral("On a larger target: keep sizes (default), grow the last partition, or "
                       "all in proportion."),
        QStringLiteral("keep|last|proportional"));
    const QCommandLineOption journal(QStringLiteral("journal"),
                                     QStringLiteral("Where the journal is kept (outside TARGET)."),
                                     QStringLiteral("PATH"));
    const QCommandLineOption noVerify(QStringLiteral("no-verify"),
                                      QStringLiteral("Skip reading the copy back."));
    const QCommandLineOption noDiscard(
        QStringLiteral("no-discard"),
        QStringLiteral("Keep the target's bytes the copy does not write (by default they are "
                       "discarded first: TRIM on a drive that takes it, holes in an image)."));
    const QCommandLineOption acceptBootChange(
        QStringLiteral("accept-boot-change"),
        QStringLiteral("Copy although the copy will not boot as the source does, which the plan "
                       "names with the command that repairs it."));
    parser.addOptions({dryRun, shared.yes, shared.grain, newIds, table, grow, journal, noVerify,
                       noDiscard, shared.unmount, shared.sectorSize, shared.backupDir,
                       acceptBootChange});
    if (const int exit = parseOrExit(parser, args, 2); exit >= 0)
        return exit;
    QString source;
    int number = 0;
    if (!splitCopySource(parser.positionalArguments().at(0), &source, &number))
        return usageError(QStringLiteral("SOURCE:N needs a partition number 1-128."));
    qint64 grain = 0, sectorSize = 0;
    if (!readGrain(parser, shared, &grain) || !readSectorSize(parser, shared, &sectorSize))
        return ExitBadInput;
    // The same validator as a helper's request reads the options.
    QJsonObject request{{QStringLiteral("source"), source},
                        {QStringLiteral("target"), parser.positionalArguments().at(1)},
                        {QStringLiteral("number"), number},
                        {QStringLiteral("grain"), grain},
                        {QStringLiteral("new_ids"), parser.isSet(newIds)},
                        {QStringLiteral("verify"), !parser.isSet(noVerify)},
                        {QStringLiteral("discard"), !parser.isSet(noDiscard)},
                        {QStringLiteral("sector_size"), sectorSize}};
    if (parser.isSet(table))
        request.insert(QStringLiteral("table"), parser.value(table));
    if (parser.isSet(grow))
        request.insert(QStringLiteral("grow"), parser.value(grow));
    if (parser.isSet(journal))
        request.insert(QStringLiteral("journal"), parser.value(journal));
    if (parser.isSet(shared.backupDir))
        request.insert(QStringLiteral("backup_dir"), parser.value(shared.backupDir));
    CopyCommandOptions o;
    if (const QString problem = readCopyParams(request, &o.params); !problem.isEmpty())
        return usageError(problem);
    o.params.options.acceptBootChange = parser.isSet(acceptBootChange);
    o.dryRun = parser.isSet(dryRun);
    o.assumeYes = parser.isSet(shared.yes);
    o.unmount = parser.isSet(shared.unmount);
    return runCopyCommand(o, stdOut(), stdErr(), askOnTerminal);
}

int runProbeCommandLine(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Time direct, synchronous writes at every 512-byte offset on TARGET (a whole drive) to "
        "find its real physical sector size and offset. Writes only the bytes already there, "
        "only in free space and partitions nothing uses; takes about 10 s. A penalty found is "
        "remembered for the drive, and check, create and realign use it."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("TARGET"), QStringLiteral("Block device."));
    const SharedOptions shared;
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    parser.addOptions({json, shared.yes});
    if (const int exit = parseOrExit(parser, args, 1); exit >= 0)
        return exit;
    ProbeCommandOptions o;
    o.target = parser.positionalArguments().at(0);
    o.json = parser.isSet(json);
    o.assumeYes = parser.isSet(shared.yes);
    return runProbeCommand(o, stdOut(), stdErr(), askOnTerminal);
}

int runPracticeCommandLine(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Create IMAGE, a sparse practice disk laid out as PRESET, with real filesystems and a "
        "few sample files in each partition. Needs no root. --list shows the presets."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("PRESET"), QStringLiteral("A preset's name."));
    parser.addPositionalArgument(QStringLiteral("IMAGE"), QStringLiteral("The image to create."));
    const SharedOptions shared;
    const QCommandLineOption list(QStringLiteral("list"),
                                  QStringLiteral("List the presets, one a line."));
    const QCommandLineOption size(
        QStringLiteral("size"), QStringLiteral("Image size (default 1g)."), QStringLiteral("SIZE"));
    parser.addOptions({list, size, shared.sectorSize});
    if (!parser.parse(args))
        return usageError(parser.errorText());
    PracticeCommandOptions o;
    o.list = parser.isSet(list);
    if (const int exit = parseOrExit(parser, args, o.list ? 0 : 2); exit >= 0)
        return exit;
    if (!readSectorSize(parser, shared, &o.sectorSize))
        return ExitBadInput;
    if (!o.list) {
        o.preset = parser.positionalArguments().at(0);
        o.image = parser.positionalArguments().at(1);
    }
    o.size = parser.value(size);
    return runPracticeCommand(o, stdOut(), stdErr());
}

int runWatchCommandLine(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Print disks as they are plugged in, removed or changed (loop devices as files are bound "
        "to them and let go), until --seconds pass or the input ends."));
    parser.addHelpOption();
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON lines."));
    const QCommandLineOption seconds(QStringLiteral("seconds"),
                                     QStringLiteral("Stop after N seconds (1-86400)."),
                                     QStringLiteral("N"));
    const QCommandLineOption source(
        QStringLiteral("source"),
        QStringLiteral("udev or kernel (default: udev's events where udevd runs)."),
        QStringLiteral("FROM"));
    parser.addOptions({json, seconds, source});
    if (const int exit = parseOrExit(parser, args, 0); exit >= 0)
        return exit;
    WatchCommandOptions o;
    o.json = parser.isSet(json);
    if (parser.isSet(seconds)) {
        bool ok = false;
        o.seconds = parser.value(seconds).toInt(&ok);
        if (!ok || o.seconds < 1 || o.seconds > kWatchMaxSeconds)
            return usageError(QStringLiteral("--seconds takes a whole number from 1 to %1.")
                                  .arg(kWatchMaxSeconds));
    }
    o.source = parser.value(source);
    if (!o.source.isEmpty() && o.source != QLatin1String("udev") &&
        o.source != QLatin1String("kernel"))
        return usageError(QStringLiteral("--source takes udev or kernel."));
    return runWatchCommand(o, stdOut(), stdErr());
}

// unlock, lock, vg-activate and vg-deactivate: one partition of a disk, by its number; and
// power-off, of a whole drive.
int runPartitionLayerCommandLine(const QStringList &args, const QString &command)
{
    const bool powerOff = command == QLatin1String("power-off");
    const bool unlock = command == QLatin1String("unlock");
    const bool luks = unlock || command == QLatin1String("lock");
    const QHash<QString, QString> what{
        {QStringLiteral("unlock"),
         QStringLiteral("Unlock the LUKS volume in partition N of TARGET: its mapping "
                        "/dev/mapper/luks-UUID is opened with the passphrase read from "
                        "standard input (or the whole of --key-file).")},
        {QStringLiteral("lock"), QStringLiteral("Lock the LUKS volume in partition N of TARGET: "
                                                "its mapping is closed (what is inside must be "
                                                "unmounted first).")},
        {QStringLiteral("vg-activate"),
         QStringLiteral("Activate the LVM volume group whose physical volume is partition N of "
                        "TARGET (vgchange -ay).")},
        {QStringLiteral("vg-deactivate"),
         QStringLiteral("Deactivate the LVM volume group whose physical volume is partition N of "
                        "TARGET (vgchange -an; its volumes must be unmounted first).")},
        {QStringLiteral("power-off"),
         QStringLiteral("Power off the USB drive TARGET so it can be unplugged (nothing on it may "
                        "be in use).")}};
    QCommandLineParser parser;
    parser.setApplicationDescription(what.value(command));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("TARGET"), QStringLiteral("The disk."));
    if (!powerOff)
        parser.addPositionalArgument(QStringLiteral("N"),
                                     QStringLiteral("The partition's number."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    const QCommandLineOption keyFile(QStringLiteral("key-file"),
                                     QStringLiteral("Read the key from FILE (whole)."),
                                     QStringLiteral("FILE"));
    parser.addOption(json);
    if (unlock)
        parser.addOption(keyFile);
    if (const int exit = parseOrExit(parser, args, powerOff ? 1 : 2); exit >= 0)
        return exit;
    if (powerOff)
        return runPowerOffCommand(parser.positionalArguments().at(0), parser.isSet(json), stdOut(),
                                  stdErr());
    bool ok = false;
    const int partition = parser.positionalArguments().at(1).toInt(&ok);
    if (!ok || partition < 1 || partition > 256)
        return usageError(QStringLiteral("N must be a partition number from 1 to 256."));
    if (!luks) {
        const VolumeGroupCommandOptions o{parser.positionalArguments().at(0), partition,
                                          parser.isSet(json),
                                          command == QLatin1String("vg-activate")};
        return runVolumeGroupCommand(o, stdOut(), stdErr());
    }
    LuksCommandOptions o;
    o.target = parser.positionalArguments().at(0);
    o.partition = partition;
    o.json = parser.isSet(json);
    if (unlock) {
        o.keyFile = parser.value(keyFile);
        return runUnlockCommand(o, stdOut(), stdErr());
    }
    return runLockCommand(o, stdOut(), stdErr());
}

} // namespace

int main(int argc, char **argv)
{
    // Root started for someone else (pkexec, sudo): nothing of their environment steers root,
    // from the first variable read on.
    if (argc > 1 && qstrcmp(argv[1], "serve") == 0 && startedForAnotherUser()) {
        QString why;
        if (!resetInheritedStateForUser(&why)) {
            std::fprintf(stderr, "partwise-cli serve: %s\n", qPrintable(why));
            return ExitBadInput;
        }
        resetEnvironmentForUser();
        runCompiledToolsOnly();
    }
    QCoreApplication app(argc, argv);
    // A run killed while it wrote to a disk left its automount inhibition behind.
    AutomountInhibitor::removeStaleInhibitions();
    QCoreApplication::setApplicationName(QStringLiteral("partwise-cli"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(kPartwiseVersion));

    QStringList args = QCoreApplication::arguments();
    const QString command = args.value(1);
    if (command == QLatin1String("--version") || command == QLatin1String("-V")) {
        stdOut() << "partwise-cli " << kPartwiseVersion << "\n";
        return ExitOk;
    }
    if (command.isEmpty() || command == QLatin1String("--help") || command == QLatin1String("-h")) {
        (command.isEmpty() ? stdErr() : stdOut()) << usageText();
        return command.isEmpty() ? ExitBadInput : ExitOk;
    }
    args.removeAt(1); // the command; QCommandLineParser sees "partwise-cli [options] targets"
    if (command == QLatin1String("check"))
        return runCheckCommandLine(args);
    if (command == QLatin1String("realign"))
        return runRealignCommandLine(args);
    if (command == QLatin1String("resume"))
        return runResumeCommandLine(args);
    if (command == QLatin1String("apply"))
        return runApplyCommandLine(args);
    if (command == QLatin1String("copy"))
        return runCopyCommandLine(args);
    if (command == QLatin1String("restore"))
        return runRestoreCommandLine(args);
    if (command == QLatin1String("probe"))
        return runProbeCommandLine(args);
    if (command == QLatin1String("serve"))
        return runServe();
    if (command == QLatin1String("practice"))
        return runPracticeCommandLine(args);
    if (command == QLatin1String("watch"))
        return runWatchCommandLine(args);
    for (const char *layerCommand : {"unlock", "lock", "vg-activate", "vg-deactivate", "power-off"})
        if (command == QLatin1String(layerCommand))
            return runPartitionLayerCommandLine(args, command);
    return usageError(QStringLiteral("unknown command '%1'.").arg(command));
}
