// libFuzzer target: one line as `partwise-cli serve` reads it, through everything the helper does
// with a request before it names a disk: the JSON-RPC envelope, then every parameter reader
// (sector size, grain, numbers, the realignment's partitions, ways and expected moves, a copy's
// expected placements and ids, a plan with its operations), and the answer lines built from what
// was read. It also feeds the bytes to the served user's number parser (PKEXEC_UID). Nothing here
// opens a file or a disk, so the fuzzer can run it millions of times; what it guards is that no
// line, however hostile, makes the root helper crash, hang or misread a number (clang's UBSan
// makes any overflow fatal, a double past qint64 converted too).
//
// Built two ways: with clang and -DPARTWISE_LIBFUZZER=ON as a libFuzzer binary (.ci/sanitize
// runs it for a bounded time from the seeds in serveline-seeds/), and otherwise with
// fuzzdriver.cpp, a bounded deterministic mutator, so that every ctest run fuzzes it too.
#include "cli/jsonrpcline.h"
#include "cli/serveduser.h"
#include "cli/serveparams.h"
#include "ops/copyids.h"
#include "ops/copyplanjson.h"
#include "ops/planfile.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstddef>
#include <cstdint>

using namespace partwise;

namespace {

void readEveryParameter(const QJsonObject &params)
{
    ServeParams common{params, {}};
    common.policy();
    common.sectorSize();
    common.boolean("ask_drive", true);
    common.integer("partition", 0, 1, 256);
    common.integer("question", -1, 0, qint64(1) << 40);
    RealignOptions options;
    RealignRequest asked;
    readRealignParams(params, &options, &asked);
    std::optional<QList<PartitionMove>> expect;
    if (readExpect(params, &expect).isEmpty() && expect)
        movesAsExpected(*expect, *expect);
    // copy's expected placements and ids (the client's numbers, read in root before any disk).
    QString copyProblem;
    if (params.contains(QStringLiteral("expect")))
        copyMatchesExpect(params.value(QStringLiteral("expect")), CopyPlan(), &copyProblem);
    CopyIds ids;
    readCopyIds(params.value(QStringLiteral("ids")), &ids);
    const QJsonValue plan = params.value(QStringLiteral("plan"));
    QList<Operation> operations;
    QString error;
    if (plan.isObject())
        parsePlan(QJsonDocument(plan.toObject()).toJson(), &operations, &error);
    serializePlan(operations);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray line(reinterpret_cast<const char *>(data), qsizetype(size));
    parseUserNumber(line.left(16));
    const jsonrpc::Request request = jsonrpc::parseLine(line);
    if (request.errorCode != 0) {
        jsonrpc::errorLine(request.id, request.errorCode, request.errorMessage);
        return 0;
    }
    readEveryParameter(request.params);
    jsonrpc::resultLine(request.id, request.params);
    return 0;
}
