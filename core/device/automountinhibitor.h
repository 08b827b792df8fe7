#pragma once

// Keeping desktop automounters away from a disk while Partwise writes to it.
//
// udisks2 (GNOME, KDE) mounts a partition as soon as a filesystem appears on it, and a live
// session's systemd may do the same; a mount in the middle of a move or a format can destroy
// the filesystem being written. GParted's answer, which this follows, is a udev rule that
// marks the devices UDISKS_IGNORE for the duration. Here the rule names only the disk being
// written and its partitions, lives in /run (gone at reboot anyway), and carries the writer's
// process id in its name, so that a run killed before it could remove its rule has the rule
// removed at the next start of Partwise (removeStaleInhibitions). Images need none: nothing
// automounts a file.

#include <QString>

namespace partwise {

class AutomountInhibitor
{
public:
    // Writes the rule for `target` when it is a block device; for an image it does nothing.
    explicit AutomountInhibitor(const QString &target);
    ~AutomountInhibitor();
    AutomountInhibitor(const AutomountInhibitor &) = delete;
    AutomountInhibitor &operator=(const AutomountInhibitor &) = delete;

    QString rulePath() const { return m_rule; } // empty when nothing was needed or possible
    QString error() const { return m_error; }   // why a rule could not be written

    // /run/udev/rules.d, or PARTWISE_UDEV_RULES_DIR (tests).
    static QString rulesFolder();
    // Removes the rules of Partwise processes that no longer run; returns how many.
    static int removeStaleInhibitions();

private:
    QString m_rule;
    QString m_error;
};

} // namespace partwise
