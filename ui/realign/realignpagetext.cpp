#include "realign/realignpagetext.h"

#include "base/humansize.h"

#include <QCoreApplication>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

using namespace partwise;

namespace realigntext {

QLabel *wrappingLabel(const QString &text)
{
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QVBoxLayout *scrollingBody(QWidget *page)
{
    auto *outer = new QVBoxLayout(page);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto *body = new QWidget;
    scroll->setWidget(body);
    return new QVBoxLayout(body);
}

QString filesystemText(const QString &filesystem)
{
    return filesystem.isEmpty() ? QCoreApplication::translate("RealignWizard", "no filesystem")
                                : filesystem;
}

QString partitionTitle(int number, const QString &filesystem, const QString &label)
{
    const QString fs = filesystemText(filesystem);
    return label.isEmpty() ? QCoreApplication::translate("RealignWizard", "Partition %1 (%2)")
                                 .arg(number)
                                 .arg(fs)
                           : QCoreApplication::translate("RealignWizard", "Partition %1 (%2 “%3”)")
                                 .arg(number)
                                 .arg(fs, label);
}

QString grainName(qint64 bytes)
{
    return humanSize(bytes);
}

QString moveTitle(const PartitionMove &move)
{
    return move.tableOnly()
               ? QCoreApplication::translate("RealignWizard", "Partition %1 (extended)")
                     .arg(move.number)
               : partitionTitle(move.number, move.filesystem, move.label);
}

QString tableOnlyText(const PartitionMove &move)
{
    // Shown beside "Partition 2 (extended)": the title names the container already. The planner
    // widens a shifting container over both places first and narrows it last: the first step
    // takes the logical partitions' new places in, the last one is the real move.
    const bool widens = move.newStart <= move.oldStart && move.newEnd >= move.oldEnd &&
                        move.newLength() > move.oldLength();
    return widens ? QCoreApplication::translate("RealignWizard",
                                                "widened first, so its logical partitions can move")
                  : QCoreApplication::translate("RealignWizard",
                                                "moved in the table with its logical partitions");
}

AlignmentPolicy withGrain(AlignmentPolicy policy, qint64 grain)
{
    policy.grainBytes = grain;
    return policy;
}
} // namespace realigntext
