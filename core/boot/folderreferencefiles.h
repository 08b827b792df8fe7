#pragma once

// ReferenceFiles (referencefiles.h) of a filesystem mounted for the edit, reached only through
// the descriptor of its root folder: every path is walked one component at a time with
// O_NOFOLLOW, so a link in the filesystem (a hostile image may hold etc/fstab -> /etc/shadow, or
// etc -> /etc) is never followed out of it; such a file is left alone and said so.

#include "boot/referencefiles.h"

namespace partwise {

class FolderReferenceFiles : public ReferenceFiles
{
public:
    explicit FolderReferenceFiles(int rootFd) : m_root(rootFd) {} // not owned

    Read read(const QString &path, QByteArray *bytes, QString *why) override;
    QStringList list(const QString &folder) override;
    bool writeNew(const QString &path, const QString &like, const QByteArray &bytes,
                  QString *why) override;
    bool rewrite(const QString &path, const QByteArray &bytes, QString *why) override;

private:
    int m_root;
};

} // namespace partwise
