#include "editing/placementcontrols.h"

#include "align/misalignmentreport.h"
#include "alignmentstyle.h"
#include "base/humansize.h"

#include <QComboBox>
#include <QCoreApplication>

using namespace partwise;

namespace PlacementControls {

QComboBox *createAlignToCombo(const AlignmentPolicy &policy, QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(QStringLiteral("alignTo"));
    const QString grain = policy.grainBytes == AlignmentPolicy::kDefaultGrain
                              ? QCoreApplication::translate("Placement", "MiB")
                              : QCoreApplication::translate("Placement", "MiB (grain %1)")
                                    .arg(humanSize(policy.grainBytes));
    combo->addItem(grain, int(AlignTo::Grain));
    combo->setItemData(0,
                       QCoreApplication::translate(
                           "Placement", "Start and end on the grain from the preferences (%1)")
                           .arg(humanSize(policy.grainBytes)),
                       Qt::ToolTipRole);
    combo->addItem(QCoreApplication::translate("Placement", "4 KiB"), int(AlignTo::FourKiB));
    combo->addItem(QCoreApplication::translate("Placement", "Cylinder (legacy)"),
                   int(AlignTo::Cylinder));
    combo->addItem(QCoreApplication::translate("Placement", "None"), int(AlignTo::None));
    combo->setCurrentIndex(0);
    return combo;
}

QString alignToLabel()
{
    return QCoreApplication::translate("Placement", "Align &to:");
}

QString resultText(const DiskLayout &layout, int row, const AlignmentPolicy &policy,
                   AlignmentStatus *status)
{
    const PartitionInfo &p = layout.regions.at(row);
    const MisalignmentReport report = analyzeAlignment(layout, policy);
    const AlignmentVerdict verdict = report.verdicts.value(row);
    QString text =
        QCoreApplication::translate("Placement", "Partition %1: sectors %2 – %3, %4")
            .arg(p.number)
            .arg(p.startSector)
            .arg(p.endSector)
            .arg(humanSize(p.lengthSectors() * layout.device.topology.logicalSectorSize));
    if (verdict.status != AlignmentStatus::NotApplicable &&
        verdict.status != AlignmentStatus::Container)
        text +=
            QCoreApplication::translate("Placement", " — %1: %2")
                .arg(AlignmentStyle::title(verdict.status), verdict.explanation(report.geometry));
    if (status)
        *status = verdict.status;
    return text;
}

} // namespace PlacementControls
