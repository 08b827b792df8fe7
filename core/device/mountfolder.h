#pragma once

// The folder root mounts a filesystem on. Mounting is root's alone, so a helper that mounts on a
// folder a user names could be made to cover /etc, /usr/bin or another user's home with a
// filesystem the user wrote (their own passwd, their own sudo). So a folder is resolved once,
// one component at a time without following a link, and judged on that open descriptor (never
// on a second look at the name): for a user, it must belong to that user. The mount is then
// made on that descriptor (/proc/self/fd/N), so a link or rename planted after the check is not
// followed. GParted's other way, /run/media/USER/LABEL, is made here too, in root's own folders.

#include <QString>

#include <optional>
#include <sys/types.h>

namespace partwise {

// An O_PATH descriptor of the folder `path` (a plain absolute path: no "..", "//" or trailing
// slash), or -1 with `why`. `owner` set: the folder must belong to that user. `nameStable`: only
// root could have changed what the path names.
int openMountFolder(const QString &path, std::optional<uid_t> owner, QString *why,
                    bool *nameStable = nullptr);

// /run/media/USER/LABEL for `uid`: /run/media is root's (0755), /run/media/USER root's with the
// user's group (0750), and LABEL a new empty folder of root's (a number is added when the name
// is taken). The label is made a plain name (no '/', no leading '.', no control characters).
// Returns an O_PATH descriptor and the path, or -1 with `why`.
int makeMediaFolder(uid_t uid, const QString &label, QString *path, QString *why);

// Removes the empty folder `path` (/run/media/USER/NAME of `uid`) that makeMediaFolder() made,
// once its filesystem is unmounted: the next mount of that label then gets its plain name again,
// and nothing is left behind in /run/media. False, with `why`, when it is not such a folder or
// not empty (something is mounted there again).
bool removeMediaFolder(uid_t uid, const QString &path, QString *why);
// Makes such a folder again at `path`, to mount a filesystem back where it was.
bool remakeMediaFolder(uid_t uid, const QString &path, QString *why);

// An automounter's folder that went away with its mount: udisks2 (and udiskie through it)
// mounts on /media/USER/LABEL or /run/media/USER/LABEL and removes that folder once the
// filesystem is unmounted, by whomever. Makes that one folder again (0700, root's) so that a
// filesystem is mounted back where the desktop had it. Only a plain name in such a folder of a
// user (`forUser`: that user's) that root owns and no one else may write; false with `why`
// for anything else, or when the name exists.
bool remakeAutomounterFolder(const QString &path, std::optional<uid_t> forUser, QString *why);

// The label as a folder name: '/' and control characters become '_', leading dots go; at most
// 64 characters; "disk" when nothing is left.
QString mediaFolderName(const QString &label);

} // namespace partwise
