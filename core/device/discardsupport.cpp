#include "device/discardsupport.h"

#include "device/sysfsline.h"

#include <QFile>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace partwise {

DiscardSupport discardSupportOf(const QString &path)
{
    DiscardSupport support;
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0) {
        support.why = QStringLiteral("%1 cannot be read").arg(path);
        return support;
    }
    if (S_ISREG(st.st_mode)) {
        support.way = DiscardWay::PunchHoles;
        return support;
    }
    if (!S_ISBLK(st.st_mode)) {
        support.why = QStringLiteral("%1 is neither a disk nor an image").arg(path);
        return support;
    }
    // A partition has no queue folder of its own; its disk's is one level up.
    const QString device =
        QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev));
    QString maxBytes = sysfsLine(device + QStringLiteral("/queue/discard_max_bytes"));
    QString queue = device + QStringLiteral("/queue/");
    if (maxBytes.isEmpty()) {
        queue = device + QStringLiteral("/../queue/");
        maxBytes = sysfsLine(queue + QStringLiteral("discard_max_bytes"));
    }
    if (maxBytes.toLongLong() <= 0) {
        support.why = QStringLiteral("%1 does not take discards (TRIM)").arg(path);
        return support;
    }
    support.way = DiscardWay::Trim;
    support.granularity = sysfsLine(queue + QStringLiteral("discard_granularity")).toLongLong();
    return support;
}

} // namespace partwise
