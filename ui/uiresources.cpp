#include "uiresources.h"

#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside any namespace, hence this file.
void ensureUiResources()
{
#ifdef PARTWISE_HAVE_RESOURCES
    static const bool registered = [] {
        Q_INIT_RESOURCE(partwise);
        return true;
    }();
    Q_UNUSED(registered);
#endif
}
