// Attaches a LoopAttachment over IMAGE at OFFSET for SIZE bytes, prints the device and waits
// to be killed: a stand-in for Partwise dying while a filesystem tool works on an image.
#include "device/loopattachment.h"

#include <QCoreApplication>
#include <QStringList>

#include <cstdio>
#include <unistd.h>

using namespace partwise;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 4) {
        std::fprintf(stderr, "usage: loop-holder IMAGE OFFSET SIZE\n");
        return 2;
    }
    LoopAttachment loop(args[1], args[2].toLongLong(), args[3].toLongLong(), false);
    if (!loop.ok()) {
        std::fprintf(stderr, "loop-holder: %s\n", qPrintable(loop.error()));
        return 1;
    }
    std::printf("%s\n", qPrintable(loop.device()));
    std::fflush(stdout);
    for (;;)
        ::pause();
}
