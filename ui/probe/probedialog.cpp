#include "probe/probedialog.h"

#include "alignmentstyle.h"
#include "probe/probechart.h"
#include "probe/probeworker.h"

#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpacerItem>
#include <QVBoxLayout>

using namespace partwise;

ProbeDialog::ProbeDialog(const QString &devicePath, QWidget *parent)
    : ProbeDialog(devicePath, devicePath, new ProbeWorker(devicePath), parent)
{
}

ProbeDialog::ProbeDialog(const QString &diskKey, const QString &shownName, ProbeRunner *runner,
                         QWidget *parent)
    : QDialog(parent), m_path(diskKey), m_worker(runner)
{
    m_worker->setParent(this);
    setObjectName(QStringLiteral("probeDialog"));
    setWindowTitle(tr("Measure Physical Sector"));
    auto *layout = new QVBoxLayout(this);

    m_intro = new QLabel(
        tr("<p>Partwise times writes to <b>%1</b>: 4 KiB at every 512-byte offset, and 8 to "
           "32 KiB at every 4 KiB step, at several places over the drive. A write that covers "
           "only part of a physical sector takes the drive longer, so the slow offsets give its "
           "real sector size away, whatever it reports.</p>"
           "<p>Each write puts back the bytes that were there, and only free space and "
           "partitions nothing uses are written to. It takes about 10 seconds. A power cut "
           "during a write could damage the sector being written.</p>")
            .arg(shownName.toHtmlEscaped()));
    m_intro->setObjectName(QStringLiteral("probeIntro"));
    m_intro->setWordWrap(true);
    m_intro->setTextFormat(Qt::RichText);
    m_intro->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(m_intro);

    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("probeProgress"));
    m_progress->setRange(0, 100);
    m_progress->setVisible(false);
    layout->addWidget(m_progress);

    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("probeVerdict"));
    m_verdict->setWordWrap(true);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    m_verdict->setFont(bold);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->setVisible(false);
    layout->addWidget(m_verdict);

    m_chart = new ProbeChart;
    m_chart->setVisible(false);
    layout->addWidget(m_chart, 1);

    m_details = new QLabel;
    m_details->setObjectName(QStringLiteral("probeDetails"));
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setVisible(false);
    layout->addWidget(m_details);

    // Takes the room the chart leaves while it is hidden, so the texts stay together on top.
    m_filler = new QSpacerItem(0, 0, QSizePolicy::Minimum, QSizePolicy::Expanding);
    layout->addItem(m_filler);

    m_buttons = new QDialogButtonBox;
    m_measure = m_buttons->addButton(tr("&Measure"), QDialogButtonBox::AcceptRole);
    m_measure->setObjectName(QStringLiteral("probeMeasure"));
    m_cancel = m_buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("probeCancel"));
    m_cancel->setEnabled(false);
    m_buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(m_buttons);
    connect(m_measure, &QPushButton::clicked, this, &ProbeDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_worker->cancel();
        m_cancel->setEnabled(false);
        m_progress->setFormat(tr("Stopping…"));
    });
    connect(m_buttons->button(QDialogButtonBox::Close), &QPushButton::clicked, this,
            &QDialog::reject);
    connect(m_worker, &ProbeRunner::progress, this,
            [this](double fraction) { m_progress->setValue(int(fraction * 100)); });
    connect(m_worker, &ProbeRunner::finished, this, &ProbeDialog::showResult);
    resize(720, 260);
}

ProbeDialog::~ProbeDialog() = default;

void ProbeDialog::start()
{
    if (m_worker->isBusy())
        return;
    m_measure->setEnabled(false);
    m_cancel->setEnabled(true);
    m_buttons->button(QDialogButtonBox::Close)->setEnabled(false);
    m_progress->setValue(0);
    m_progress->setFormat(tr("Timing writes… %p%"));
    m_progress->setVisible(true);
    m_verdict->setVisible(false);
    m_details->setVisible(false);
    m_worker->run();
}

