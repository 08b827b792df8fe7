// partition-file-worker: Partwise's library entry points from the command line, so that
// tst_partitionfile can call them as a plain user (through setpriv) on a partition inside an
// image, where they reach the partition through FUSE (core/device/partitionfile.h).
//
//   partition-file-worker available
//   partition-file-worker resize IMAGE OFFSET PARTITION_BYTES FS NEW_BYTES
//   partition-file-worker check IMAGE OFFSET BYTES FS
//   partition-file-worker map IMAGE OFFSET BYTES FS
//   partition-file-worker run IMAGE OFFSET BYTES ro|rw PROGRAM [ARGUMENT...]
//
// `run` serves the range as a PartitionFile and runs PROGRAM on it, every "{}" among the
// arguments replaced by the file's path, with stdin, stdout and stderr passed through; its exit
// status is the program's (or 1 when the file could not be made).
// Prints what happened (the tool's command line and output, or the error); exit status 0 when
// the entry point succeeded, 1 when it failed, 2 for bad arguments.
#include "device/partitionfile.h"
#include "fs/filesystemresize.h"
#include "fs/partclonemap.h"
#include "ops/partitionaccess.h"

#include "device/backingfile.h"

#include <QCoreApplication>
#include <QProcess>
#include <QStringList>

#include <cstdio>
#include <unistd.h>

using namespace partwise;

namespace {

int report(const ToolResult &r)
{
    std::printf("command: %s\noutput:\n%s\n", qPrintable(r.command), qPrintable(r.output));
    if (!r.ok)
        std::printf("error: %s\n", qPrintable(r.error));
    return r.ok ? 0 : 1;
}

qint64 number(const QString &text, bool *ok)
{
    bool parsed = false;
    const qint64 n = text.toLongLong(&parsed);
    *ok = *ok && parsed && n >= 0;
    return n;
}

int runOnFile(const FilesystemLocation &where, qint64 bytes, bool readOnly,
              const QStringList &command)
{
    QString error;
    const int fd = openBackingFile(where.path, readOnly, &error);
    if (fd < 0) {
        std::printf("error: %s\n", qPrintable(error));
        return 1;
    }
    const PartitionFile file(fd, where.offset, bytes, readOnly);
    ::close(fd);
    if (!file.ok()) {
        std::printf("error: %s\n", qPrintable(file.error()));
        return 1;
    }
    QStringList arguments = command.mid(1);
    arguments.replaceInStrings(QStringLiteral("{}"), file.path());
    QProcess tool;
    tool.setProcessChannelMode(QProcess::ForwardedChannels);
    tool.setInputChannelMode(QProcess::ForwardedInputChannel);
    tool.start(command.value(0), arguments);
    if (!tool.waitForFinished(-1) || tool.exitStatus() != QProcess::NormalExit) {
        std::printf("error: %s did not end normally: %s\n", qPrintable(command.value(0)),
                    qPrintable(tool.errorString()));
        return 1;
    }
    return tool.exitCode();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList a = app.arguments().mid(1);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    if (a.value(0) == QLatin1String("available")) {
        const QString problem = partitionFilesProblem();
        std::printf("%s\n", problem.isEmpty() ? "available" : qPrintable(problem));
        return problem.isEmpty() ? 0 : 1;
    }
    bool ok = a.size() >= 5;
    const FilesystemLocation where{a.value(1), number(a.value(2), &ok), true};
    const qint64 bytes = number(a.value(3), &ok);
    const QString fs = a.value(4);
    if (ok && a.value(0) == QLatin1String("resize") && a.size() == 6) {
        const qint64 newBytes = number(a.value(5), &ok);
        if (ok)
            return report(resizeFilesystem(where, bytes, fs, newBytes));
    }
    if (ok && a.value(0) == QLatin1String("run") && a.size() >= 6 &&
        (fs == QLatin1String("ro") || fs == QLatin1String("rw")))
        return runOnFile(where, bytes, fs == QLatin1String("ro"), a.mid(5));
    if (ok && a.value(0) == QLatin1String("check") && a.size() == 5)
        return report(checkPartitionReadOnly(where, bytes, fs));
    if (ok && a.value(0) == QLatin1String("map") && a.size() == 5) {
        QString error;
        const auto extents = partcloneUsedExtents(where.path, where.offset, bytes, fs, &error);
        if (!extents) {
            std::printf("error: %s\n", qPrintable(error));
            return 1;
        }
        qint64 used = 0;
        for (const auto &e : *extents)
            used += qint64(e.length);
        std::printf("extents: %zu\nused bytes: %lld\n", extents->size(), used);
        return 0;
    }
    std::fprintf(stderr, "usage: partition-file-worker available | resize IMAGE OFFSET "
                         "PARTITION_BYTES FS NEW_BYTES | check|map IMAGE OFFSET BYTES FS | run "
                         "IMAGE OFFSET BYTES ro|rw PROGRAM [ARGUMENT...]\n");
    return 2;
}
