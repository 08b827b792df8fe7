#include "realign/realignbanner.h"

#include "alignmentstyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

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

void RealignBanner::showMisaligned(int count)
{
    m_mode = Mode::Misaligned;
    m_text->setText(tr("%n partition(s) on this disk are misaligned: each 4 KiB write straddles "
                       "two physical sectors, which makes writes slower. Realigning moves them "
                       "to the grain and keeps their data.",
                       "", count));
    m_button->setText(tr("&Realign…"));
    m_button->setToolTip(tr("Open the realignment wizard for this disk"));
    setAccessibleName(m_text->text());
    show();
}

void RealignBanner::showInterrupted(const QString &journalPath)
{
    m_mode = Mode::Interrupted;
    m_text->setText(tr("A realignment of this disk was interrupted. Nothing is lost, but the "
                       "partition being moved may not be usable until it is finished (journal: "
                       "%1).")
                        .arg(journalPath));
    m_button->setText(tr("&Finish…"));
    m_button->setToolTip(tr("Finish the interrupted realignment"));
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
