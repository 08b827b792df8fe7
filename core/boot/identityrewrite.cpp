#include "boot/identityrewrite.h"

namespace partwise {

namespace {

bool isIdByte(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

// Where a label ends in the files concerned: whitespace, a quote or a list separator.
bool endsLabel(char c)
{
    return c == ' ' || c == '\t' || c == '"' || c == '\'' || c == ',' || c == ';' || c == '\r';
}

bool hasUpper(const QByteArray &b)
{
    for (char c : b)
        if (c >= 'A' && c <= 'Z')
            return true;
    return false;
}

bool hasLower(const QByteArray &b)
{
    for (char c : b)
        if (c >= 'a' && c <= 'z')
            return true;
    return false;
}

// The new id in the case the file wrote the old one (GRUB writes a FAT serial in capitals,
// some fstabs in small letters).
QByteArray inCaseOf(const QByteArray &found, const QByteArray &to)
{
    if (hasUpper(found) && !hasLower(found))
        return to.toUpper();
    if (hasLower(found) && !hasUpper(found))
        return to.toLower();
    return to;
}

// The length of the reference of `c` at `at` in `line`, or 0.
qsizetype matchAt(const QByteArray &line, qsizetype at, const IdentityChange &c)
{
    const QByteArray from = c.from.toUtf8();
    if (c.kind != IdentityChange::Kind::Label) {
        if (at > 0 && isIdByte(line.at(at - 1)))
            return 0;
        const qsizetype end = at + from.size();
        if (end > line.size() || line.mid(at, from.size()).toLower() != from.toLower())
            return 0;
        return end < line.size() && isIdByte(line.at(end)) ? 0 : from.size();
    }
    for (const QByteArray &prefix : {QByteArrayLiteral("LABEL="), QByteArrayLiteral("by-label/")}) {
        const qsizetype start = at - prefix.size();
        if (start < 0 || line.mid(start, prefix.size()) != prefix)
            continue;
        if (prefix.startsWith('L') && start > 0 && isIdByte(line.at(start - 1)))
            continue; // PARTLABEL= names a GPT partition, not the filesystem
        const qsizetype end = at + from.size();
        if (line.mid(at, from.size()) == from && (end == line.size() || endsLabel(line.at(end))))
            return from.size();
    }
    return 0;
}

QByteArray rewriteLine(const QByteArray &line, int number, const QList<IdentityChange> &changes,
                       QList<IdentityEdit> *edits)
{
    QByteArray out;
    qsizetype at = 0;
    while (at < line.size()) {
        bool matched = false;
        for (const IdentityChange &c : changes) {
            const qsizetype length = matchAt(line, at, c);
            if (length == 0)
                continue;
            const QByteArray found = line.mid(at, length);
            out += c.kind == IdentityChange::Kind::Label ? c.to.toUtf8()
                                                         : inCaseOf(found, c.to.toUtf8());
            if (edits)
                *edits << IdentityEdit{number, c};
            at += length;
            matched = true;
            break;
        }
        if (!matched)
            out += line.at(at++);
    }
    return out;
}

} // namespace

QString identityKindName(IdentityChange::Kind kind)
{
    switch (kind) {
    case IdentityChange::Kind::Uuid:
        return QStringLiteral("UUID");
    case IdentityChange::Kind::PartUuid:
        return QStringLiteral("PARTUUID");
    case IdentityChange::Kind::Label:
        return QStringLiteral("LABEL");
    }
    return QString();
}

QByteArray rewriteIdentities(const QByteArray &text, const QList<IdentityChange> &changes,
                             QList<IdentityEdit> *edits)
{
    QList<IdentityChange> wanted;
    for (const IdentityChange &c : changes)
        if (!c.from.isEmpty() && !c.to.isEmpty() && c.from != c.to)
            wanted << c;
    if (wanted.isEmpty())
        return text;
    QByteArray out;
    out.reserve(text.size());
    const QList<QByteArray> lines = text.split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        if (i > 0)
            out += '\n';
        out += rewriteLine(lines.at(i), i + 1, wanted, edits);
    }
    return out;
}

} // namespace partwise
