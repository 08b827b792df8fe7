#include "probe/sectorprobe.h"

#include "base/positionedio.h"

#include "probe/probeplaces.h"

#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <numeric>
#include <random>
#include <unistd.h>

namespace partwise {

namespace {

constexpr qint64 kWindow = 64 * 1024;

// O_DIRECT wants memory aligned to the logical sector; a page satisfies every drive.
struct AlignedBuffer
{
    explicit AlignedBuffer(qint64 size)
    {
        if (::posix_memalign(&data, 4096, size_t(size)) != 0)
            data = nullptr;
    }
    ~AlignedBuffer() { std::free(data); }
    AlignedBuffer(const AlignedBuffer &) = delete;
    AlignedBuffer &operator=(const AlignedBuffer &) = delete;
    char *bytes() const { return static_cast<char *>(data); }
    void *data = nullptr;
};

struct Descriptor
{
    explicit Descriptor(int f) : fd(f) {}
    ~Descriptor()
    {
        if (fd >= 0)
            ::close(fd);
    }
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    int fd;
};

bool readAt(int fd, char *buffer, qint64 length, qint64 offset)
{
    return readFullAt(fd, buffer, length, offset) == length;
}

// One write, whole or not at all: a short O_DIRECT write to a block device is an error.
bool writeAt(int fd, const char *buffer, qint64 length, qint64 offset)
{
    ssize_t n;
    do
        n = ::pwrite(fd, buffer, size_t(length), offset);
    while (n < 0 && errno == EINTR);
    return n == length;
}

QString errnoText()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

int openForProbe(const QString &path, ProbeWriteMode mode)
{
    int flags = O_RDWR | O_DIRECT | O_CLOEXEC;
    if (mode == ProbeWriteMode::DirectDsync)
        flags |= O_DSYNC;
    const QByteArray name = QFile::encodeName(path);
    // Exclusive when possible, so nothing can mount the drive while it is probed; a drive with
    // a partition in use cannot be opened so, and the places keep clear of that partition.
    const int fd = ::open(name.constData(), flags | O_EXCL);
    if (fd >= 0 || errno != EBUSY)
        return fd;
    return ::open(name.constData(), flags);
}

} // namespace

QList<ProbeCell> probeCells(qint64 logicalSectorSize)
{
    const qint64 step = std::max<qint64>(512, logicalSectorSize);
    QList<ProbeCell> cells;
    for (qint64 unit : {4096, 8192, 16384, 32768}) {
        if (unit < step)
            continue;
        const qint64 unitStep = unit == 4096 ? step : std::max<qint64>(4096, step);
        for (qint64 offset = 0; offset < std::min<qint64>(unit, 32768); offset += unitStep)
            cells << ProbeCell{unit, offset};
    }
    return cells;
}

qint64 probeWindowBytes()
{
    return kWindow;
}

QString probeWriteModeName(ProbeWriteMode mode)
{
    return mode == ProbeWriteMode::DirectDsync ? QStringLiteral("O_DIRECT|O_DSYNC")
                                               : QStringLiteral("O_DIRECT+fdatasync");
}

SectorProbeRun runSectorProbe(const QString &devicePath, const SectorProbeOptions &options)
{
    SectorProbeRun run;
    run.path = devicePath;
    run.writeMode = options.writeMode;
    run.windowBytes = kWindow;
    const ProbeTarget target = examineProbeTarget(devicePath);
    run.model = target.device.model;
    run.sizeBytes = target.device.sizeBytes;
    run.logicalSectorSize = target.device.topology.logicalSectorSize;
    run.physicalSectorSizeReported = target.device.topology.physicalSectorSize;
    run.alignmentOffsetReported = target.device.topology.alignmentOffset;
    run.notes = target.notes;
    if (!target.ok) {
        run.outcome = SectorProbeRun::Outcome::Refused;
        run.reason = target.error;
        return run;
    }
    run.cells = probeCells(run.logicalSectorSize);
    run.places = chooseProbePlaces(target.ranges, std::max(1, options.places), kWindow);

    const Descriptor file(openForProbe(devicePath, options.writeMode));
    if (file.fd < 0) {
        run.outcome = SectorProbeRun::Outcome::Refused;
        run.reason =
            QStringLiteral("Cannot open %1 for direct writes: %2.").arg(devicePath, errnoText());
        return run;
    }
    const AlignedBuffer buffer(kWindow);
    if (!buffer.data) {
        run.outcome = SectorProbeRun::Outcome::Failed;
        run.reason = QStringLiteral("Out of memory.");
        return run;
    }

    std::mt19937 random(options.seed ? options.seed : std::random_device{}());
    QList<int> placeOrder(run.places.size()), cellOrder(run.cells.size());
    std::iota(placeOrder.begin(), placeOrder.end(), 0);
    std::iota(cellOrder.begin(), cellOrder.end(), 0);
    QList<QByteArray> original(run.places.size());
    const qint64 perRound = qint64(run.places.size()) * run.cells.size();
    const qint64 planned = perRound * std::max(1, options.maxRounds);
    QElapsedTimer clock;
    clock.start();
    auto fail = [&run](const QString &reason) {
        run.outcome = SectorProbeRun::Outcome::Failed;
        run.reason = reason;
    };
    auto cancelled = [&options] { return options.cancel && options.cancel->load(); };

    run.outcome = SectorProbeRun::Outcome::Measured;
    bool stop = false;
    for (int round = 0; round < std::max(1, options.maxRounds) && !stop; ++round) {
        if (round > 0 && clock.elapsed() >= options.budgetMs)
            break;
        std::shuffle(placeOrder.begin(), placeOrder.end(), random);
        bool complete = true;
        for (int place : std::as_const(placeOrder)) {
            if (cancelled() || clock.elapsed() >= 2 * options.budgetMs) {
                complete = false;
                stop = true;
                break;
            }
            const qint64 base = run.places[place].offsetBytes;
            if (!readAt(file.fd, buffer.bytes(), kWindow, base)) {
                fail(QStringLiteral("Reading %1 at byte %2 failed: %3. Nothing was written "
                                    "there.")
                         .arg(devicePath)
                         .arg(base)
                         .arg(errnoText()));
                return run;
            }
            const QByteArray now(buffer.bytes(), kWindow);
            if (original[place].isNull()) {
                original[place] = now;
            } else if (original[place] != now) {
                fail(QStringLiteral("The bytes at %1 of %2 changed between two visits of the "
                                    "probe: something else writes there. The probe stopped; "
                                    "it had written only what it read.")
                         .arg(base)
                         .arg(devicePath));
                return run;
            }
            std::shuffle(cellOrder.begin(), cellOrder.end(), random);
            for (int cell : std::as_const(cellOrder)) {
                if (cancelled()) {
                    complete = false;
                    stop = true;
                    break;
                }
                const ProbeCell &c = run.cells[cell];
                QElapsedTimer t;
                t.start();
                bool ok = writeAt(file.fd, buffer.bytes() + c.offsetBytes, c.unitBytes,
                                  base + c.offsetBytes);
                if (ok && options.writeMode == ProbeWriteMode::DirectFdatasync)
                    ok = ::fdatasync(file.fd) == 0;
                const double micros = double(t.nsecsElapsed()) / 1000.0;
                if (!ok) {
                    fail(QStringLiteral("Writing %1 bytes back at byte %2 of %3 failed: %4. "
                                        "Check the drive (its kernel log) before using it.")
                             .arg(c.unitBytes)
                             .arg(base + c.offsetBytes)
                             .arg(devicePath)
                             .arg(errnoText()));
                    return run;
                }
                run.samples << ProbeSample{place, cell, micros};
                if (options.progress) {
                    const double byWrites = double(run.samples.size()) / double(planned);
                    const double byTime = double(clock.elapsed()) / double(options.budgetMs);
                    options.progress(std::min(0.99, std::max(byWrites, byTime)));
                }
            }
            if (stop)
                break;
        }
        if (complete)
            ++run.roundsDone;
    }

    // Every place once more: the bytes must be those first read.
    for (int place = 0; place < run.places.size(); ++place) {
        if (original[place].isNull())
            continue;
        const qint64 base = run.places[place].offsetBytes;
        if (!readAt(file.fd, buffer.bytes(), kWindow, base) ||
            QByteArray::fromRawData(buffer.bytes(), kWindow) != original[place]) {
            fail(QStringLiteral("The bytes at %1 of %2 are not those read before the probe: "
                                "something else wrote there, or the drive did not keep what "
                                "it was given.")
                     .arg(base)
                     .arg(devicePath));
            return run;
        }
    }
    run.elapsedMs = clock.elapsed();
    if (cancelled()) {
        run.outcome = SectorProbeRun::Outcome::Cancelled;
        run.reason = QStringLiteral("Cancelled; every write done had put back the bytes that "
                                    "were there.");
    }
    if (options.progress)
        options.progress(1.0);
    return run;
}

} // namespace partwise
