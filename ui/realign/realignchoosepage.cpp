#include "realign/realignpages.h"

#include "align/alignmentgeometry.h"
#include "align/alignmentverdict.h"
#include "align/misalignmentreport.h"
#include "alignmentstyle.h"
#include "base/humansize.h"
#include "realign/realignpagetext.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QRadioButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace partwise;

using namespace realigntext;

enum ChooseColumn { NumberColumn, FsColumn, StartColumn, StatusColumn };

RealignChoosePage::RealignChoosePage(RealignWizardState *state) : m_state(state)
{
    setObjectName(QStringLiteral("realignChoosePage"));
    setTitle(tr("Choose the partitions and the target"));
    setSubTitle(tr("Misaligned partitions are chosen for you; the others are optional."));
    auto *layout = new QVBoxLayout(this);

    auto *target = new QGroupBox(tr("Move the partitions to"));
    auto *targetLayout = new QVBoxLayout(target);
    auto *group = new QButtonGroup(this);
    m_mib = new QRadioButton(tr("1 MiB grain (recommended)"));
    m_mib->setObjectName(QStringLiteral("grainMiB"));
    m_mib->setChecked(true);
    targetLayout->addWidget(m_mib);
    auto *mibHint = wrappingLabel(tr("Suits every drive, SSD and RAID; each partition moves by up "
                                     "to 1 MiB. What partitioning tools use today."));
    mibHint->setIndent(24);
    targetLayout->addWidget(mibHint);
    m_fourK = new QRadioButton(tr("4 KiB (smallest move)"));
    m_fourK->setObjectName(QStringLiteral("grain4K"));
    targetLayout->addWidget(m_fourK);
    auto *fourKHint =
        wrappingLabel(tr("The next physical sector: the least data to rewrite, enough "
                         "for Advanced Format drives, but not on an SSD's or a RAID "
                         "array's larger blocks."));
    fourKHint->setIndent(24);
    targetLayout->addWidget(fourKHint);
    group->addButton(m_mib);
    group->addButton(m_fourK);
    const qint64 preferred = m_state->setup().policy.grainBytes;
    if (preferred != kMiB && preferred != kFourK) {
        m_preferred =
            new QRadioButton(tr("%1 grain, as in the preferences").arg(grainName(preferred)));
        m_preferred->setObjectName(QStringLiteral("grainPreferred"));
        targetLayout->addWidget(m_preferred);
        group->addButton(m_preferred);
    }
    layout->addWidget(target);

    auto *parts = new QGroupBox(tr("Partitions"));
    auto *partsLayout = new QVBoxLayout(parts);
    m_list = new QTreeWidget;
    m_list->setObjectName(QStringLiteral("realignPartitions"));
    m_list->setAccessibleName(tr("Partitions to realign"));
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("Partition"), tr("Filesystem"), tr("Start sector"), tr("Status")});
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(true);
    partsLayout->addWidget(m_list);
    layout->addWidget(parts, 1);

    m_verify = new QCheckBox(tr("&Verify the moved data (read it back and compare; slower)"));
    m_verify->setObjectName(QStringLiteral("verifyData"));
    m_verify->setChecked(m_state->setup().options.verify);
    layout->addWidget(m_verify);

    connect(group, &QButtonGroup::buttonToggled, this, [this](QAbstractButton *, bool on) {
        if (on)
            refreshStatuses();
    });
    connect(m_list, &QTreeWidget::itemChanged, this, &RealignChoosePage::publish);
    connect(m_verify, &QCheckBox::toggled, this, &RealignChoosePage::publish);
    connect(m_state, &RealignWizardState::choiceChanged, this, &RealignChoosePage::completeChanged);
    publish();
}

void RealignChoosePage::publish()
{
    m_state->setChoice(checkedPartitions(), grainBytes(), verify());
}

