#include "realign/realignpages.h"

#include "align/alignmentgeometry.h"
#include "align/misalignmentreport.h"
#include "base/humansize.h"
#include "realign/realignpagetext.h"

#include <QLabel>
#include <QVBoxLayout>

using namespace partwise;

using namespace realigntext;

RealignIntroPage::RealignIntroPage(RealignWizardState *state) : m_state(state)
{
    setObjectName(QStringLiteral("realignIntroPage"));
    setTitle(tr("Partitions out of step with the drive"));
    auto *layout = new QVBoxLayout(this);
    m_summary = wrappingLabel();
    m_summary->setObjectName(QStringLiteral("realignSummary"));
    layout->addWidget(m_summary);
    m_map = new RealignMap;
    m_map->setObjectName(QStringLiteral("realignIntroMap"));
    layout->addWidget(m_map);
    m_details = wrappingLabel();
    m_details->setObjectName(QStringLiteral("realignDetails"));
    m_details->setTextFormat(Qt::RichText);
    layout->addWidget(m_details);
    auto *how = wrappingLabel(
        tr("Realigning moves each partition's data to the next boundary that suits the drive, "
           "keeping its size and its contents. A journal kept outside the partition records every "
           "step, so a crash or a power cut in the middle loses nothing: Partwise finishes the "
           "move the next time the disk is opened."));
    layout->addWidget(how);
    layout->addStretch(1);
}

void RealignIntroPage::initializePage()
{
    const RealignSetup &setup = m_state->setup();
    m_map->setDisk(setup.layout, setup.policy);
    const MisalignmentReport report = analyzeAlignment(setup.layout, setup.policy);
    const AlignmentGeometry &g = report.geometry;
    setSubTitle(tr("%1 — %2, %3-byte sectors, checked against %4 physical sectors.")
                    .arg(setup.shownName(), humanSize(setup.layout.device.sizeBytes))
                    .arg(g.logicalSectorSize)
                    .arg(humanSize(g.physicalAssumed)));
    const int misaligned = report.misalignedCount();
    if (misaligned > 0)
        m_summary->setText(
            (misaligned == 1
                 ? tr("1 partition on this disk starts part-way into a physical sector (outlined "
                      "in red).")
                 : tr("%1 partitions on this disk start part-way into a physical sector "
                      "(outlined in red).")
                       .arg(misaligned)) +
            QLatin1Char(' ') +
            tr("Every 4 KiB the system writes there straddles two of the drive's sectors, so the "
               "drive has to read, change and write both: writes can become several times "
               "slower, and flash wears faster."));
    else if (report.sectorAlignedCount() == 1)
        m_summary->setText(tr("No partition on this disk is misaligned. 1 partition starts on a "
                              "physical sector but not on the %1 grain (outlined in amber); "
                              "moving it is optional.")
                               .arg(grainName(g.grainBytes)));
    else
        m_summary->setText(tr("No partition on this disk is misaligned. %1 partitions start on a "
                              "physical sector but not on the %2 grain (outlined in amber); "
                              "moving them is optional.")
                               .arg(report.sectorAlignedCount())
                               .arg(grainName(g.grainBytes)));

    QStringList lines;
    for (int i = 0; i < setup.layout.regions.size() && i < report.verdicts.size(); ++i) {
        const PartitionInfo &p = setup.layout.regions.at(i);
        const AlignmentVerdict &v = report.verdicts.at(i);
        if (v.status != AlignmentStatus::Misaligned && v.status != AlignmentStatus::SectorAligned)
            continue;
        lines << tr("<b>%1</b>, at sector %2, %3.")
                     .arg(partitionTitle(p.number, p.filesystem, p.label).toHtmlEscaped())
                     .arg(p.startSector)
                     .arg(v.explanation(g).toHtmlEscaped());
    }
    m_details->setText(lines.join(QStringLiteral("<br>")));
}

QString RealignIntroPage::explanation() const
{
    return m_summary->text() + QLatin1Char('\n') + m_details->text();
}
