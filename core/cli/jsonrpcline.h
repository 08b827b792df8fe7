#pragma once

// JSON-RPC 2.0, one object per line, as `partwise-cli serve` speaks it (README's
// "The helper protocol"). A line is read into a request or into the error it earns; answers
// and notifications are written as single lines. Qt's JSON parser reads the text: nothing
// here parses by hand, and a line longer than kMaxLineBytes is refused before it is parsed.

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace partwise::jsonrpc {

enum ErrorCode {
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InvalidParams = -32602,
    // The server's own: a target refused by the guard, a long job already running, a job that
    // failed.
    Refused = -32001,
    Busy = -32002,
    Failed = -32003,
};

constexpr qsizetype kMaxLineBytes = 1 << 20;

struct Request
{
    QJsonValue id = QJsonValue::Null; // a number or a string; null when it could not be read
    QString method;
    QJsonObject params;
    bool isNotification = false; // no "id": nothing is answered
    // When the line is not a valid request: the error to answer with (0: valid).
    int errorCode = 0;
    QString errorMessage;
};

Request parseLine(const QByteArray &line);

QByteArray resultLine(const QJsonValue &id, const QJsonValue &result);
// `data`, when not empty, carries what a failed job left (its journal, whether it can resume).
QByteArray errorLine(const QJsonValue &id, int code, const QString &message,
                     const QJsonObject &data = {});
QByteArray notificationLine(const QString &method, const QJsonObject &params);

} // namespace partwise::jsonrpc
