#include "cli/copyparams.h"

#include "cli/serveparams.h"

#include <QRegularExpression>

namespace partwise {

namespace {

constexpr int kMaxPathLength = 4096;

// A path: a non-empty string without NUL, of a sane length.
QString path(const QJsonObject &object, const char *key, bool required, QString *problem)
{
    const QJsonValue v = object.value(QLatin1String(key));
    if (v.isUndefined() && !required)
        return QString();
    const QString text = v.toString();
    if (!v.isString() || text.isEmpty() || text.size() > kMaxPathLength || text.contains(QChar(0)))
        *problem = QStringLiteral("\"%1\" must be a path.").arg(QLatin1String(key));
    return text;
}

QString choice(const QJsonObject &object, const char *key, const QStringList &allowed,
               QString *problem)
{
    const QJsonValue v = object.value(QLatin1String(key));
    if (v.isUndefined())
        return QString();
    if (!v.isString() || !allowed.contains(v.toString()))
        *problem = QStringLiteral("\"%1\" must be one of %2.")
                       .arg(QLatin1String(key), allowed.join(QStringLiteral(", ")));
    return v.toString();
}

} // namespace

QString readCopyParams(const QJsonObject &object, CopyParams *params, CopyParamsFrom from)
{
    static const QStringList kKeys{
        QStringLiteral("source"),  QStringLiteral("number"),     QStringLiteral("target"),
        QStringLiteral("grain"),   QStringLiteral("table"),      QStringLiteral("grow"),
        QStringLiteral("new_ids"), QStringLiteral("verify"),     QStringLiteral("sector_size"),
        QStringLiteral("journal"), QStringLiteral("backup_dir"), QStringLiteral("trust_drive"),
        QStringLiteral("discard"), QStringLiteral("ids")};
    for (auto it = object.begin(); it != object.end(); ++it)
        if (!kKeys.contains(it.key()))
            return QStringLiteral("\"%1\" is not a parameter of a copy.").arg(it.key());
    if (from == CopyParamsFrom::Helper)
        for (const char *key : {"journal", "backup_dir"})
            if (object.contains(QLatin1String(key)))
                return QStringLiteral("\"%1\" is not taken from a helper's request; the helper "
                                      "keeps its journals and backups in its own folders.")
                    .arg(QLatin1String(key));
    ServeParams p{object, {}};
    CopyParams out;
    QString problem;
    out.source = path(object, "source", true, &problem);
    if (problem.isEmpty())
        out.target = path(object, "target", true, &problem);
    if (problem.isEmpty())
        out.options.journalPath = path(object, "journal", false, &problem);
    if (problem.isEmpty())
        out.options.backupRoot = path(object, "backup_dir", false, &problem);
    if (problem.isEmpty())
        out.options.tableType =
            choice(object, "table", {QStringLiteral("gpt"), QStringLiteral("msdos")}, &problem);
    if (problem.isEmpty()) {
        const QString grow =
            choice(object, "grow",
                   {QStringLiteral("keep"), QStringLiteral("last"), QStringLiteral("proportional")},
                   &problem);
        if (!grow.isEmpty())
            parseCopyGrowth(grow, &out.options.growth);
    }
    if (!problem.isEmpty())
        return problem;
    out.options.sourcePartition = int(p.integer("number", 0, 0, 128));
    out.options.policy = p.policy();
    out.options.newIds = p.boolean("new_ids", false);
    out.options.verify = p.boolean("verify", true);
    out.options.discard = p.boolean("discard", true);
    out.options.forcedSourceSectorSize = p.sectorSize();
    if (!p.problem.isEmpty())
        return p.problem;
    if (object.contains(QLatin1String("ids"))) {
        if (!out.options.newIds)
            return QStringLiteral("\"ids\" are taken only with \"new_ids\": true.");
        if (const QString wrong = readCopyIds(object.value(QLatin1String("ids")), &out.options.ids);
            !wrong.isEmpty())
            return wrong;
    }
    if (out.options.policy.grainBytes % 512 != 0)
        return QStringLiteral("\"grain\" must be a multiple of 512 bytes.");
    *params = out;
    return QString();
}

bool splitCopySource(const QString &text, QString *source, int *number)
{
    static const QRegularExpression tail(QStringLiteral("\\A(.+):([0-9]{1,3})\\z"));
    const auto m = tail.match(text);
    if (!m.hasMatch()) {
        *source = text;
        *number = 0;
        return !text.endsWith(QLatin1Char(':'));
    }
    *source = m.captured(1);
    *number = m.captured(2).toInt();
    return *number >= 1 && *number <= 128;
}

} // namespace partwise
