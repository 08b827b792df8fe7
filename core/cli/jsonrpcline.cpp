#include "cli/jsonrpcline.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace partwise::jsonrpc {

namespace {

Request invalid(Request request, int code, const QString &message)
{
    request.errorCode = code;
    request.errorMessage = message;
    return request;
}

QByteArray line(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace

Request parseLine(const QByteArray &text)
{
    Request request;
    if (text.size() > kMaxLineBytes)
        return invalid(request, ParseError,
                       QStringLiteral("The line is longer than %1 bytes.").arg(kMaxLineBytes));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return invalid(request, ParseError,
                       QStringLiteral("Not JSON: %1.").arg(parseError.errorString()));
    if (!document.isObject())
        return invalid(request, InvalidRequest, QStringLiteral("A request is a JSON object."));
    const QJsonObject object = document.object();
    const QJsonValue id = object.value(QStringLiteral("id"));
    if (id.isUndefined())
        request.isNotification = true;
    else if (id.isDouble() || id.isString() || id.isNull())
        request.id = id;
    else
        return invalid(request, InvalidRequest,
                       QStringLiteral("\"id\" must be a number or a string."));
    if (object.value(QStringLiteral("jsonrpc")) != QJsonValue(QStringLiteral("2.0")))
        return invalid(request, InvalidRequest, QStringLiteral("\"jsonrpc\" must be \"2.0\"."));
    const QJsonValue method = object.value(QStringLiteral("method"));
    if (!method.isString() || method.toString().isEmpty())
        return invalid(request, InvalidRequest, QStringLiteral("\"method\" must be a string."));
    request.method = method.toString();
    const QJsonValue params = object.value(QStringLiteral("params"));
    if (!params.isUndefined() && !params.isObject())
        return invalid(request, InvalidParams, QStringLiteral("\"params\" must be an object."));
    request.params = params.toObject();
    return request;
}

QByteArray resultLine(const QJsonValue &id, const QJsonValue &result)
{
    return line({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                 {QStringLiteral("id"), id},
                 {QStringLiteral("result"), result}});
}

QByteArray errorLine(const QJsonValue &id, int code, const QString &message,
                     const QJsonObject &data)
{
    QJsonObject error{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isEmpty())
        error[QStringLiteral("data")] = data;
    return line({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                 {QStringLiteral("id"), id},
                 {QStringLiteral("error"), error}});
}

QByteArray notificationLine(const QString &method, const QJsonObject &params)
{
    return line({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                 {QStringLiteral("method"), method},
                 {QStringLiteral("params"), params}});
}

} // namespace partwise::jsonrpc