QString ProbeDialog::verdictText(const ProbeVerdict &v)
{
    return probeVerdictSentence(v); // core's sentence, in the window's language
}

QString ProbeDialog::verdictShown() const
{
    return m_verdict->isVisible() ? m_verdict->text() : QString();
}

QString ProbeDialog::memoryText(const ProbeMemory &memory) const
{
    if (memory.saved)
        return tr("Remembered for this drive: check, create and realign use it where it is "
                  "larger than what the drive reports.");
    if (memory.forgotten)
        return tr("An earlier measurement of this drive is forgotten: Partwise assumes at least "
                  "4096-byte sectors again.");
    if (memory.key.isEmpty() && !memory.note.isEmpty())
        return tr("Not remembered: this drive cannot be told apart from others (it has no WWN, "
                  "serial number or backing file).");
    return memory.note;
}

void ProbeDialog::showResult(const ProbeReport &result)
{
    m_progress->setVisible(false);
    m_cancel->setEnabled(false);
    m_buttons->button(QDialogButtonBox::Close)->setEnabled(true);
    m_measure->setEnabled(true);
    m_measure->setText(tr("&Measure Again"));
    const SectorProbeRun &run = result.run;
    m_verdict->setVisible(true);
    m_details->setVisible(true);
    if (run.outcome != SectorProbeRun::Outcome::Measured) {
        m_verdict->setText(run.outcome == SectorProbeRun::Outcome::Cancelled
                               ? tr("Cancelled: nothing is concluded, and every write done had "
                                    "put back the bytes that were there.")
                               : tr("The drive was not measured."));
        m_verdict->setStyleSheet(run.outcome == SectorProbeRun::Outcome::Cancelled
                                     ? QString()
                                     : AlignmentStyle::errorStyleSheet(palette()));
        m_details->setText(run.outcome == SectorProbeRun::Outcome::Cancelled ? QString()
                                                                             : run.reason);
        showChart(false);
        m_measure->setEnabled(run.outcome != SectorProbeRun::Outcome::Refused);
        emit probeFinished();
        return;
    }
    m_verdict->setStyleSheet(QString());
    m_verdict->setText(verdictText(result.verdict));
    m_chart->setTimings(result.verdict.timings,
                        result.verdict.kind != ProbeVerdict::Kind::NoPenalty);
    showChart(true);
    QStringList details;
    details << tr("Writes: %1 · places: %2 · rounds: %3 · time: %4 s · %5.")
                   .arg(result.writes)
                   .arg(run.places.size())
                   .arg(run.roundsDone)
                   .arg(QLocale().toString(double(run.elapsedMs) / 1000.0, 'f', 1))
                   .arg(probeWriteModeName(run.writeMode));
    if (const QString memory = memoryText(result.memory); !memory.isEmpty())
        details << memory;
    m_details->setText(details.join(QLatin1Char(' ')));
    if (height() < 560)
        resize(std::max(width(), 720), 560);
    if (result.memory.saved || result.memory.forgotten)
        emit measurementChanged(m_path);
    emit probeFinished();
}

void ProbeDialog::showChart(bool shown)
{
    m_chart->setVisible(shown);
    m_filler->changeSize(0, 0, QSizePolicy::Minimum,
                         shown ? QSizePolicy::Fixed : QSizePolicy::Expanding);
    layout()->invalidate();
}

void ProbeDialog::closeEvent(QCloseEvent *event)
{
    if (m_worker->isBusy()) { // the probe stops at its next write; close once it has
        m_worker->cancel();
        event->ignore();
        return;
    }
    QDialog::closeEvent(event);
}

void ProbeDialog::reject()
{
    if (m_worker->isBusy()) {
        m_worker->cancel();
        return;
    }
    QDialog::reject();
}

ProbeDialog *openProbeDialog(ProbeDialog *dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->show();
    return dialog;
}
