#include "device/systemswap.h"

#include "base/mounttable.h"

#include <QFile>
#include <QMap>

#include <optional>

#include <blkid/blkid.h>
#include <sys/stat.h>

namespace partwise {

namespace {

// The tags fstab may name `node` by, read from the node itself by libblkid: its swap
// signature's UUID and LABEL, its partition entry's PARTUUID and PARTLABEL. A value a user's
// copy of the disk shares only makes the refusal wider, never narrower.
// Nullopt when the node cannot be probed: then any named entry may be it.
std::optional<QMap<QString, QString>> tagsOf(const PartitionNode &node)
{
    QMap<QString, QString> tags;
    blkid_probe pr = blkid_new_probe_from_filename(QFile::encodeName(node.path).constData());
    if (!pr)
        return std::nullopt;
    blkid_probe_enable_superblocks(pr, 1);
    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID);
    blkid_probe_enable_partitions(pr, 1);
    blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
    const int probed = blkid_do_safeprobe(pr); // 1: nothing found, negative: no answer
    if (probed == 0) {
        const struct
        {
            const char *probeName, *fstabName;
        } names[] = {{"UUID", "UUID"},
                     {"LABEL", "LABEL"},
                     {"PART_ENTRY_UUID", "PARTUUID"},
                     {"PART_ENTRY_NAME", "PARTLABEL"}};
        for (const auto &n : names) {
            const char *value = nullptr;
            if (blkid_probe_lookup_value(pr, n.probeName, &value, nullptr) == 0 && value)
                tags.insert(QLatin1String(n.fstabName), QString::fromUtf8(value));
        }
    }
    blkid_free_probe(pr);
    if (probed < 0)
        return std::nullopt;
    return tags;
}

bool sameDevice(const QString &path, dev_t device)
{
    struct stat st
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISBLK(st.st_mode) &&
           st.st_rdev == device;
}

} // namespace

bool isSystemSwap(const PartitionNode &node, QString *entry, const QString &fstab)
{
    // What cannot be read is no answer of "not the system's": the swap stays on.
    bool readable = true;
    const QStringList sources = fstabSwapSources(fstab, &readable);
    if (!readable) {
        if (entry)
            entry->clear();
        return true;
    }
    if (sources.isEmpty())
        return false;
    const std::optional<QMap<QString, QString>> tags = tagsOf(node);
    for (const QString &source : sources) {
        const qsizetype eq = source.indexOf(QLatin1Char('='));
        const bool named = eq > 0 && !source.startsWith(QLatin1Char('/'));
        const bool matches =
            named ? !tags || (tags->value(source.left(eq).toUpper()) == source.mid(eq + 1) &&
                              !source.mid(eq + 1).isEmpty())
                  : sameDevice(source, node.device); // fstab is root's: its paths are trusted
        if (matches) {
            if (entry)
                *entry = tags || !named ? source
                                        : QStringLiteral("%1 (its own signatures could not be read "
                                                         "to rule that out)")
                                              .arg(source);
            return true;
        }
    }
    return false;
}

} // namespace partwise
