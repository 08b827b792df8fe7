#include "cli/lukscommand.h"

#include "cli/exitstatus.h"
#include "device/partitionnode.h"
#include "layer/luksmapping.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace partwise {

namespace {

// Reads at most `limit` + 1 bytes of `fd`, so an overlong key is seen as such.
QByteArray readBounded(int fd, qint64 limit)
{
    QByteArray bytes(limit + 1, '\0');
    qint64 got = 0;
    while (got < bytes.size()) {
        const ssize_t n = ::read(fd, bytes.data() + got, size_t(bytes.size() - got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += n;
    }
    ::explicit_bzero(bytes.data() + got, size_t(bytes.size() - got));
    bytes.truncate(got);
    return bytes;
}

// A passphrase from standard input: typed at a terminal without echo, or piped; its one
// trailing newline is not part of it (as cryptsetup reads one).
QByteArray readPassphrase(const QString &partition, QTextStream &err)
{
    termios saved{};
    const bool terminal = ::isatty(STDIN_FILENO) && ::tcgetattr(STDIN_FILENO, &saved) == 0;
    if (terminal) {
        err << "Passphrase for " << partition << ": ";
        err.flush();
        termios quiet = saved;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    }
    QByteArray bytes = terminal ? QByteArray() : readBounded(STDIN_FILENO, kMaxLuksPassphraseBytes);
    if (terminal) {
        char c;
        while (bytes.size() <= kMaxLuksPassphraseBytes && ::read(STDIN_FILENO, &c, 1) == 1 &&
               c != '\n')
            bytes.append(c);
        ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
        err << '\n';
    }
    if (bytes.endsWith('\n')) {
        bytes[bytes.size() - 1] = '\0';
        bytes.chop(1);
    }
    return bytes;
}

bool readKeyFile(const QString &path, QByteArray *bytes, QString *why)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        *why = QStringLiteral("Cannot read the key file %1: %2").arg(path, qt_error_string(errno));
        return false;
    }
    *bytes = readBounded(fd, kMaxLuksPassphraseBytes);
    ::close(fd);
    return true;
}

int partitionOf(const LuksCommandOptions &options, PartitionNode *node, QTextStream &err)
{
    QString why;
    if (!findPartitionNode(options.target, options.partition, node, &why)) {
        err << "partwise-cli: " << why << '\n';
        return ExitBadInput;
    }
    return -1;
}

void printUnlocked(const LuksUnlockResult &unlocked, const QString &partition, bool json,
                   QTextStream &out)
{
    const FilesystemIdentity inside = filesystemInsideMapping(unlocked.mapperPath);
    if (json) {
        const QJsonObject o{{QStringLiteral("partition"), partition},
                            {QStringLiteral("mapping"), unlocked.name},
                            {QStringLiteral("mapper_path"), unlocked.mapperPath},
                            {QStringLiteral("filesystem"), inside.type},
                            {QStringLiteral("label"), inside.label},
                            {QStringLiteral("uuid"), inside.uuid}};
        out << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
        return;
    }
    out << "Unlocked " << partition << " as " << unlocked.mapperPath;
    if (!inside.isEmpty())
        out << " (" << inside.type
            << (inside.label.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(inside.label))
            << " inside)";
    out << '\n';
}

} // namespace

int runUnlockCommand(const LuksCommandOptions &options, QTextStream &out, QTextStream &err)
{
    PartitionNode node;
    if (const int exit = partitionOf(options, &node, err); exit >= 0)
        return exit;
    QByteArray bytes;
    QString why;
    if (options.keyFile.isEmpty()) {
        bytes = readPassphrase(node.path, err);
    } else if (!readKeyFile(options.keyFile, &bytes, &why)) {
        err << "partwise-cli: " << why << '\n';
        return ExitBadInput;
    }
    const SecretBytes passphrase(&bytes);
    const LuksUnlockResult unlocked = unlockLuks(node.path, passphrase);
    if (!unlocked.ok) {
        err << "partwise-cli: " << unlocked.error << '\n';
        return unlocked.refused ? ExitBadInput : ExitMisalignedOrFailed;
    }
    printUnlocked(unlocked, node.path, options.json, out);
    return ExitOk;
}

int runLockCommand(const LuksCommandOptions &options, QTextStream &out, QTextStream &err)
{
    PartitionNode node;
    if (const int exit = partitionOf(options, &node, err); exit >= 0)
        return exit;
    QString name, why;
    if (!lockLuks(node.path, &name, &why)) {
        err << "partwise-cli: " << why << '\n';
        return name.isEmpty() ? ExitBadInput : ExitMisalignedOrFailed;
    }
    if (options.json)
        out << QJsonDocument(QJsonObject{{QStringLiteral("partition"), node.path},
                                         {QStringLiteral("mapping"), name},
                                         {QStringLiteral("locked"), true}})
                   .toJson(QJsonDocument::Compact)
            << '\n';
    else
        out << "Locked " << node.path << " (" << name << " closed)\n";
    return ExitOk;
}

} // namespace partwise
