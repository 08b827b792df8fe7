#include "realign/realignbanner.h"

#include "alignmentstyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

using namespace partwise;

RealignBanner::RealignBanner(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("realignBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette pal = palette();
    // A light tint of the misaligned red, readable on light and dark palettes alike.
    const QColor base = pal.color(QPalette::Window);
    const QColor red = AlignmentStyle::outlineColor(AlignmentStatus::Misaligned);
    pal.setColor(QPalette::Window,
                 QColor((base.red() * 5 + red.red()) / 6, (base.green() * 5 + red.green()) / 6,
                        (base.blue() * 5 + red.blue()) / 6));
    setPalette(pal);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    m_icon = new QLabel;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(AlignmentStyle::icon(AlignmentStatus::Misaligned).pixmap(size, size));
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    m_text = new QLabel;
    m_text->setObjectName(QStringLiteral("realignBannerText"));
    m_text->setWordWrap(true);
    layout->addWidget(m_text, 1);
    m_button = new QPushButton;
    m_button->setObjectName(QStringLiteral("realignBannerButton"));
    layout->addWidget(m_button, 0, Qt::AlignVCenter);
    connect(m_button, &QPushButton::clicked, this, [this] {
        if (m_mode == Mode::Interrupted)
            emit finishRequested();
        else if (m_mode == Mode::Misaligned)
            emit realignRequested();
    });
    hideBanner();
}

void RealignBanner::showMisaligned(int count, const QString &cannotRealign)
{
    m_mode = Mode::Misaligned;
    m_text->setText((count == 1 ? tr("1 partition on this disk is misaligned: each 4 KiB write "
                                     "straddles two physical sectors, which makes writes slower.")
                                : tr("%1 partitions on this disk are misaligned: each 4 KiB write "
                                     "straddles two physical sectors, which makes writes slower.")
                                      .arg(count)) +
                    QLatin1Char(' ') +
                    (cannotRealign.isEmpty()
                         ? tr("Realigning moves them to the grain and keeps their data.")
                         : cannotRealign));
    m_button->setText(tr("Real&ign…"));
    m_button->setToolTip(tr("Open the realignment wizard for this disk"));
    m_button->setVisible(cannotRealign.isEmpty()); // nothing offered that cannot run
    setAccessibleName(m_text->text());
    show();
}

void RealignBanner::showInterrupted(const QString &journalPath, int partition)
{
    m_mode = Mode::Interrupted;
    const QString which =
        partition > 0 ? tr("partition %1").arg(partition) : tr("the partition being moved");
    m_text->setText(tr("A realignment of this disk was interrupted. Nothing is lost, but %1 "
                       "should not be used until it is finished (journal: %2).")
                        .arg(which, journalPath));
    m_button->setText(tr("F&inish…"));
    m_button->setToolTip(tr("Finish the interrupted realignment"));
    m_button->show();
    setAccessibleName(m_text->text());
    show();
}

void RealignBanner::hideBanner()
{
    m_mode = Mode::Hidden;
    hide();
}

QString RealignBanner::text() const
{
    return m_text->text();
}
