#include "mount/diskreleaser.h"

#include "mount/partitionmounter.h"

#include <QJsonArray>

using namespace partwise;

DiskReleaser::DiskReleaser(PartitionMounter *mounter, QObject *parent)
    : QObject(parent), m_mounter(mounter)
{
}

void DiskReleaser::release(const DiskEntry &entry, const Done &done, const QList<int> &numbers)
{
    QList<Freed> todo;
    for (const PartitionInfo &p : entry.layout.partitions())
        if (p.number > 0 && !p.filesystem.isEmpty() &&
            (numbers.isEmpty() || numbers.contains(p.number)))
            todo << Freed{p.number, p.filesystem == QLatin1String("swap")};
    next(entry, todo, false, done, {});
}

void DiskReleaser::restore(const DiskEntry &entry, const Done &done)
{
    next(entry, m_freed.take(entry.path), true, done, {});
}

void DiskReleaser::next(const DiskEntry &entry, QList<Freed> todo, bool restoring, const Done &done,
                        QStringList problems)
{
    if (todo.isEmpty()) {
        done(problems.isEmpty(), problems.join(QLatin1Char('\n')));
        return;
    }
    const Freed part = todo.takeFirst();
    const QString method =
        restoring ? (part.swap ? QStringLiteral("swapon") : QStringLiteral("mount"))
                  : (part.swap ? QStringLiteral("swapoff") : QStringLiteral("unmount"));
    const QJsonObject extra =
        restoring && !part.swap ? QJsonObject{{QStringLiteral("back"), true}} : QJsonObject();
    QPointer<DiskReleaser> self(this);
    m_mounter->call(
        entry, method, part.number, extra,
        [self, entry, todo, restoring, done, problems, part](const HelperReply &reply) {
            if (!self)
                return;
            QStringList said = problems;
            if (!reply.ok()) {
                if (!restoring) {
                    done(false, reply.error);
                    return;
                }
                said << reply.error;
            } else if (!restoring) {
                const bool changed =
                    part.swap
                        ? reply.result.value(QStringLiteral("was_on")).toBool()
                        : !reply.result.value(QStringLiteral("unmounted")).toArray().isEmpty();
                if (changed)
                    self->m_freed[entry.path] << part;
            }
            self->next(entry, todo, restoring, done, said);
        });
}
