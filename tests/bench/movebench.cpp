// Runs one DataMover move the way `partwise-cli realign` does, for run-benchmark.sh: the same
// journal, chunking and verification, optionally copying only the used blocks of an ext*
// filesystem. Prints "seconds bytes_copied" on success.
//
//   move-bench DEVICE SOURCE DESTINATION LENGTH [--no-verify] [--chunk BYTES]
//              [--fs TYPE] [--journal PATH] [--unsafe] [--way measure|flush|journal]
//
// --way fixes how a move cut to the shift keeps its windows safe (OverlapWay): a flush per shift,
// or each window's sources journaled first; by default they are timed on the move's own windows,
// as realign does. The way taken, and why, goes to stderr ("move-bench: Overlapping data: ...").
//
// --unsafe copies in whole chunks (never cut to the shift), in plan order with read-ahead, but
// without the journal, its records and syncs (one sync at the end): the baseline that shows
// what crash safety costs. A kill during an --unsafe move of overlapping ranges loses data.

#include "fs/usedblocks.h"
#include "move/alignedbuffer.h"
#include "move/blockio.h"
#include "move/datamover.h"
#include "move/movejournal.h"
#include "move/moveplan.h"

#include <QCoreApplication>
#include <QStringList>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <future>

using namespace partwise;

using namespace partwise::move;

namespace {

// The mover's copy loop without crash safety. Returns 0 or an errno value.
int unsafeCopy(const MoveRequest &request)
{
    int code = 0;
    std::unique_ptr<BlockIo> device =
        openFileBlockIo(request.devicePath, BlockIo::Access::ReadWrite, &code);
    if (!device)
        return code;
    const MovePlan plan = planMove(request, ShiftCut::Never);
    if (plan.chunks.empty())
        return 0;
    AlignedBuffer buffers[2] = {AlignedBuffer(plan.largestChunk), AlignedBuffer(plan.largestChunk)};
    auto readAhead = [&](std::size_t index) {
        return std::async(std::launch::async, [&, index] {
            const MoveChunk &chunk = plan.chunks[index];
            return device->readAt(buffers[index % 2].data(), chunk.length, chunk.sourceOffset);
        });
    };
    std::future<int> ahead = readAhead(0);
    for (std::size_t i = 0; i < plan.chunks.size(); ++i) {
        if ((code = ahead.get()) != 0)
            return code;
        if (i + 1 < plan.chunks.size())
            ahead = readAhead(i + 1);
        const MoveChunk &chunk = plan.chunks[i];
        if ((code = device->writeAt(buffers[i % 2].data(), chunk.length,
                                    chunk.destinationOffset)) != 0) {
            if (ahead.valid())
                ahead.wait();
            return code;
        }
    }
    return device->sync();
}

} // namespace

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
    bool unsafe = false;
    QString journal = MoveJournal::defaultPath(request.devicePath, QStringLiteral("/var/tmp"));
    for (int i = 4; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (arg == QLatin1String("--no-verify"))
            request.verify = false;
        else if (arg == QLatin1String("--chunk") && i + 1 < args.size())
            request.chunkSize = args.at(++i).toULongLong();
        else if (arg == QLatin1String("--fs") && i + 1 < args.size())
            filesystem = args.at(++i);
        else if (arg == QLatin1String("--unsafe"))
            unsafe = true;
        else if (arg == QLatin1String("--way") && i + 1 < args.size()) {
            const QString way = args.at(++i);
            if (way != QLatin1String("measure") && way != QLatin1String("flush") &&
                way != QLatin1String("journal")) {
                std::fprintf(stderr, "move-bench: --way takes measure, flush or journal\n");
                return 2;
            }
            request.overlapWay = way == QLatin1String("flush")     ? OverlapWay::FlushPerShift
                                 : way == QLatin1String("journal") ? OverlapWay::JournalWindow
                                                                   : OverlapWay::Measure;
        } else if (arg == QLatin1String("--journal") && i + 1 < args.size()) {
            journal = args.at(++i);
        } else {
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
    if (unsafe) {
        if (const int code = unsafeCopy(request)) {
            std::fprintf(stderr, "move-bench: %s\n", std::strerror(code));
            return 1;
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("%.3f %llu\n", seconds, static_cast<unsigned long long>(request.length));
        return 0;
    }
    DataMover mover;
    mover.setNoteCallback(
        [](const QString &note) { std::fprintf(stderr, "move-bench: %s\n", qPrintable(note)); });
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
