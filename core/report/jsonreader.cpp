#include "report/jsonreader.h"

#include <cmath>

namespace partwise {

JsonReader::JsonReader(const QJsonObject &object, QString where, QString *problem)
    : m_object(object), m_where(std::move(where)), m_problem(problem)
{
}

QString JsonReader::string(const char *key)
{
    const QJsonValue v = value(key);
    if (!v.isString())
        wrong(key, "a string");
    return v.toString();
}

QString JsonReader::optionalString(const char *key)
{
    return value(key).isNull() ? QString() : string(key);
}

bool JsonReader::boolean(const char *key)
{
    const QJsonValue v = value(key);
    if (!v.isBool())
        wrong(key, "true or false");
    return v.toBool();
}

qint64 JsonReader::integer(const char *key, qint64 low, qint64 high)
{
    const QJsonValue v = value(key);
    const double d = v.toDouble(-1e300);
    // The range before the conversion: a double beyond qint64 (1e300, 2^63) converted is
    // undefined behaviour, and a helper's request may hold one.
    // double(INT64_MAX) rounds up to 2^63, which is past qint64 itself.
    if (!v.isDouble() || d < double(low) || d > double(high) || d >= 9223372036854775808.0 ||
        d != std::floor(d)) {
        wrong(key, "a whole number in range");
        return low;
    }
    return qint64(d);
}

std::optional<qint64> JsonReader::optionalInteger(const char *key, qint64 low, qint64 high)
{
    if (value(key).isNull())
        return std::nullopt;
    return integer(key, low, high);
}

double JsonReader::number(const char *key, double low, double high)
{
    const QJsonValue v = value(key);
    const double d = v.toDouble(-1e300);
    if (!v.isDouble() || d < low || d > high) {
        wrong(key, "a number in range");
        return low;
    }
    return d;
}

std::optional<double> JsonReader::optionalNumber(const char *key, double low, double high)
{
    if (value(key).isNull())
        return std::nullopt;
    return number(key, low, high);
}

QJsonObject JsonReader::object(const char *key)
{
    const QJsonValue v = value(key);
    if (!v.isObject())
        wrong(key, "an object");
    return v.toObject();
}

QJsonArray JsonReader::array(const char *key, qsizetype most)
{
    const QJsonValue v = value(key);
    if (!v.isArray() || v.toArray().size() > most) {
        wrong(key, "a list of bounded length");
        return {};
    }
    return v.toArray();
}

QStringList JsonReader::strings(const char *key)
{
    QStringList out;
    for (const QJsonValue &v : array(key, 1024)) {
        if (!v.isString())
            wrong(key, "a list of strings");
        out << v.toString();
    }
    return out;
}

void JsonReader::wrong(const char *key, const char *what)
{
    if (m_problem->isEmpty())
        *m_problem = QStringLiteral("%1 \"%2\" is not %3")
                         .arg(m_where, QLatin1String(key), QLatin1String(what));
}

} // namespace partwise
