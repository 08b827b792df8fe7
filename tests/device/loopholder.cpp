// Attaches a LoopAttachment over IMAGE at OFFSET for SIZE bytes, prints the device and waits
// to be killed: a stand-in for Partwise dying while a filesystem tool works on an image.
// With --repeat it prints "ready" and then attaches and detaches again and again, so that a
// kill at a random instant lands anywhere in attaching, holding or detaching.
#include "device/loopattachment.h"

#include <QCoreApplication>
#include <QStringList>

#include <cstdio>
#include <unistd.h>

using namespace partwise;

namespace {

int attachAndWait(const QStringList &args)
{
    LoopAttachment loop(args[0], args[1].toLongLong(), args[2].toLongLong(), false);
    if (!loop.ok()) {
        std::fprintf(stderr, "loop-holder: %s\n", qPrintable(loop.error()));
        return 1;
    }
    std::printf("%s\n", qPrintable(loop.device()));
    std::fflush(stdout);
    for (;;)
        ::pause();
}

int attachOverAndOver(const QStringList &args)
{
    std::printf("ready\n");
    std::fflush(stdout);
    for (;;) {
        LoopAttachment loop(args[0], args[1].toLongLong(), args[2].toLongLong(), false);
        if (!loop.ok()) {
            std::fprintf(stderr, "loop-holder: %s\n", qPrintable(loop.error()));
            return 1;
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    const bool repeat = !args.isEmpty() && args.first() == QLatin1String("--repeat");
    if (repeat)
        args.removeFirst();
    if (args.size() != 3) {
        std::fprintf(stderr, "usage: loop-holder [--repeat] IMAGE OFFSET SIZE\n");
        return 2;
    }
    return repeat ? attachOverAndOver(args) : attachAndWait(args);
}
