#pragma once

// Reading JSON that came from elsewhere (a helper on another machine, a file a person edited)
// without trusting it: each field is taken with the type and range it must have, and the
// first one that is missing or wrong is remembered as a sentence naming it ("the topology's
// \"logical_sector_size\" is not a whole number in range"). Reading goes on after a problem,
// with harmless values, so a reader reads a whole object and checks once at the end.

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace partwise {

class JsonReader
{
public:
    // `where` names the object in the sentence ("the topology's"); `problem` is shared by the
    // readers of one document and keeps the first problem.
    JsonReader(const QJsonObject &object, QString where, QString *problem);

    QString string(const char *key);
    // A string, or null (read as an empty string).
    QString optionalString(const char *key);
    bool boolean(const char *key);
    qint64 integer(const char *key, qint64 low, qint64 high);
    std::optional<qint64> optionalInteger(const char *key, qint64 low, qint64 high);
    double number(const char *key, double low, double high);
    std::optional<double> optionalNumber(const char *key, double low, double high);
    QJsonObject object(const char *key);
    QJsonArray array(const char *key, qsizetype most);
    QStringList strings(const char *key);

private:
    QJsonValue value(const char *key) const { return m_object.value(QLatin1String(key)); }
    void wrong(const char *key, const char *what);

    QJsonObject m_object;
    QString m_where;
    QString *m_problem;
};

} // namespace partwise
