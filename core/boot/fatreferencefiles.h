#pragma once

// ReferenceFiles (referencefiles.h) of a FAT filesystem (an ESP, a syslinux /boot) through
// mtools, at its offset inside a disk or image, without mounting it: this machine's kernel may
// have no vfat driver, and FAT has no links to be steered by. Each file passes through a private
// scratch folder (0700) that lives as long as this object.

#include "boot/referencefiles.h"

#include <QTemporaryDir>

namespace partwise {

class FatReferenceFiles : public ReferenceFiles
{
public:
    FatReferenceFiles(const QString &path, qint64 offset);

    Read read(const QString &path, QByteArray *bytes, QString *why) override;
    QStringList list(const QString &folder) override;
    bool writeNew(const QString &path, const QString &like, const QByteArray &bytes,
                  QString *why) override;
    bool rewrite(const QString &path, const QByteArray &bytes, QString *why) override;

private:
    QString m_path;
    QString m_image; // "disk.img@@1048576", as mtools takes it
    QTemporaryDir m_scratch;
};

} // namespace partwise
