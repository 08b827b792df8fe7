#pragma once

#include "durationtext.h"

#include "ops/realignrunner.h"
#include "ops/writejournal.h"
#include "realign/realignwizardstate.h"

#include <QWizardPage>

#include <functional>

class DiskMapWidget;
class QAbstractButton;
class PartitionModel;
class QCheckBox;
class QGridLayout;
class QGroupBox;
class QLabel;
class SectorRulerWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QScrollArea;
class QTreeWidget;
class RealignWayChooser;
class RealignBackend;

// A small disk map that only shows: no selection, no focus. It owns its model.
class RealignMap : public QWidget
{
    Q_OBJECT

public:
    explicit RealignMap(QWidget *parent = nullptr);
    void setDisk(const partwise::DiskLayout &layout, const partwise::AlignmentPolicy &policy);
    DiskMapWidget *map() const { return m_map; }
    PartitionModel *model() const { return m_model; }

private:
    PartitionModel *m_model = nullptr;
    DiskMapWidget *m_map = nullptr;
};

// The pages share the wizard's RealignWizardState, handed to each in its constructor: what
// one page decides, the next reads from there.

// Page 1: what is wrong, on the map.
class RealignIntroPage : public QWizardPage
{
    Q_OBJECT

public:
    explicit RealignIntroPage(RealignWizardState *state);
    void initializePage() override;
    RealignMap *map() const { return m_map; }
    QString explanation() const;

private:
    RealignWizardState *m_state;
    RealignMap *m_map = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_details = nullptr;
};

// Page 2: which partitions, and to which boundary.
class RealignChoosePage : public QWizardPage
{
    Q_OBJECT

public:
    explicit RealignChoosePage(RealignWizardState *state);
    void initializePage() override;
    bool isComplete() const override;

    qint64 grainBytes() const;
    void setGrainBytes(qint64 bytes); // one of the offered targets
    QList<int> checkedPartitions() const;
    void setPartitionChecked(int number, bool checked);
    bool isPartitionSelectable(int number) const;
    bool verify() const;
    QTreeWidget *partitionList() const { return m_list; }

private:
    void refreshStatuses();
    void publish(); // the choice, to the state

    RealignWizardState *m_state;
    QRadioButton *m_mib = nullptr;
    QRadioButton *m_fourK = nullptr;
    QRadioButton *m_preferred = nullptr; // the preferences' own grain, when it is neither
    QTreeWidget *m_list = nullptr;
    QCheckBox *m_verify = nullptr;
    bool m_filled = false;
};

// Page 3: the plan and what it needs. Commit page: its button starts the realignment.
// Where a partition can be given room in more than one way, the page offers them (cheapest
// checked); a pick plans again on the wizard's worker and the page shows the new plan. The
// plan and the picks go to the state, and the page shows the plan the state holds.
class RealignPlanPage : public QWizardPage
{
    Q_OBJECT

public:
    RealignPlanPage(RealignWizardState *state, RealignBackend *backend);
    void initializePage() override;
    bool isComplete() const override;

    bool isReady() const { return m_state->isPlanReady(); }
    const partwise::PreparedRealign &prepared() const { return m_state->prepared(); }
    QStringList busy() const { return m_state->busy(); }
    QTreeWidget *moveTable() const { return m_moves; }
    QCheckBox *backupConfirmation() const { return m_backup; }
    QCheckBox *bootChangeConfirmation() const { return m_acceptBoot; }
    RealignWayChooser *wayChooser() const { return m_ways; }
    // The ways picked on this page since it was entered from the choose page.
    QMap<int, partwise::RealignWay> pickedWays() const { return m_state->ways(); }
    // Back from a run whose shrink the filesystem's tool refused before anything was written:
    // says why above the plan and plans again with `way` for partition `number`.
    void planAfterRefusal(const QString &why, int number, partwise::RealignWay way);
    QString refusalText() const;
    // "Unmount and Continue" beside the partitions in use: `handler` frees them (ui/mount) and
    // calls back; the plan is then made again. Without one the button is not shown.
    using UnmountDone = std::function<void(bool ok, const QString &message)>;
    using UnmountHandler = std::function<void(const UnmountDone &done)>;
    void setUnmountHandler(UnmountHandler handler) { m_unmountHandler = std::move(handler); }
    QPushButton *unmountButton() const { return m_unmount; }

signals:
    void planReady();

private:
    void startPlanning();
    void planAgain(int number, partwise::RealignWay way);
    void requestPlan();
    void clearOutputs();
    QString statusText(const partwise::RealignPlan &plan) const;
    void fillMoves(const partwise::RealignPlan &plan, qint64 sectorSize);
    void fitMovesTable(int moves);
    QString staysText(const partwise::PreparedRealign &prepared) const;
    void showBusy(const partwise::RealignPlan &plan, const QStringList &busy);
    void showBoot(const partwise::PreparedRealign &prepared);
    void showParts();
    void onPrepared(const partwise::PreparedRealign &prepared, const QStringList &busy);
    void showPlan(); // the state's plan, once it is ready
    void showMapProgress(int partition, double fraction);
    QWidget *makeRulers();
    void showRulers(int move);

