// Runs one DataMover move the way `partwise-cli realign` does, for run-benchmark.sh: the same
// journal, chunking and verification, optionally copying only the used blocks of an ext*
// filesystem. Prints "seconds bytes_copied" on success.
//
//   move-bench DEVICE SOURCE DESTINATION LENGTH [--no-verify] [--chunk BYTES]
//              [--fs TYPE] [--journal PATH]

#include "fs/usedblocks.h"
#include "move/DataMover.h"
#include "move/MoveJournal.h"

#include <QCoreApplication>
#include <QStringList>

#include <chrono>
#include <cstdio>

using namespace partwise::move;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.size() < 4) {
        std::fprintf(stderr, "usage: move-bench DEVICE SOURCE DESTINATION LENGTH [--no-verify] "
                             "[--chunk BYTES] [--fs TYPE] [--journal PATH]\n");
        return 2;
    }
    MoveRequest request;
    request.devicePath = args.at(0);
    request.sourceOffset = args.at(1).toULongLong();
    request.destinationOffset = args.at(2).toULongLong();
    request.length = args.at(3).toULongLong();
    QString filesystem;
    QString journal = MoveJournal::defaultPath(request.devicePath, QStringLiteral("/var/tmp"));
    for (int i = 4; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (arg == QLatin1String("--no-verify"))
            request.verify = false;
        else if (arg == QLatin1String("--chunk") && i + 1 < args.size())
            request.chunkSize = args.at(++i).toULongLong();
        else if (arg == QLatin1String("--fs") && i + 1 < args.size())
            filesystem = args.at(++i);
        else if (arg == QLatin1String("--journal") && i + 1 < args.size())
            journal = args.at(++i);
        else {
            std::fprintf(stderr, "move-bench: unknown argument %s\n", qPrintable(arg));
            return 2;
        }
    }

    const auto start = std::chrono::steady_clock::now();
    if (!filesystem.isEmpty()) {
        QString error;
        const auto extents =
            usedExtents(request.devicePath, static_cast<qint64>(request.sourceOffset),
                        static_cast<qint64>(request.length), filesystem, &error);
        if (extents) {
            request.extents = *extents;
            std::uint64_t used = 0;
            for (const Extent &extent : *extents)
                used += extent.length;
            std::fprintf(stderr, "move-bench: %zu used extents, %llu of %llu bytes\n",
                         extents->size(), static_cast<unsigned long long>(used),
                         static_cast<unsigned long long>(request.length));
        } else {
            std::fprintf(stderr, "move-bench: no used-block map (%s); copying everything\n",
                         qPrintable(error));
        }
    }
    DataMover mover;
    const MoveOutcome result = mover.run(request, journal);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!result.ok()) {
        std::fprintf(stderr, "move-bench: %s\n", qPrintable(result.message));
        return 1;
    }
    std::printf("%.3f %llu\n", seconds, static_cast<unsigned long long>(result.bytesCopied));
    return 0;
}
