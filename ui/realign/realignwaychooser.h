#pragma once

#include "align/realignplan.h"

#include <QGroupBox>
#include <QList>

class QAbstractButton;
class QButtonGroup;
class QLabel;
class QRadioButton;
class QVBoxLayout;

// The plan page's choice of ways: for every partition the planner found more than one way to
// give room on the grain (move a neighbour, shrink the filesystem, ...), one radio button per
// way with what it costs underneath, the plan's own pick checked. A click is reported through
// wayPicked() and nothing else: the page plans again and hands the new choices back, so what is
// checked is always what the plan on screen does.
class RealignWayChooser : public QGroupBox
{
    Q_OBJECT

public:
    explicit RealignWayChooser(QWidget *parent = nullptr);

    // Shows the choices with more than one option (hidden when there is none). When the same
    // partitions are offered the same ways as before, the buttons stay and only their texts and
    // checks change, so keyboard focus survives a re-plan.
    void setChoices(const QList<partwise::RealignChoice> &choices);
    bool hasChoices() const { return !m_blocks.isEmpty(); }

    QList<int> partitions() const; // the partitions offered a choice, in the plan's order
    QList<partwise::RealignWay> ways(int number) const;
    int checkedIndex(int number) const; // -1: none offered
    QAbstractButton *button(int number, partwise::RealignWay way) const;
    QString costText(int number, partwise::RealignWay way) const;

    // What a way does for partition `number` and what it costs, for a person ("Move partition 2
    // after it up, then move it up" / "Copies 12 MiB; partition 2 moves too").
    static QString wayText(const partwise::RealignOption &option, int number);
    static QString costText(const partwise::RealignOption &option, int number);

signals:
    void wayPicked(int number, partwise::RealignWay way);

private:
    // The widgets of one partition's choice; what they offer is the choice at the same index
    // of m_offered.
    struct Block
    {
        QWidget *host = nullptr;
        QLabel *title = nullptr;
        QButtonGroup *group = nullptr;
        QList<QRadioButton *> radios;
        QList<QLabel *> costs;
    };
    void rebuild();
    static Block makeBlock(const partwise::RealignChoice &choice);
    static void fillBlock(const Block &block, const partwise::RealignChoice &choice);
    int indexOf(int number) const; // in m_offered and m_blocks; -1: not offered

    QVBoxLayout *m_layout = nullptr;
    QList<partwise::RealignChoice> m_offered; // the plan's choices with more than one way
    QList<Block> m_blocks;
};
