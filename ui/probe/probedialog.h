#pragma once

#include "probe/proberunner.h"

#include <QDialog>

class ProbeChart;
class QDialogButtonBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpacerItem;

// Drive → Measure Physical Sector…: says what the timing probe will do to the drive and waits
// for Measure (the confirmation), runs the probe (on ProbeWorker's thread, or through the
// helper that opens the drive) with a progress bar and Cancel, then shows the verdict in words, the
// write times as a chart, and what Partwise now remembers for the drive (the probe's own rule,
// core/report/probereport.h).
class ProbeDialog : public QDialog
{
    Q_OBJECT

public:
    // A drive this window opens itself.
    explicit ProbeDialog(const QString &devicePath, QWidget *parent = nullptr);
    // A drive `runner` probes (and the dialog owns): `diskKey` is its entry in the disk list,
    // `shownName` what people call it ("/dev/sdb on server").
    ProbeDialog(const QString &diskKey, const QString &shownName, ProbeRunner *runner,
                QWidget *parent = nullptr);
    ~ProbeDialog() override;

    QString devicePath() const { return m_path; }
    bool isRunning() const { return m_worker->isBusy(); }
    // Starts measuring, as the Measure button does.
    void start();
    // Shows a result as if a probe had just given it (the worker calls it; tests too).
    void showResult(const partwise::ProbeReport &result);

    // The verdict in the window's language.
    static QString verdictText(const partwise::ProbeVerdict &verdict);
    QString verdictShown() const;
    ProbeChart *chart() const { return m_chart; }

signals:
    // The remembered measurement of the drive was saved or forgotten: what is on screen about
    // it should be read again.
    void measurementChanged(const QString &devicePath);
    void probeFinished();

protected:
    void closeEvent(QCloseEvent *event) override;
    void reject() override;

private:
    QString memoryText(const partwise::ProbeMemory &memory) const;
    void showChart(bool shown);

    QString m_path;
    ProbeRunner *m_worker;
    QLabel *m_intro;
    QProgressBar *m_progress;
    QLabel *m_verdict;
    ProbeChart *m_chart;
    QLabel *m_details;
    QSpacerItem *m_filler;
    QDialogButtonBox *m_buttons;
    QPushButton *m_measure;
    QPushButton *m_cancel;
};

// Shows `dialog` window-modal, deleted on close.
ProbeDialog *openProbeDialog(ProbeDialog *dialog);
