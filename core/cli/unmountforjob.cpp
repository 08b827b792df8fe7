#include "cli/unmountforjob.h"

#include "base/shellquote.h"

namespace partwise {

bool releaseForJob(const QString &target, const QList<int> &numbers, QTextStream &out,
                   QTextStream &err, QList<ReleasedPartition> *released)
{
    const ReleaseOutcome outcome = releasePartitions(target, numbers, [&out](const QString &line) {
        out << line << "\n";
        out.flush();
    });
    if (!outcome.ok) {
        err << "partwise-cli: " << outcome.error << "\nNothing was changed.\n";
        err.flush();
        return false;
    }
    *released = outcome.released;
    return true;
}

bool restoreAfterJob(const QList<ReleasedPartition> &released, bool stoppedMidway, QTextStream &out,
                     QTextStream &err)
{
    if (released.isEmpty())
        return true;
    if (stoppedMidway) {
        err << "partwise-cli: the job stopped part-way, so nothing was mounted back. After "
               "`partwise-cli resume`, mount it back with:\n";
        for (const ReleasedPartition &r : released) {
            for (const MountPlace &place : r.places)
                err << "  mount -t " << place.type << " " << shellQuoted(r.node.path) << " "
                    << shellQuoted(place.target) << "\n";
            if (r.swap)
                err << "  swapon " << shellQuoted(r.node.path) << "\n";
        }
        err.flush();
        return false;
    }
    const QStringList problems =
        restorePartitions(released, std::nullopt, [&out](const QString &line) {
            out << line << "\n";
            out.flush();
        });
    for (const QString &problem : problems)
        err << "partwise-cli: " << problem << "\n";
    err.flush();
    return problems.isEmpty();
}

} // namespace partwise
