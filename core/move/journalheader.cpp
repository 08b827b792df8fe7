#include "journalheader.h"

#include "alignedbuffer.h"
#include "checksum.h"
#include "journallayout.h"
#include "moveplan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace partwise::move {

namespace {

constexpr char kHeaderMagic[8] = {'P', 'W', 'M', 'O', 'V', 'E', 'J', '2'};
// Formats 1-4, whose checksums were a hand-written hash this version no longer computes.
constexpr char kOldChecksumMagic[8] = {'P', 'W', 'M', 'O', 'V', 'E', 'J', '1'};
// The fixed fields before the JSON: magic, JSON length, JSON checksum.
constexpr std::uint64_t kFixedBytes = 24;

const QStringList kHeaderKeys{QStringLiteral("chunkCount"),      QStringLiteral("chunkSize"),
                              QStringLiteral("destination"),     QStringLiteral("device"),
                              QStringLiteral("deviceSize"),      QStringLiteral("extents"),
                              QStringLiteral("largestChunk"),    QStringLiteral("length"),
                              QStringLiteral("moveId"),          QStringLiteral("overlapWay"),
                              QStringLiteral("planFingerprint"), QStringLiteral("recordData"),
                              QStringLiteral("source"),          QStringLiteral("verify"),
                              QStringLiteral("version")};

QString overlapWayName(OverlapWay way)
{
    switch (way) {
    case OverlapWay::FlushPerShift:
        return QStringLiteral("flush-per-shift");
    case OverlapWay::JournalWindow:
        return QStringLiteral("journal-window");
    case OverlapWay::Measure:
        break;
    }
    return QStringLiteral("measure");
}

// 64-bit values are stored as strings: JSON numbers are doubles.
QString u64String(std::uint64_t value)
{
    return QString::number(value);
}

QByteArray headerJson(const JournalHeader &header)
{
    const MoveRequest &request = header.request;
    QJsonArray extents;
    for (const Extent &extent : request.extents)
        extents.append(QJsonArray{u64String(extent.offset), u64String(extent.length)});
    const QJsonObject object{
        {QStringLiteral("version"), JournalHeader::kFormatVersion},
        {QStringLiteral("moveId"), u64String(header.moveId)},
        {QStringLiteral("device"), request.devicePath},
        {QStringLiteral("deviceSize"), u64String(header.deviceSize)},
        {QStringLiteral("source"), u64String(request.sourceOffset)},
        {QStringLiteral("destination"), u64String(request.destinationOffset)},
        {QStringLiteral("length"), u64String(request.length)},
        {QStringLiteral("chunkSize"), u64String(request.chunkSize)},
        {QStringLiteral("verify"), request.verify},
        {QStringLiteral("overlapWay"), overlapWayName(request.overlapWay)},
        {QStringLiteral("extents"), extents},
        {QStringLiteral("chunkCount"), u64String(header.chunkCount)},
        {QStringLiteral("largestChunk"), u64String(header.largestChunk)},
        {QStringLiteral("recordData"), u64String(header.recordData)},
        {QStringLiteral("planFingerprint"), u64String(header.planFingerprint)},
    };
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

// Reads the header's JSON strictly: every field present, of its type.
struct HeaderReader
{
    QJsonObject object;
    QString problem;

    std::uint64_t u64(const QString &key)
    {
        bool ok = false;
        const QJsonValue value = object.value(key);
        const std::uint64_t number = value.toString().toULongLong(&ok);
        if ((!value.isString() || !ok) && problem.isEmpty())
            problem = QStringLiteral("its header's \"%1\" is not a number").arg(key);
        return number;
    }
    std::uint64_t u64(const QJsonArray &pair, int index)
    {
        bool ok = false;
        const std::uint64_t number = pair.at(index).toString().toULongLong(&ok);
        if ((!pair.at(index).isString() || !ok) && problem.isEmpty())
            problem = QStringLiteral("its header's extents are not pairs of numbers");
        return number;
    }
};

bool refuse(JournalHeaderRead *read, const QString &what)
{
    read->status = JournalHeaderRead::Status::Damaged;
    read->damage = what;
    return false;
}

// A journal of formats 1-4: its checksums cannot be checked, so it is never used. Its JSON is
// read unchecked only to name its format; if that fails, it is reported as damaged.
bool refuseOldChecksum(BlockIo &io, std::uint64_t jsonLength, JournalHeaderRead *read)
{
    AlignedBuffer head(roundUpToBlock(kFixedBytes + jsonLength));
    if (io.readAt(head.data(), head.size(), 0) == 0) {
        const char *json = reinterpret_cast<const char *>(head.data() + kFixedBytes);
        const QJsonObject object =
            QJsonDocument::fromJson(QByteArray(json, static_cast<qsizetype>(jsonLength))).object();
        const int version = object.value(QStringLiteral("version")).toInt(0);
        if (version > 0 && version < JournalHeader::kFormatVersion) {
            read->status = JournalHeaderRead::Status::OtherFormat;
            read->format = version;
            return false;
        }
    }
    return refuse(read, QStringLiteral("it starts like a journal of an earlier Partwise (format 4 "
                                       "or older), but its header cannot be read"));
}

// The header's JSON, once its magic, length, checksum and padding check out.
bool readJson(BlockIo &io, std::uint64_t fileSize, QByteArray *json, JournalHeaderRead *read)
{
    AlignedBuffer first(kJournalBlock);
    int code = fileSize < kJournalBlock ? EIO : io.readAt(first.data(), kJournalBlock, 0);
    if (code != 0 && fileSize >= kJournalBlock) {
        read->status = JournalHeaderRead::Status::Unreadable;
        read->readError = code;
        return false;
    }
    std::uint64_t jsonLength = 0;
    std::uint64_t jsonChecksum = 0;
    std::memcpy(&jsonLength, first.data() + 8, 8);
    std::memcpy(&jsonChecksum, first.data() + 16, 8);
    const bool oldChecksum = code == 0 && std::memcmp(first.data(), kOldChecksumMagic, 8) == 0;
    if (code != 0 || (!oldChecksum && std::memcmp(first.data(), kHeaderMagic, 8) != 0))
        return refuse(read, QStringLiteral("it does not start like a Partwise move journal"));
    if (jsonLength > (256ULL << 20) || kFixedBytes + jsonLength > fileSize)
        return refuse(read, QStringLiteral("the length of its header is impossible"));
    if (oldChecksum)
        return refuseOldChecksum(io, jsonLength, read);
    const std::uint64_t size = roundUpToBlock(kFixedBytes + jsonLength);
    AlignedBuffer head(size);
    code = io.readAt(head.data(), head.size(), 0);
    const char *jsonStart = reinterpret_cast<const char *>(head.data() + kFixedBytes);
    if (code != 0 || checksum64(jsonStart, jsonLength) != jsonChecksum)
        return refuse(read, QStringLiteral("the checksum of its header does not match"));
    if (!allZero(head.data() + kFixedBytes + jsonLength, size - kFixedBytes - jsonLength))
        return refuse(read, QStringLiteral("the padding after its header is not zero"));
    *json = QByteArray(jsonStart, static_cast<int>(jsonLength));
    read->size = size;
    return true;
}

// The request's fields, or the first problem that stops reading them.
QString readRequest(HeaderReader &r, MoveRequest *request)
{
    request->devicePath = r.object.value(QStringLiteral("device")).toString();
    request->sourceOffset = r.u64(QStringLiteral("source"));
    request->destinationOffset = r.u64(QStringLiteral("destination"));
    request->length = r.u64(QStringLiteral("length"));
    request->chunkSize = r.u64(QStringLiteral("chunkSize"));
    request->verify = r.object.value(QStringLiteral("verify")).toBool();
    const QString way = r.object.value(QStringLiteral("overlapWay")).toString();
    const OverlapWay ways[] = {OverlapWay::Measure, OverlapWay::FlushPerShift,
                               OverlapWay::JournalWindow};
    const auto known = std::find_if(std::begin(ways), std::end(ways),
                                    [&way](OverlapWay w) { return overlapWayName(w) == way; });
    if (known == std::end(ways))
        return QStringLiteral("its header's \"overlapWay\" is not a way Partwise knows");
    request->overlapWay = *known;
    if (!r.object.value(QStringLiteral("verify")).isBool() ||
        !r.object.value(QStringLiteral("device")).isString() ||
        !r.object.value(QStringLiteral("extents")).isArray())
        return QStringLiteral("its header has a field of the wrong type");
    for (const QJsonValue &value : r.object.value(QStringLiteral("extents")).toArray()) {
        const QJsonArray pair = value.toArray();
        if (pair.size() != 2)
            return QStringLiteral("its header's extents are not pairs of numbers");
        request->extents.push_back({r.u64(pair, 0), r.u64(pair, 1)});
    }
    return {};
}

// Every field present, of its type, and nothing else; then the move must be possible.
bool parseJson(const QByteArray &json, JournalHeaderRead *read)
{
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    HeaderReader r{doc.object(), {}};
    const QJsonValue version = r.object.value(QStringLiteral("version"));
    if (!doc.isObject() || !version.isDouble())
        return refuse(read, QStringLiteral("its header is not a journal's JSON"));
    if (version.toInt() != JournalHeader::kFormatVersion) {
        read->status = JournalHeaderRead::Status::OtherFormat;
        read->format = version.toInt();
        return false;
    }
    for (const QString &key : kHeaderKeys)
        if (!r.object.contains(key))
            return refuse(read, QStringLiteral("its header has no \"%1\"").arg(key));
    if (r.object.size() != kHeaderKeys.size())
        return refuse(read, QStringLiteral("its header has unknown fields"));
    JournalHeader &h = read->header;
    if (const QString problem = readRequest(r, &h.request); !problem.isEmpty())
        return refuse(read, problem);
    h.moveId = r.u64(QStringLiteral("moveId"));
    h.deviceSize = r.u64(QStringLiteral("deviceSize"));
    h.chunkCount = r.u64(QStringLiteral("chunkCount"));
    h.largestChunk = r.u64(QStringLiteral("largestChunk"));
    h.recordData = r.u64(QStringLiteral("recordData"));
    h.planFingerprint = r.u64(QStringLiteral("planFingerprint"));
    if (!r.problem.isEmpty())
        return refuse(read, r.problem);
    if (const QString problem = h.request.validate(h.deviceSize); !problem.isEmpty())
        return refuse(
            read, QStringLiteral("the move its header describes is impossible (%1)").arg(problem));
    if (h.chunkCount == 0 || h.chunkCount > h.request.length || h.largestChunk == 0 ||
        h.largestChunk > h.request.chunkSize || h.recordData < h.largestChunk ||
        h.recordData > std::max(h.largestChunk, kWindowBytes))
        return refuse(read, QStringLiteral("its header's chunk numbers are impossible"));
    return true;
}

} // namespace

QByteArray journalHeaderBytes(const JournalHeader &header)
{
    const QByteArray json = headerJson(header);
    const std::uint64_t jsonLength = static_cast<std::uint64_t>(json.size());
    const std::uint64_t jsonChecksum = checksum64(json.constData(), json.size());
    QByteArray bytes(static_cast<qsizetype>(roundUpToBlock(kFixedBytes + jsonLength)), '\0');
    std::memcpy(bytes.data(), kHeaderMagic, 8);
    std::memcpy(bytes.data() + 8, &jsonLength, 8);
    std::memcpy(bytes.data() + 16, &jsonChecksum, 8);
    std::memcpy(bytes.data() + kFixedBytes, json.constData(), json.size());
    return bytes;
}

JournalHeaderRead readJournalHeader(BlockIo &io, std::uint64_t fileSize)
{
    JournalHeaderRead read;
    QByteArray json;
    if (readJson(io, fileSize, &json, &read))
        parseJson(json, &read);
    return read;
}

} // namespace partwise::move
