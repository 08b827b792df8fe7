#include "device/diskevent.h"

namespace partwise {

QString diskEventKindName(DiskEvent::Kind kind)
{
    switch (kind) {
    case DiskEvent::Kind::Added:
        return QStringLiteral("added");
    case DiskEvent::Kind::Removed:
        return QStringLiteral("removed");
    case DiskEvent::Kind::Changed:
        break;
    }
    return QStringLiteral("changed");
}

} // namespace partwise
