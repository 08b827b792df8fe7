#pragma once

// The ids a copy with new identities changes (a filesystem's UUID, a partition's PARTUUID, a
// label), and their references rewritten in the text of the files that name them: fstab,
// crypttab, GRUB's grub.cfg and grubenv, boot loader entries, extlinux/syslinux configs, the
// kernel's command line. Pure: bytes in, bytes out.
//
// A reference is the old id as a whole token: not preceded or followed by a letter, digit or
// '-', so "UUID=x", "root=PARTUUID=x", "search --fs-uuid x" and "/dev/disk/by-uuid/x" match and
// a longer id containing it does not. UUIDs and PARTUUIDs match in any case and are written in
// the case the file used; a label only as LABEL=old (or by-label/old) with the exact case. Every
// other byte of the file is left as it was.

#include <QByteArray>
#include <QList>
#include <QString>

namespace partwise {

struct IdentityChange
{
    enum class Kind { Uuid, PartUuid, Label };
    Kind kind = Kind::Uuid;
    QString from, to;
};
QString identityKindName(IdentityChange::Kind kind); // "UUID", "PARTUUID", "LABEL"

struct IdentityEdit
{
    int line = 0; // 1-based
    IdentityChange change;
};

// `text` with every reference of `changes` rewritten; `edits` receives one entry per reference
// (may be null). Changes with an empty `from` or `to`, or `from` == `to`, are ignored.
QByteArray rewriteIdentities(const QByteArray &text, const QList<IdentityChange> &changes,
                             QList<IdentityEdit> *edits);

} // namespace partwise
