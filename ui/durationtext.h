#pragma once

#include <QString>

// A time left or an estimate as the window says it: "45 s", "3 min 20 s", "2 h 5 min" (never
// below 1 s). Said by Apply's progress and the realignment wizard alike.
QString durationText(double seconds);
