#pragma once

#include "ops/operation.h"

#include <QByteArray>
#include <QList>

namespace partwise {

// Plan files: the pending queue as JSON ({"operations":[{"op":"create", ...}, ...]}), the
// shape README documents. The GUI saves them; `partwise-cli apply` runs them.
constexpr int kMaxPlanOperations = 1000;

bool parsePlan(const QByteArray &json, QList<Operation> *operations, QString *error);
QByteArray serializePlan(const QList<Operation> &operations);

} // namespace partwise
