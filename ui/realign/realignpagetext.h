#pragma once

// Small pieces the realignment wizard's pages share: texts and label factories.
#include "align/alignmentpolicy.h"
#include "align/realignplan.h"

#include <QString>

class QLabel;
class QVBoxLayout;
class QWidget;

namespace realigntext {

constexpr qint64 kMiB = qint64(1) << 20;
constexpr qint64 kFourK = 4096;
constexpr int kBarSteps = 1000;

QLabel *wrappingLabel(const QString &text = QString());
// Gives `page` a frameless scroll area filling it and returns the layout of the body it scrolls:
// what does not fit the wizard's size (a small screen, long texts, another language) scrolls
// instead of being squeezed over itself.
QVBoxLayout *scrollingBody(QWidget *page);
QString filesystemText(const QString &filesystem);
QString partitionTitle(int number, const QString &filesystem, const QString &label);
QString grainName(qint64 bytes);
// "Partition 2 (ext4 “home”)", or "Partition 2 (extended)" for a container's step.
QString moveTitle(const partwise::PartitionMove &move);
// What a table-only step of an extended partition does (it copies nothing), said beside its
// moveTitle().
QString tableOnlyText(const partwise::PartitionMove &move);
partwise::AlignmentPolicy withGrain(partwise::AlignmentPolicy policy, qint64 grain);

} // namespace realigntext
