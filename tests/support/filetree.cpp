#include "filetree.h"

#include "filechecksum.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>

#include <random>

namespace pwtest {

namespace {

bool writeRandomFile(const QString &path, qint64 bytes, std::mt19937 &rng, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        *error = QStringLiteral("cannot create %1: %2").arg(path, f.errorString());
        return false;
    }
    QByteArray block(1 << 20, '\0');
    while (bytes > 0) {
        const qint64 n = std::min<qint64>(bytes, block.size());
        auto *words = reinterpret_cast<quint32 *>(block.data());
        for (qint64 i = 0; i < (n + 3) / 4; ++i)
            words[i] = quint32(rng());
        if (f.write(block.constData(), n) != n) {
            *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
            return false;
        }
        bytes -= n;
    }
    return true;
}

} // namespace

bool makeFileTree(const QString &dir, int smallFiles, qint64 largeBytes, quint32 seed,
                  QString *error)
{
    std::mt19937 rng(seed);
    QDir root(dir);
    for (int i = 0; i < smallFiles; ++i) {
        const QString sub =
            QStringLiteral("D%1/S%2").arg(i % 12, 2, 10, QLatin1Char('0')).arg(i % 3);
        if (!root.mkpath(sub)) {
            *error = QStringLiteral("cannot create %1 in %2").arg(sub, dir);
            return false;
        }
        const qint64 size = qint64(rng() % (16 * 1024 + 1));
        const QString name = QStringLiteral("%1/F%2.DAT").arg(sub).arg(i, 5, 10, QLatin1Char('0'));
        if (!writeRandomFile(root.filePath(name), size, rng, error))
            return false;
    }
    return writeRandomFile(root.filePath(QStringLiteral("large.bin")), largeBytes, rng, error);
}

QMap<QString, QByteArray> treeSha256(const QString &dir, QString *error)
{
    QMap<QString, QByteArray> sums;
    QDir root(dir);
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        const QByteArray sum = f.open(QIODevice::ReadOnly) ? deviceSha256(&f) : QByteArray();
        if (sum.isEmpty()) {
            if (error)
                *error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
            sums.insert(root.relativeFilePath(path), QByteArray("unreadable"));
            continue;
        }
        sums.insert(root.relativeFilePath(path), sum);
    }
    return sums;
}

QStringList compareTrees(const QMap<QString, QByteArray> &expected,
                         const QMap<QString, QByteArray> &actual)
{
    QStringList problems;
    for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
        if (!actual.contains(it.key()))
            problems << QStringLiteral("missing: %1").arg(it.key());
        else if (actual.value(it.key()) != it.value())
            problems << QStringLiteral("differs: %1").arg(it.key());
    }
    for (auto it = actual.cbegin(); it != actual.cend(); ++it)
        if (!expected.contains(it.key()))
            problems << QStringLiteral("extra: %1").arg(it.key());
    return problems;
}

} // namespace pwtest
