#include "realign/realignwaychooser.h"

#include "base/humansize.h"
#include "realign/realignpagetext.h"

#include <QButtonGroup>
#include <QLabel>
#include <QRadioButton>
#include <QStyle>
#include <QVBoxLayout>

using namespace partwise;

using namespace realigntext;

namespace {

// The partitions a way moves besides the one it is for: those whose data is copied, and the
// extended partitions that only change their place in the table (listed apart, since nothing
// of theirs is copied).
struct Neighbours
{
    QStringList data;
    QStringList containers;
};

Neighbours neighboursOf(const RealignOption &option, int number)
{
    Neighbours n;
    for (const PartitionMove &m : option.moves) {
        if (m.number == number)
            continue;
        QStringList &list = m.tableOnly() ? n.containers : n.data;
        const QString text = QString::number(m.number);
        if (!list.contains(text))
            list << text;
    }
    return n;
}

// The step of `option` that moves partition `number` itself.
const PartitionMove *moveOf(const RealignOption &option, int number)
{
    for (const PartitionMove &m : option.moves)
        if (m.number == number)
            return &m;
    return nullptr;
}

QList<RealignWay> waysOf(const RealignChoice &choice)
{
    QList<RealignWay> ways;
    for (const RealignOption &o : choice.options)
        ways << o.way;
    return ways;
}

// Whether `a` offers the same partitions the same ways as `b`, in the same order.
bool sameWays(const QList<RealignChoice> &a, const QList<RealignChoice> &b)
{
    if (a.size() != b.size())
        return false;
    for (int i = 0; i < a.size(); ++i)
        if (a[i].number != b[i].number || waysOf(a[i]) != waysOf(b[i]))
            return false;
    return true;
}

} // namespace

RealignWayChooser::RealignWayChooser(QWidget *parent) : QGroupBox(parent)
{
    setObjectName(QStringLiteral("planWays"));
    setTitle(tr("Ways to make room"));
    m_layout = new QVBoxLayout(this);
    m_layout->addWidget(wrappingLabel(tr("The place on the grain is taken, so room has to be "
                                         "made. Pick a way: the cheapest is listed first, and "
                                         "the plan below follows your pick.")));
    setVisible(false);
}

QString RealignWayChooser::wayText(const RealignOption &option, int number)
{
    const Neighbours n = neighboursOf(option, number);
    // A shift that only moves an extended partition (one without logical partitions) still
    // names what moves.
    const QStringList moved = n.data.isEmpty() ? n.containers : n.data;
    const QString list = moved.join(QStringLiteral(", "));
    switch (option.way) {
    case RealignWay::MoveUp:
        return tr("Move it up into the free space after it");
    case RealignWay::MoveDown:
        return tr("Move it down into the free space before it");
    case RealignWay::Shrink:
        // Room at its own end, its filesystem already small enough: no shrink worth naming.
        return option.shrinkBytes > 0 ? tr("Shrink its filesystem by %1, then move it up")
                                            .arg(humanSize(option.shrinkBytes))
                                      : tr("Move it up into the unused room at its end");
    case RealignWay::ShiftFollowing:
        return moved.size() == 1 ? tr("Move partition %1 after it up, then move it up").arg(list)
                                 : tr("Move partitions %1 after it up, then move it up").arg(list);
    case RealignWay::ShiftPreceding:
        return moved.size() == 1
                   ? tr("Move partition %1 before it down, then move it down").arg(list)
                   : tr("Move partitions %1 before it down, then move it down").arg(list);
    }
    return QString();
}

