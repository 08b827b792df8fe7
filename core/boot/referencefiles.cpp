#include "boot/referencefiles.h"

namespace partwise {

namespace {

// A name a filesystem's owner chose that the job must not pass on: control characters would
// forge lines of the job's log, and mtools expands * ? [ ] in the paths it is given (one
// rewrite could reach other files). No boot loader or fstab names such a file.
bool unsafeName(const QString &name)
{
    for (const QChar c : name)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || QStringLiteral("*?[]\\").contains(c))
            return true;
    return false;
}

// The patterns' "*" expanded through the filesystem's folders; names left out are noted.
QStringList expand(ReferenceFiles &files, const QString &pattern, QStringList *leftAlone)
{
    const qsizetype star = pattern.indexOf(QLatin1Char('*'));
    if (star < 0)
        return {pattern};
    const QString folder = pattern.left(star - 1);
    const QString rest = pattern.mid(star + 1); // ".conf", or "/grub.cfg"
    QStringList out;
    for (const QString &name : files.list(folder)) {
        if (unsafeName(name)) {
            *leftAlone << QStringLiteral("/%1/… left alone: a name with control or wildcard "
                                         "characters")
                              .arg(folder);
            continue;
        }
        if (rest.startsWith(QLatin1Char('/')))
            out << folder + QLatin1Char('/') + name + rest;
        else if (name.endsWith(rest) && name.size() > rest.size())
            out << folder + QLatin1Char('/') + name;
    }
    return out;
}

QString editLine(const QString &path, const IdentityEdit &e)
{
    return QStringLiteral("/%1 line %2: %3 %4 -> %5")
        .arg(path)
        .arg(e.line)
        .arg(identityKindName(e.change.kind), e.change.from, e.change.to);
}

} // namespace

QStringList referenceFilePatterns()
{
    return {QStringLiteral("etc/fstab"),
            QStringLiteral("etc/crypttab"),
            QStringLiteral("etc/kernel/cmdline"),
            QStringLiteral("boot/grub/grub.cfg"),
            QStringLiteral("boot/grub/grubenv"),
            QStringLiteral("grub/grub.cfg"),
            QStringLiteral("grub/grubenv"),
            QStringLiteral("EFI/*/grub.cfg"),
            QStringLiteral("boot/loader/entries/*.conf"),
            QStringLiteral("loader/entries/*.conf"),
            QStringLiteral("boot/extlinux/extlinux.conf"),
            QStringLiteral("extlinux/extlinux.conf"),
            QStringLiteral("extlinux.conf"),
            QStringLiteral("boot/syslinux/syslinux.cfg"),
            QStringLiteral("syslinux/syslinux.cfg"),
            QStringLiteral("syslinux.cfg")};
}

ReferenceOutcome rewriteReferenceFiles(ReferenceFiles &files, const QList<IdentityChange> &changes,
                                       const QString &backupSuffix)
{
    ReferenceOutcome outcome;
    for (const QString &pattern : referenceFilePatterns()) {
        for (const QString &path : expand(files, pattern, &outcome.lines)) {
            QByteArray current, original;
            QString why;
            const ReferenceFiles::Read read = files.read(path, &current, &why);
            if (read == ReferenceFiles::Read::Missing)
                continue;
            if (read == ReferenceFiles::Read::NotPlain) {
                outcome.lines << QStringLiteral("/%1 left alone: %2").arg(path, why);
                continue;
            }
            if (read == ReferenceFiles::Read::Failed) {
                outcome.ok = false;
                outcome.error = QStringLiteral("Reading /%1 failed: %2").arg(path, why);
                return outcome;
            }
            // A backup of this job's name holds the original: an earlier run was stopped.
            const QString backup = path + backupSuffix;
            const ReferenceFiles::Read kept = files.read(backup, &original, &why);
            if (kept != ReferenceFiles::Read::Ok && kept != ReferenceFiles::Read::Missing) {
                // Not a file this job wrote (a folder or link of the owner's): no backup can be
                // made under that name, so the file is not rewritten.
                outcome.lines
                    << QStringLiteral("/%1 left alone: /%2 is taken (%3)").arg(path, backup, why);
                continue;
            }
            const bool backedUp = kept == ReferenceFiles::Read::Ok;
            if (!backedUp)
                original = current;
            QList<IdentityEdit> edits;
            const QByteArray updated = rewriteIdentities(original, changes, &edits);
            if (edits.isEmpty() || updated == current)
                continue;
            if (!backedUp && !files.writeNew(backup, path, original, &why)) {
                outcome.ok = false;
                outcome.error =
                    QStringLiteral("Keeping /%1 as /%2 failed: %3").arg(path, backup, why);
                return outcome;
            }
            if (!files.rewrite(path, updated, &why)) {
                outcome.ok = false;
                outcome.error = QStringLiteral("Rewriting /%1 failed: %2 (its original is /%3)")
                                    .arg(path, why, backup);
                return outcome;
            }
            ++outcome.filesChanged;
            for (const IdentityEdit &e : edits)
                outcome.lines << editLine(path, e);
            outcome.lines << QStringLiteral("/%1 kept as /%2").arg(path, backup);
        }
    }
    return outcome;
}

} // namespace partwise
