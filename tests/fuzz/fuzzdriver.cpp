// A stand-in for libFuzzer's main where the compiler is not clang: the seeds, then bounded,
// deterministic mutations of them (bytes flipped, inserted, cut and repeated, seeds spliced,
// numbers swapped for extreme ones), each handed to LLVMFuzzerTestOneInput. Crashes, hangs and
// sanitizer reports are what fail it, as under libFuzzer. Argument: the seed folder.
#include <QByteArray>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QList>
#include <QRandomGenerator>

#include <cstdint>
#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

namespace {

constexpr int kRuns = 40000;
constexpr qint64 kBudgetMs = 20000;

const QList<QByteArray> kExtremes{"1e308",
                                  "-1e308",
                                  "9223372036854775807",
                                  "-9223372036854775808",
                                  "4294967296",
                                  "0.5",
                                  "-0",
                                  "1e-320",
                                  "65536",
                                  "8192",
                                  "[]",
                                  "{}",
                                  "null",
                                  "\"\"",
                                  "true"};

QByteArray mutate(QByteArray bytes, const QList<QByteArray> &seeds, QRandomGenerator &rng)
{
    for (int n = 1 + int(rng.bounded(4)); n > 0; --n) {
        const qsizetype at = bytes.isEmpty() ? 0 : qsizetype(rng.bounded(quint32(bytes.size())));
        switch (rng.bounded(6)) {
        case 0:
            if (!bytes.isEmpty())
                bytes[at] = char(bytes[at] ^ (1 << rng.bounded(8)));
            break;
        case 1:
            bytes.insert(at, char(rng.bounded(256)));
            break;
        case 2:
            bytes.remove(at, qsizetype(rng.bounded(16)));
            break;
        case 3:
            bytes.insert(at,
                         bytes.mid(at, qsizetype(rng.bounded(64))).repeated(int(rng.bounded(8))));
            break;
        case 4: {
            const QByteArray &other = seeds[int(rng.bounded(quint32(seeds.size())))];
            bytes = bytes.left(at) + other.mid(qsizetype(rng.bounded(quint32(other.size()))));
            break;
        }
        default: { // a number (or a value) replaced by an extreme one
            const qsizetype colon = bytes.indexOf(':', at);
            if (colon < 0)
                break;
            qsizetype end = colon + 1;
            while (end < bytes.size() && bytes[end] != ',' && bytes[end] != '}' &&
                   bytes[end] != ']')
                ++end;
            bytes.replace(colon + 1, end - colon - 1,
                          kExtremes[int(rng.bounded(quint32(kExtremes.size())))]);
        }
        }
    }
    return bytes;
}

void run(const QByteArray &bytes)
{
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                           std::size_t(bytes.size()));
}

} // namespace

int main(int argc, char **argv)
{
    QList<QByteArray> seeds;
    const QDir folder(argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString());
    for (const QString &name : folder.entryList(QDir::Files)) {
        QFile file(folder.filePath(name));
        if (file.open(QIODevice::ReadOnly))
            seeds << file.readAll().trimmed();
    }
    if (seeds.isEmpty()) {
        std::fprintf(stderr, "fuzz driver: no seeds in %s\n", argc > 1 ? argv[1] : "(none)");
        return 2;
    }
    for (const QByteArray &seed : std::as_const(seeds))
        run(seed);
    QRandomGenerator rng(20261126);
    QElapsedTimer clock;
    clock.start();
    int runs = 0;
    for (; runs < kRuns && clock.elapsed() < kBudgetMs; ++runs)
        run(mutate(seeds[int(rng.bounded(quint32(seeds.size())))], seeds, rng));
    std::printf("fuzz driver: %d seeds and %d mutants, no crash\n", int(seeds.size()), runs);
    return 0;
}