void RealignChoosePage::initializePage()
{
    if (m_filled)
        return; // coming back from the plan: keep the choices
    m_filled = true;
    const RealignSetup &setup = m_state->setup();
    const MisalignmentReport report = analyzeAlignment(setup.layout, setup.policy);
    QSignalBlocker block(m_list);
    for (int i = 0; i < setup.layout.regions.size(); ++i) {
        const PartitionInfo &p = setup.layout.regions.at(i);
        if (p.isFree() || p.isContainer())
            continue;
        auto *item = new QTreeWidgetItem(m_list);
        item->setData(NumberColumn, Qt::UserRole, p.number);
        item->setText(NumberColumn, p.label.isEmpty()
                                        ? tr("Partition %1").arg(p.number)
                                        : tr("Partition %1 “%2”").arg(p.number).arg(p.label));
        item->setText(FsColumn, filesystemText(p.filesystem));
        item->setText(StartColumn, QString::number(p.startSector));
        item->setTextAlignment(StartColumn, Qt::AlignRight | Qt::AlignVCenter);
        const bool misaligned = i < report.verdicts.size() &&
                                report.verdicts.at(i).status == AlignmentStatus::Misaligned;
        item->setCheckState(NumberColumn, misaligned || setup.preselect.contains(p.number)
                                              ? Qt::Checked
                                              : Qt::Unchecked);
    }
    refreshStatuses();
}

void RealignChoosePage::refreshStatuses()
{
    const RealignSetup &setup = m_state->setup();
    const AlignmentGeometry g = resolveAlignmentGeometry(setup.layout.device.topology,
                                                         withGrain(setup.policy, grainBytes()));
    QSignalBlocker block(m_list);
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        const PartitionInfo *p =
            setup.layout.partitionByNumber(item->data(NumberColumn, Qt::UserRole).toInt());
        if (!p)
            continue;
        const AlignmentVerdict v = judgePartition(*p, g);
        const bool wasSelectable = item->flags().testFlag(Qt::ItemIsUserCheckable);
        switch (v.status) {
        case AlignmentStatus::Misaligned:
            item->setText(StatusColumn, tr("misaligned: %1 bytes past a %2 boundary")
                                            .arg(groupedNumber(v.misalignmentBytes))
                                            .arg(grainName(g.physicalAssumed)));
            break;
        case AlignmentStatus::SectorAligned:
            item->setText(StatusColumn, tr("on a physical sector, not on the %1 grain (optional)")
                                            .arg(grainName(g.grainBytes)));
            break;
        default:
            item->setText(StatusColumn, tr("already on the %1 grain").arg(grainName(g.grainBytes)));
            break;
        }
        item->setIcon(StatusColumn, AlignmentStyle::icon(v.status));
        const bool selectable =
            v.status == AlignmentStatus::Misaligned || v.status == AlignmentStatus::SectorAligned;
        Qt::ItemFlags flags = Qt::ItemIsSelectable;
        if (selectable)
            flags |= Qt::ItemIsEnabled | Qt::ItemIsUserCheckable;
        item->setFlags(flags);
        if (!selectable)
            item->setCheckState(NumberColumn, Qt::Unchecked);
        else if (!wasSelectable)
            item->setCheckState(NumberColumn, v.status == AlignmentStatus::Misaligned
                                                  ? Qt::Checked
                                                  : Qt::Unchecked);
    }
    publish(); // the list's signals were blocked
    emit completeChanged();
}

bool RealignChoosePage::isComplete() const
{
    return !m_state->partitions().isEmpty();
}

qint64 RealignChoosePage::grainBytes() const
{
    if (m_fourK->isChecked())
        return kFourK;
    if (m_preferred && m_preferred->isChecked())
        return m_state->setup().policy.grainBytes;
    return kMiB;
}

void RealignChoosePage::setGrainBytes(qint64 bytes)
{
    if (bytes == kFourK)
        m_fourK->setChecked(true);
    else if (m_preferred && bytes == m_state->setup().policy.grainBytes)
        m_preferred->setChecked(true);
    else
        m_mib->setChecked(true);
}

QList<int> RealignChoosePage::checkedPartitions() const
{
    QList<int> numbers;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->checkState(NumberColumn) == Qt::Checked &&
            item->flags().testFlag(Qt::ItemIsUserCheckable))
            numbers << item->data(NumberColumn, Qt::UserRole).toInt();
    }
    return numbers;
}

void RealignChoosePage::setPartitionChecked(int number, bool checked)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->data(NumberColumn, Qt::UserRole).toInt() == number &&
            item->flags().testFlag(Qt::ItemIsUserCheckable))
            item->setCheckState(NumberColumn, checked ? Qt::Checked : Qt::Unchecked);
    }
}

bool RealignChoosePage::isPartitionSelectable(int number) const
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->data(NumberColumn, Qt::UserRole).toInt() == number)
            return item->flags().testFlag(Qt::ItemIsUserCheckable);
    }
    return false;
}

bool RealignChoosePage::verify() const
{
    return m_verify->isChecked();
}
