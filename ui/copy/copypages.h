#pragma once

// The Copy Disk wizard's pages (copywizard.h).

#include "ops/copyrunner.h"

#include <QWizardPage>

class CopyWizard;
class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QTextBrowser;
class QTreeWidget;

class CopyTargetPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit CopyTargetPage(CopyWizard *wizard);
    bool isComplete() const override;

    bool toNewImage() const;
    int diskIndex() const; // in the setup's targets; -1 for a new image
    QString imagePath() const;
    qint64 imageBytes() const;

private:
    void browse();

    CopyWizard *m_wizard;
    QRadioButton *m_toDisk, *m_toImage;
    QComboBox *m_disks;
    QLineEdit *m_imagePath;
    QDoubleSpinBox *m_imageGiB;
};

class CopyOptionsPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit CopyOptionsPage(CopyWizard *wizard);
    bool isComplete() const override;
    partwise::CopyOptions options() const;

private:
    CopyWizard *m_wizard;
    QComboBox *m_grain;
    QButtonGroup *m_sizes;
    QComboBox *m_table;
    QButtonGroup *m_where; // replaces the old disk (1) or sits beside it (2): none at first
};

class CopyPlanPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit CopyPlanPage(CopyWizard *wizard);
    void initializePage() override;
    bool isComplete() const override;
    bool acceptsBootChange() const;
    QTreeWidget *partitionTable() const { return m_table; }
    QString planText() const;

private:
    void startPlanning();
    void showPlan(const partwise::CopyPlan &plan, const QString &error, const QString &journal);
    void showError(const QString &text);

    CopyWizard *m_wizard;
    QLabel *m_status;
    QTreeWidget *m_table;
    QTextBrowser *m_details;
    QCheckBox *m_acceptBoot;
    QCheckBox *m_confirm;
    bool m_ready = false;
    bool m_planAgain = false; // the page was left and entered again while a plan was made
    QString m_createdImage;   // the new image this page had made, not made twice
};

class CopyRunPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit CopyRunPage(CopyWizard *wizard);
    void initializePage() override;
    bool isComplete() const override { return m_done; }
    bool isRunning() const { return m_running; }
    void requestCancel();

private:
    void onProgress(const partwise::CopyProgress &progress);
    void onFinished(const partwise::CopyResult &result);

    CopyWizard *m_wizard;
    QLabel *m_step;
    QProgressBar *m_bar;
    QPlainTextEdit *m_log;
    bool m_running = false;
    bool m_done = false;
};

class CopyResultPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit CopyResultPage(CopyWizard *wizard);
    void initializePage() override;
    QString summary() const;

private:
    CopyWizard *m_wizard;
    QLabel *m_summary;
    QPlainTextEdit *m_checks;
};
