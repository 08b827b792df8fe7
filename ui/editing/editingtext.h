#pragma once

#include <QString>

// "1 operation", "3 operations": English plurals that read right without a translation loaded.
QString operationCountText(int count);
QString partitionCountText(int count);
