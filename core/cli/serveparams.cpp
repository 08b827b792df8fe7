#include "cli/serveparams.h"

#include "device/imagesectorsize.h"
#include "layer/luksmapping.h"
#include "report/layoutjson.h"
#include "table/partitionnumber.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonValue>

#include <algorithm>
#include <cmath>
#include <limits>

namespace partwise {

namespace {

// Beyond any size a request could mean; the grain's own limits are AlignmentPolicy's.
constexpr qint64 kMaxWholeNumber = qint64(1) << 62;
// More sectors than any disk has (2^47, the bound layoutjson reads sectors with).
constexpr qint64 kMaxExpectedSector = std::numeric_limits<qint64>::max() / 65536;
constexpr qsizetype kMaxFolderBytes = 4096;

} // namespace

bool ServeParams::boolean(const char *key, bool fallback)
{
    const QJsonValue v = object.value(QLatin1String(key));
    if (v.isUndefined())
        return fallback;
    if (!v.isBool())
        problem = QStringLiteral("\"%1\" must be true or false.").arg(QLatin1String(key));
    return v.toBool(fallback);
}

qint64 ServeParams::integer(const char *key, qint64 fallback, qint64 low, qint64 high)
{
    const QJsonValue v = object.value(QLatin1String(key));
    if (v.isUndefined())
        return fallback;
    const double d = v.toDouble(-1e300);
    // The range first: converting a double beyond qint64 is undefined behaviour.
    if (!v.isDouble() || d < double(low) || d > double(high) || d != std::floor(d)) {
        problem = QStringLiteral("\"%1\" must be a whole number from %2 to %3.")
                      .arg(QLatin1String(key))
                      .arg(low)
                      .arg(high);
        return fallback;
    }
    return qint64(d);
}

AlignmentPolicy ServeParams::policy()
{
    AlignmentPolicy policy;
    policy.grainBytes = integer("grain", policy.grainBytes, 1, kMaxWholeNumber);
    if (const QString why = policy.validate(); problem.isEmpty() && !why.isEmpty()) {
        problem = QStringLiteral("\"grain\": ") + why;
        policy.grainBytes = AlignmentPolicy::kDefaultGrain;
    }
    policy.trustDrive = boolean("trust_drive", policy.trustDrive);
    return policy;
}

qint64 ServeParams::sectorSize()
{
    const qint64 bytes = integer("sector_size", 0, 0, 4096);
    if (bytes != 0 && !isSupportedSectorSize(bytes)) {
        problem = QStringLiteral("\"sector_size\" must be %1.").arg(supportedSectorSizesText());
        return 0;
    }
    return bytes;
}

namespace {

// "ways": {"2": "move-down"}, the way a person picked for a partition in the wizard.
QString readWays(const QJsonObject &object, QMap<int, RealignWay> *ways)
{
    const QJsonValue value = object.value(QStringLiteral("ways"));
    if (value.isUndefined())
        return {};
    const QJsonObject map = value.toObject();
    if (!value.isObject() || map.size() > kMaxPartitionNumber)
        return QStringLiteral("\"ways\" must be an object of at most %1 partition numbers.")
            .arg(kMaxPartitionNumber);
    for (auto it = map.constBegin(); it != map.constEnd(); ++it) {
        bool isNumber = false;
        const int n = it.key().toInt(&isNumber);
        if (!isNumber || n < 1 || n > kMaxPartitionNumber || QString::number(n) != it.key())
            return QStringLiteral("\"ways\" must be keyed by partition numbers from 1 to %1.")
                .arg(kMaxPartitionNumber);
        RealignWay way = RealignWay::MoveUp;
        if (!realignWayFromName(it.value().toString(), &way))
            return QStringLiteral("\"ways\" of partition %1 must be move-up, move-down, shrink, "
                                  "shift-following or shift-preceding.")
                .arg(n);
        ways->insert(n, way);
    }
    return {};
}

} // namespace

QString readUnlockRequest(const QJsonObject &object, bool forUnlock, UnlockRequest *request)
{
    ServeParams params{object, {}};
    request->partition = int(params.integer("partition", 0, 1, kMaxPartitionNumber));
    if (!params.problem.isEmpty())
        return params.problem;
    if (request->partition == 0)
        return QStringLiteral("\"partition\" is required: a number from 1 to %1.")
            .arg(kMaxPartitionNumber);
    const QJsonValue passphrase = object.value(QStringLiteral("passphrase"));
    if (!forUnlock)
        return passphrase.isUndefined() ? QString()
                                        : QStringLiteral("\"lock\" takes no \"passphrase\".");
    // The length is checked on the string before it is converted: a line is at most
    // kMaxLineBytes anyway, and the bytes are counted once converted.
    if (!passphrase.isString() || passphrase.toString().isEmpty() ||
        passphrase.toString().size() > kMaxLuksPassphraseBytes)
        return QStringLiteral("\"passphrase\" must be a string of 1 to %1 bytes.")
            .arg(kMaxLuksPassphraseBytes);
    request->passphrase = passphrase.toString().toUtf8();
    if (request->passphrase.size() > kMaxLuksPassphraseBytes) {
        SecretBytes::wipe(&request->passphrase);
        return QStringLiteral("\"passphrase\" must be a string of 1 to %1 bytes.")
            .arg(kMaxLuksPassphraseBytes);
    }
    return QString();
}

QString readVolumeGroupRequest(const QJsonObject &object, int *partition)
{
    ServeParams params{object, {}};
    *partition = int(params.integer("partition", 0, 1, kMaxPartitionNumber));
    if (params.problem.isEmpty() && *partition == 0)
        params.problem = QStringLiteral("\"partition\" is required: a number from 1 to %1.")
                             .arg(kMaxPartitionNumber);
    if (params.problem.isEmpty() && params.has("volume_group"))
        params.problem = QStringLiteral("The volume group is the one the partition belongs to; "
                                        "\"volume_group\" is not taken.");
    return params.problem;
}

QString readPowerOffRequest(const QJsonObject &object)
{
    for (auto it = object.constBegin(); it != object.constEnd(); ++it)
        if (it.key() != QLatin1String("path"))
            return QStringLiteral("\"power-off\" takes only \"path\", the whole drive.");
    return QString();
}

QString readMountRequest(const QJsonObject &object, bool forMount, MountRequest *request)
{
    ServeParams params{object, {}};
    request->partition = int(params.integer("partition", 0, 1, kMaxPartitionNumber));
    if (params.problem.isEmpty() && request->partition == 0)
        params.problem = QStringLiteral("\"partition\" is required: a number from 1 to %1.")
                             .arg(kMaxPartitionNumber);
    request->media = params.boolean("media", false);
    request->back = params.boolean("back", false);
    if (!params.problem.isEmpty())
        return params.problem;
    const QJsonValue folder = object.value(QStringLiteral("folder"));
    if (!folder.isUndefined()) {
        const QString path = folder.toString();
        if (!folder.isString() || path.isEmpty() || path.toUtf8().size() > kMaxFolderBytes ||
            path.contains(QChar(0)) || !path.startsWith(QLatin1Char('/')) ||
            QDir::cleanPath(path) != path)
            return QStringLiteral("\"folder\" must be a plain absolute path (no \"..\", \"//\" or "
                                  "trailing slash) of at most %1 bytes.")
                .arg(kMaxFolderBytes);
        request->folder = path;
    }
    const int ways = int(!request->folder.isEmpty()) + int(request->media) + int(request->back);
    if (forMount && ways != 1)
        return QStringLiteral("\"mount\" needs exactly one of \"folder\", \"media\": true and "
                              "\"back\": true.");
    if (!forMount && ways != 0)
        return QStringLiteral("\"folder\", \"media\" and \"back\" belong to \"mount\" only.");
    return {};
}

QString readRealignParams(const QJsonObject &object, RealignOptions *options, RealignRequest *asked)
{
    ServeParams params{object, {}};
    options->policy = params.policy();
    options->forcedSectorSize = params.sectorSize();
    options->verify = params.boolean("verify", true);
    options->discard = params.boolean("discard", true);
    asked->includeSectorAligned = params.boolean("all", false);
    const QJsonValue prefer = object.value(QStringLiteral("prefer"));
    if (prefer == QJsonValue(QStringLiteral("shrink")))
        asked->prefer = RealignPreference::Shrink;
    else if (prefer == QJsonValue(QStringLiteral("move")))
        asked->prefer = RealignPreference::Move;
    else if (!prefer.isUndefined())
        return QStringLiteral("\"prefer\" must be \"shrink\" or \"move\".");
    const QJsonValue numbers = object.value(QStringLiteral("partitions"));
    if (!numbers.isUndefined() && !numbers.isArray())
        return QStringLiteral("\"partitions\" must be a list of numbers.");
    for (const QJsonValue &n : numbers.toArray()) {
        const double d = n.toDouble(-1);
        // The range before the conversion: a double beyond qint64 is undefined behaviour.
        if (!n.isDouble() || d != std::floor(d) || std::fabs(d) > 1e15)
            return QStringLiteral("\"partitions\" must be a list of whole numbers.");
        if (const QString why = partitionNumberProblem(qint64(d)); !why.isEmpty())
            return QStringLiteral("\"partitions\": ") + why;
        asked->partitions << int(d);
    }
    if (const QString problem = readWays(object, &asked->ways); !problem.isEmpty())
        return problem;
    return params.problem;
}

QString readExpect(const QJsonObject &object, std::optional<QList<PartitionMove>> *expect)
{
    const QJsonValue value = object.value(QStringLiteral("expect"));
    if (value.isUndefined())
        return {};
    const QString wrong =
        QStringLiteral("\"expect\" must be a list of at most %1 moves, each {\"number\": 1 to %2, "
                       "\"new_start\", \"new_end\": sectors, the end not before the start}.")
            .arg(kMaxRegions)
            .arg(kMaxPartitionNumber);
    if (!value.isArray() || value.toArray().size() > kMaxRegions)
        return wrong;
    QList<PartitionMove> moves;
    for (const QJsonValue &v : value.toArray()) {
        const QJsonObject move = v.toObject();
        ServeParams params{move, {}};
        PartitionMove m;
        m.number = int(params.integer("number", -1, 1, kMaxPartitionNumber));
        m.newStart = params.integer("new_start", -1, 0, kMaxExpectedSector);
        m.newEnd =
            params.integer("new_end", -1, std::max<qint64>(m.newStart, 0), kMaxExpectedSector);
        if (!v.isObject() || !params.problem.isEmpty() || m.number < 0 || m.newStart < 0 ||
            m.newEnd < 0)
            return wrong;
        moves << m;
    }
    *expect = moves;
    return {};
}

bool movesAsExpected(const QList<PartitionMove> &expect, const QList<PartitionMove> &fresh)
{
    return std::equal(expect.cbegin(), expect.cend(), fresh.cbegin(), fresh.cend(),
                      [](const PartitionMove &a, const PartitionMove &b) {
                          return a.number == b.number && a.newStart == b.newStart &&
                                 a.newEnd == b.newEnd;
                      });
}

} // namespace partwise