QString RealignWayChooser::costText(const RealignOption &option, int number)
{
    QStringList parts;
    parts << (option.bytesToMove > 0 ? tr("copies %1").arg(humanSize(option.bytesToMove))
                                     : tr("copies nothing"));
    if (option.shrinkBytes > 0) {
        const PartitionMove *own = moveOf(option, number);
        parts << tr("the %1 filesystem of partition %2 gives up %3 first")
                     .arg(filesystemText(own ? own->filesystem : QString()))
                     .arg(number)
                     .arg(humanSize(option.shrinkBytes));
    }
    const Neighbours n = neighboursOf(option, number);
    if (n.data.size() == 1)
        parts << tr("partition %1 moves too").arg(n.data.first());
    else if (n.data.size() > 1)
        parts << tr("partitions %1 move too").arg(n.data.join(QStringLiteral(", ")));
    for (const QString &container : n.containers)
        parts << tr("extended partition %1 is moved in the table with its logical partitions")
                     .arg(container);
    if (n.data.isEmpty() && n.containers.isEmpty())
        parts << tr("no other partition moves");
    // Sentence case: the first part starts the line.
    QString text = parts.join(QStringLiteral("; "));
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

void RealignWayChooser::setChoices(const QList<RealignChoice> &choices)
{
    QList<RealignChoice> offered;
    for (const RealignChoice &c : choices)
        if (c.options.size() > 1)
            offered << c;
    const bool same = sameWays(offered, m_offered);
    m_offered = offered;
    if (!same)
        rebuild();
    for (int i = 0; i < m_offered.size(); ++i)
        fillBlock(m_blocks[i], m_offered[i]);
    setVisible(!m_blocks.isEmpty());
}

void RealignWayChooser::fillBlock(const Block &b, const RealignChoice &c)
{
    const PartitionMove *own = moveOf(c.options.first(), c.number);
    b.title->setText(tr("<b>%1</b> can be given room in %2 ways:")
                         .arg(partitionTitle(c.number, own ? own->filesystem : QString(),
                                             own ? own->label : QString())
                                  .toHtmlEscaped())
                         .arg(c.options.size()));
    for (int k = 0; k < c.options.size(); ++k) {
        b.radios[k]->setText(wayText(c.options[k], c.number));
        b.costs[k]->setText(costText(c.options[k], c.number));
        b.radios[k]->setAccessibleDescription(b.costs[k]->text()); // read with the button
    }
    // The plan's pick, without a click: checking a button does not plan again.
    if (c.chosen >= 0 && c.chosen < b.radios.size())
        b.radios[c.chosen]->setChecked(true);
}

void RealignWayChooser::rebuild()
{
    for (const Block &b : std::as_const(m_blocks))
        delete b.host; // its buttons, labels and group go with it
    m_blocks.clear();
    for (int i = 0; i < m_offered.size(); ++i) {
        m_blocks << makeBlock(m_offered[i]);
        // idClicked, not toggled: only a person's click plans again, never setChoices().
        connect(m_blocks.last().group, &QButtonGroup::idClicked, this, [this, i](int id) {
            const RealignChoice &c = m_offered[i];
            // Clicking the way already taken changes nothing: no new plan.
            if (id >= 0 && id < c.options.size() && id != c.chosen)
                emit wayPicked(c.number, c.options[id].way);
        });
        m_layout->addWidget(m_blocks.last().host);
    }
}

RealignWayChooser::Block RealignWayChooser::makeBlock(const RealignChoice &c)
{
    Block b;
    b.host = new QWidget;
    b.host->setObjectName(QStringLiteral("planWays%1").arg(c.number));
    auto *layout = new QVBoxLayout(b.host);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(2);
    b.title = wrappingLabel();
    layout->addWidget(b.title);
    b.group = new QButtonGroup(b.host);
    for (int k = 0; k < c.options.size(); ++k) {
        auto *radio = new QRadioButton;
        radio->setObjectName(
            QStringLiteral("way%1-%2").arg(c.number).arg(realignWayName(c.options[k].way)));
        auto *cost = wrappingLabel();
        // Under the button's text, not its circle: the cost belongs to the way above it.
        cost->setIndent(
            radio->style()->pixelMetric(QStyle::PM_ExclusiveIndicatorWidth, nullptr, radio) +
            radio->style()->pixelMetric(QStyle::PM_RadioButtonLabelSpacing, nullptr, radio));
        layout->addWidget(radio);
        layout->addWidget(cost);
        b.group->addButton(radio, k);
        b.radios << radio;
        b.costs << cost;
    }
    return b;
}

int RealignWayChooser::indexOf(int number) const
{
    for (int i = 0; i < m_offered.size(); ++i)
        if (m_offered[i].number == number)
            return i;
    return -1;
}

QList<int> RealignWayChooser::partitions() const
{
    QList<int> numbers;
    for (const RealignChoice &c : m_offered)
        numbers << c.number;
    return numbers;
}

QList<RealignWay> RealignWayChooser::ways(int number) const
{
    const int i = indexOf(number);
    return i >= 0 ? waysOf(m_offered[i]) : QList<RealignWay>();
}

int RealignWayChooser::checkedIndex(int number) const
{
    const int i = indexOf(number);
    return i >= 0 ? m_blocks[i].group->checkedId() : -1;
}

QAbstractButton *RealignWayChooser::button(int number, RealignWay way) const
{
    const int i = indexOf(number);
    const int k = i >= 0 ? waysOf(m_offered[i]).indexOf(way) : -1;
    return k >= 0 ? m_blocks[i].radios[k] : nullptr;
}

QString RealignWayChooser::costText(int number, RealignWay way) const
{
    const int i = indexOf(number);
    const int k = i >= 0 ? waysOf(m_offered[i]).indexOf(way) : -1;
    return k >= 0 ? m_blocks[i].costs[k]->text() : QString();
}
