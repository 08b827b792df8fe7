#pragma once

#include "realignfixtures.h"

#include <QDir>
#include <QMap>

namespace pwtest {

class TemplateShelf
{
public:
    // Images live in `dir`; filesystems are filled from `source`, whose files hash to `expected`.
    TemplateShelf(const QString &dir, const QString &source,
                  const QMap<QString, QByteArray> &expected);

    bool build(const Layout &layout, QString *error);
    // A sparse copy of the layout's image named `name`, with no journal beside it.
    QString freshCopy(const QString &layout, const QString &name);
    // What is wrong with a realigned copy of `t`, as independent tools see it.
    QStringList verify(const Template &t, const QString &image);

    const Template &operator[](const QString &layout) const
    {
        return m_templates.find(layout).value();
    }

private:
    // A partition made and filled before (same filesystem, label, start and size: all that
    // mkfs and the fill are given), copied into `image` instead of made again.
    bool reuseBuiltPartition(const PartSpec &p, const QString &image, BlkidInfo *id,
                             QString *error) const;
    bool keepBuiltPartition(const PartSpec &p, const QString &image, const BlkidInfo &id,
                            QString *error);

    QDir m_dir;
    QString m_source;
    QMap<QString, QByteArray> m_expected;
    QMap<QString, Template> m_templates;
    struct BuiltPartition
    {
        QString path;
        BlkidInfo id;
    };
    QMap<QString, BuiltPartition> m_partitions; // by partitionKey()
};

} // namespace pwtest
