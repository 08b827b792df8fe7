#pragma once

#include "align/alignmentpolicy.h"
#include "align/alignmentverdict.h"
#include "align/partitionplacement.h"
#include "table/disklayout.h"

#include <QString>

class QComboBox;
class QWidget;

// What the create and resize dialogs share about where a partition lands: the "Align to" combo
// and the line that states the resulting sectors and their alignment verdict.
namespace PlacementControls {

// "Align to": MiB (the preferences' grain; the default), 4 KiB, Cylinder (legacy), None. Each
// item's data is an int(AlignTo).
QComboBox *createAlignToCombo(const partwise::AlignmentPolicy &policy, QWidget *parent = nullptr);

// The label in front of it: "Align &to:" (not &A, which "&Add to Queue" has).
QString alignToLabel();

// "Partition 2: sectors 2048 – 206847, 100 MiB — Aligned: …" for the partition at `row` of
// `layout`, judged under `policy` by core/align; `*status` receives the verdict.
QString resultText(const partwise::DiskLayout &layout, int row,
                   const partwise::AlignmentPolicy &policy,
                   partwise::AlignmentStatus *status = nullptr);

} // namespace PlacementControls
