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

// A change with its bytes converted once: matching runs for every byte of a file of up to
// 1 MiB against every change of a copy (two for each of up to 128 partitions), so nothing may
// be allocated there (that once cost 9 s of root's CPU for one crafted grub.cfg).
struct PreparedChange
{
    const IdentityChange *change = nullptr;
    QByteArray from, to;
};

bool endsWithAt(QByteArrayView line, qsizetype end, QByteArrayView prefix)
{
    return end >= prefix.size() && line.sliced(end - prefix.size(), prefix.size()) == prefix;
}

// The length of the reference of `c` at `at` in `line`, or 0.
qsizetype matchAt(QByteArrayView line, qsizetype at, const PreparedChange &c)
{
    const QByteArrayView from(c.from);
    const qsizetype end = at + from.size();
    if (end > line.size())
        return 0;
    const QByteArrayView here = line.sliced(at, from.size());
    if (c.change->kind != IdentityChange::Kind::Label) {
        if (at > 0 && isIdByte(line.at(at - 1)))
            return 0;
        if (here.compare(from, Qt::CaseInsensitive) != 0)
            return 0;
        return end < line.size() && isIdByte(line.at(end)) ? 0 : from.size();
    }
    if (here != from || (end != line.size() && !endsLabel(line.at(end))))
        return 0;
    const QByteArrayView label("LABEL=");
    // PARTLABEL= names a GPT partition, not the filesystem.
    if (endsWithAt(line, at, label) &&
        (at == label.size() || !isIdByte(line.at(at - label.size() - 1))))
        return from.size();
    return endsWithAt(line, at, "by-label/") ? from.size() : 0;
}

QByteArray rewriteLine(const QByteArray &line, int number, const QList<PreparedChange> &changes,
                       QList<IdentityEdit> *edits)
{
    QByteArray out;
    qsizetype at = 0;
    while (at < line.size()) {
        bool matched = false;
        for (const PreparedChange &c : changes) {
            const qsizetype length = matchAt(line, at, c);
            if (length == 0)
                continue;
            const QByteArray found = line.mid(at, length);
            out += c.change->kind == IdentityChange::Kind::Label ? c.to : inCaseOf(found, c.to);
            if (edits)
                *edits << IdentityEdit{number, *c.change};
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
    QList<PreparedChange> wanted;
    for (const IdentityChange &c : changes)
        if (!c.from.isEmpty() && !c.to.isEmpty() && c.from != c.to)
            wanted << PreparedChange{&c, c.from.toUtf8(), c.to.toUtf8()};
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
