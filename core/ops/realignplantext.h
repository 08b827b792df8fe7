#pragma once

// A realignment plan as a table for people: the ways each partition could go, where each one
// moves and how much it copies, and what stays and why. partwise-cli realign prints it before
// asking, and the Realign wizard writes it to its log, so both show the same words.

#include "align/realignplan.h"
#include "ops/realignrunner.h"

#include <QMap>
#include <QString>

namespace partwise {

// `copiedWhole`: why a partition is copied byte for byte (PreparedRealign::copiedWhole).
// `layerNotes`: what the plan means for LUKS and LVM inside (PreparedRealign::layerNotes).
QString realignPlanText(const RealignPlan &plan, const QMap<int, QString> &copiedWhole = {},
                        const QStringList &layerNotes = {});

// The whole prepared plan: the above, then what it does to booting ("boot: ..." for what
// Partwise fixes after a move, "boot BREAKS: ..." for what stops working).
QString realignPlanText(const PreparedRealign &prepared);

} // namespace partwise