    RealignWizardState *m_state;
    QLabel *m_refusal = nullptr; // why the last run stopped before writing, until a new start
    QLabel *m_status = nullptr;
    RealignWayChooser *m_ways = nullptr;
    QTreeWidget *m_moves = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_stays = nullptr;
    QGroupBox *m_rulers = nullptr;
    SectorRulerWidget *m_before = nullptr;
    SectorRulerWidget *m_after = nullptr;
    QLabel *m_busyLabel = nullptr;
    QLabel *m_journalWarning = nullptr; // the journal would be kept in memory
    QPushButton *m_recheck = nullptr;
    QPushButton *m_unmount = nullptr; // "Unmount and Continue", with a handler
    UnmountHandler m_unmountHandler;
    QGroupBox *m_needs = nullptr;
    QLabel *m_advice = nullptr;
    QCheckBox *m_backup = nullptr;
    QLabel *m_bootBreaks = nullptr;    // what the plan stops working, and its repair
    QCheckBox *m_acceptBoot = nullptr; // needed when it stops something
    QString m_bootFixes;               // what Partwise rewrites, said with the plan
    RealignBackend *m_backend;
    bool m_planAgain = false; // the worker was busy with an older plan
};

// Page 4: the work itself, one progress bar per partition, a log and Cancel.
class RealignRunPage : public QWizardPage
{
    Q_OBJECT

public:
    RealignRunPage(RealignWizardState *state, RealignBackend *backend);
    void initializePage() override;
    void cleanupPage() override;
    bool isComplete() const override;

    bool isRunning() const { return m_running; }
    bool isFinished() const { return m_finished; }
    void requestCancel();
    void startResume(); // after a stop: finish the work from its journal
    QString logText() const;
    QProgressBar *progressBar(int moveIndex) const;
    QAbstractButton *cancelButton() const;
    const partwise::DiskLayout &before() const { return m_state->before(); }
    const partwise::DiskLayout &after() const { return m_state->after(); }
    bool afterRead() const { return m_state->afterRead(); }

signals:
    void runFinished(bool ok);

private:
    struct Row
    {
        partwise::PartitionMove move;
        QLabel *name = nullptr;
        QProgressBar *bar = nullptr;
        QLabel *detail = nullptr;
    };
    void buildRows(const QList<partwise::PartitionMove> &moves, qint64 sectorSize);
    void fitRows();
    void setRowState(int index, const QString &text, bool done);
    void addRowsUpTo(const partwise::RealignProgress &progress);
    void onProgress(const partwise::RealignProgress &progress);
    void onFinished(const partwise::RealignResult &result, const partwise::DiskLayout &before,
                    const partwise::DiskLayout &after, bool afterOk);
    void appendLog(const QString &line);
    void begin();

    RealignWizardState *m_state;
    QLabel *m_status = nullptr;
    QWidget *m_rowsHost = nullptr;
    QScrollArea *m_rowsScroll = nullptr;
    QGridLayout *m_rowsLayout = nullptr;
    QList<Row> m_rows;
    QPlainTextEdit *m_log = nullptr;
    QLabel *m_hint = nullptr;
    qint64 m_sectorSize = 512;
    bool m_running = false;
    bool m_finished = false;
    int m_lastProgress = -1; // the move the last progress report was about
    bool m_resumeNext = false;
    bool m_started = false;
    RealignBackend *m_backend;
};

// Page 5: before and after, the checks, or what went wrong and how to finish.
class RealignResultPage : public QWizardPage
{
    Q_OBJECT

public:
    RealignResultPage(RealignWizardState *state, RealignBackend *backend);
    void initializePage() override;

    RealignMap *beforeMap() const { return m_before; }
    RealignMap *afterMap() const { return m_after; }
    QStringList checkLines() const;
    QString outcomeText() const;
    QPushButton *resumeButton() const { return m_resume; }

signals:
    void resumeRequested(); // Resume Now: the wizard goes back to the run page

private:
    // One line per check; `withVerdicts`: an icon says clean or not.
    void showChecks(const QStringList &checks, bool withVerdicts);

    RealignWizardState *m_state;
    RealignBackend *m_backend;
    QLabel *m_outcome = nullptr;
    QPlainTextEdit *m_details = nullptr;
    QLabel *m_beforeCaption = nullptr;
    RealignMap *m_before = nullptr;
    QLabel *m_afterCaption = nullptr;
    RealignMap *m_after = nullptr;
    QLabel *m_checksTitle = nullptr;
    QWidget *m_checks = nullptr;
    QGridLayout *m_checksLayout = nullptr;
    QList<QLabel *> m_checkLabels;
    QPushButton *m_resume = nullptr;
};
