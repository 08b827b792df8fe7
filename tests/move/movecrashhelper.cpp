// Runs (or resumes) one move so that a test can SIGKILL it at any instant.
//   move-crash-helper run DEVICE JOURNAL SOURCE DESTINATION LENGTH CHUNK [options]
//   move-crash-helper resume JOURNAL [options]
// Options: --kill-at-write N --tear-seed S (die inside the Nth write, see faultyblockio.h),
//          --extents OFFSET:LENGTH,...  --no-verify  --way measure|flush|journal (OverlapWay)
// Exit status: 0 completed, 3 stopped, 2 bad arguments.

#include "faultyblockio.h"
#include "move/datamover.h"

#include <QCoreApplication>
#include <QStringList>

#include <cstdio>

using namespace partwise;

using namespace partwise::move;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    auto state = std::make_shared<movetest::FaultState>();
    MoveRequest request;

    for (int i = 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (arg == QLatin1String("--kill-at-write") && i + 1 < args.size()) {
            state->killAtWrite = args.takeAt(i + 1).toLong();
        } else if (arg == QLatin1String("--tear-seed") && i + 1 < args.size()) {
            state->tearSeed = args.takeAt(i + 1).toULongLong();
        } else if (arg == QLatin1String("--extents") && i + 1 < args.size()) {
            for (const QString &pair : args.takeAt(i + 1).split(QLatin1Char(','))) {
                const QStringList parts = pair.split(QLatin1Char(':'));
                request.extents.push_back(
                    {parts.value(0).toULongLong(), parts.value(1).toULongLong()});
            }
        } else if (arg == QLatin1String("--way") && i + 1 < args.size()) {
            const QString way = args.takeAt(i + 1);
            request.overlapWay = way == QLatin1String("flush")     ? OverlapWay::FlushPerShift
                                 : way == QLatin1String("journal") ? OverlapWay::JournalWindow
                                                                   : OverlapWay::Measure;
        } else if (arg == QLatin1String("--no-verify")) {
            request.verify = false;
        } else {
            continue;
        }
        args.removeAt(i--);
    }

    DataMover mover;
    mover.setBlockIoOpener(movetest::faultyOpener(state));
    MoveOutcome outcome;
    if (args.size() == 7 && args.at(0) == QLatin1String("run")) {
        request.devicePath = args.at(1);
        request.sourceOffset = args.at(3).toULongLong();
        request.destinationOffset = args.at(4).toULongLong();
        request.length = args.at(5).toULongLong();
        request.chunkSize = args.at(6).toULongLong();
        outcome = mover.run(request, args.at(2));
    } else if (args.size() == 2 && args.at(0) == QLatin1String("resume")) {
        outcome = mover.resume(args.at(1));
    } else {
        std::fprintf(stderr, "usage: see the comment at the top of movecrashhelper.cpp\n");
        return 2;
    }
    std::printf("%s\n", qPrintable(outcome.message));
    return outcome.ok() ? 0 : 3;
}
