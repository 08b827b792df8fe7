// The journals' checksum is XXH3 (64 bits) from libxxhash, checked against the published test
// vectors of xxHash itself: the XXH3_64bits table of its sanity check (cli/xsum_sanity_check.c,
// also tests/sanity_test_vectors.h, in github.com/Cyan4973/xxHash), which hashes the first N
// bytes of a fixed pseudo-random buffer with seed 0 and with seed PRIME64.

#include "move/checksum.h"

#include <QtTest>

#include <cstdint>
#include <vector>

using namespace partwise;

using partwise::move::checksum64;

namespace {

constexpr std::uint64_t kPrime32 = 2654435761U;
constexpr std::uint64_t kPrime64 = 11400714785074694797ULL;

// The sanity check's input: byte i is the top byte of PRIME32 * PRIME64^i (mod 2^64).
std::vector<unsigned char> sanityBuffer(std::size_t length)
{
    std::vector<unsigned char> buffer(length);
    std::uint64_t generator = kPrime32;
    for (unsigned char &byte : buffer) {
        byte = static_cast<unsigned char>(generator >> 56);
        generator *= kPrime64;
    }
    return buffer;
}

} // namespace

class TestChecksum : public QObject
{
    Q_OBJECT

private slots:
    void publishedVectors_data()
    {
        QTest::addColumn<quint64>("length");
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<quint64>("expected");
        struct Vector
        {
            std::uint64_t length, seed, expected;
        };
        // Each size class of XXH3's code paths, from xxHash's own table.
        const Vector vectors[] = {
            {0, 0, 0x2D06800538D394C2ULL},    {0, kPrime64, 0xA8A6B918B2F0364AULL},
            {1, 0, 0xC44BDFF4074EECDBULL},    {1, kPrime64, 0x032BE332DD766EF8ULL},
            {6, 0, 0x27B56A84CD2D7325ULL},    {6, kPrime64, 0x84589C116AB59AB9ULL},
            {12, 0, 0xA713DAF0DFBB77E7ULL},   {12, kPrime64, 0xE7303E1B2336DE0EULL},
            {24, 0, 0xA3FE70BF9D3510EBULL},   {24, kPrime64, 0x850E80FC35BDD690ULL},
            {48, 0, 0x397DA259ECBA1F11ULL},   {48, kPrime64, 0xADC2CBAA44ACC616ULL},
            {80, 0, 0xBCDEFBBB2C47C90AULL},   {80, kPrime64, 0xC6DD0CB699532E73ULL},
            {195, 0, 0xCD94217EE362EC3AULL},  {195, kPrime64, 0xBA68003D370CB3D9ULL},
            {403, 0, 0xCDEB804D65C6DEA4ULL},  {403, kPrime64, 0x6259F6ECFD6443FDULL},
            {512, 0, 0x617E49599013CB6BULL},  {512, kPrime64, 0x3CE457DE14C27708ULL},
            {2048, 0, 0xDD59E2C3A5F038E0ULL}, {2048, kPrime64, 0x66F81670669ABABCULL},
            {2099, 0, 0xC6B9D9B3FC9AC765ULL}, {2099, kPrime64, 0x184F316843663974ULL},
            {2240, 0, 0x6E73A90539CF2948ULL}, {2240, kPrime64, 0x757BA8487D1B5247ULL},
            {2367, 0, 0xCB37AEB9E5D361EDULL}, {2367, kPrime64, 0xD2DB3415B942B42AULL},
        };
        for (const Vector &v : vectors)
            QTest::addRow("%llu bytes, seed %llx", static_cast<unsigned long long>(v.length),
                          static_cast<unsigned long long>(v.seed))
                << quint64(v.length) << quint64(v.seed) << quint64(v.expected);
    }

    void publishedVectors()
    {
        QFETCH(quint64, length);
        QFETCH(quint64, seed);
        QFETCH(quint64, expected);
        const std::vector<unsigned char> buffer = sanityBuffer(length);
        QCOMPARE(quint64(checksum64(buffer.data(), buffer.size(), seed)), expected);
    }

    // The default seed is 0, and the empty input is well defined with any pointer.
    void defaultSeed()
    {
        const std::vector<unsigned char> buffer = sanityBuffer(4096);
        QCOMPARE(checksum64(buffer.data(), buffer.size()), checksum64(buffer.data(), 4096, 0));
        QCOMPARE(quint64(checksum64(nullptr, 0)), quint64(0x2D06800538D394C2ULL));
    }

    // A chunk of the mover's size: one flipped bit anywhere changes the checksum.
    void flippedBitsChangeIt()
    {
        std::vector<unsigned char> buffer = sanityBuffer(1 << 20);
        const std::uint64_t intact = checksum64(buffer.data(), buffer.size());
        for (std::size_t at :
             {std::size_t(0), std::size_t(4095), std::size_t(524288), buffer.size() - 1}) {
            buffer[at] ^= 0x10;
            QVERIFY(checksum64(buffer.data(), buffer.size()) != intact);
            buffer[at] ^= 0x10;
        }
        QCOMPARE(checksum64(buffer.data(), buffer.size()), intact);
    }
};

QTEST_GUILESS_MAIN(TestChecksum)
#include "tst_checksum.moc"
