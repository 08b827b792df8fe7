#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

// The strip above the disk map that says what is wrong with the disk on screen and offers the
// fix: "2 partitions are misaligned … [Realign…]", or "A realignment was interrupted …
// [Finish…]". Hidden when there is nothing to say.
class RealignBanner : public QFrame
{
    Q_OBJECT

public:
    enum class Mode { Hidden, Misaligned, Interrupted };

    explicit RealignBanner(QWidget *parent = nullptr);

    // `cannotRealign`: why this disk cannot be realigned (read-only); then no button is offered.
    void showMisaligned(int misalignedCount, const QString &cannotRealign = QString());
    void showInterrupted(const QString &journalPath, int partition = 0);
    void hideBanner();
    Mode mode() const { return m_mode; }
    QString text() const;
    QPushButton *button() const { return m_button; }

signals:
    void realignRequested();
    void finishRequested();

private:
    Mode m_mode = Mode::Hidden;
    QLabel *m_icon = nullptr;
    QLabel *m_text = nullptr;
    QPushButton *m_button = nullptr;
};
