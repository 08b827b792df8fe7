#pragma once

// Drive → Copy Disk To…: the disk on screen copied onto another disk of the list or onto an
// image file (made at the size asked, sparse), every partition on the grain. Pages: the target,
// the options (grain, sizes, table, and whether the copy sits beside its source: asked, never
// assumed), the plan (every partition's old and new place, bytes and time, refusals in red and
// then nothing startable, boot fixes and breaks, and the person's yes that the target's contents
// go), the copy with progress and Cancel, and the result with the filesystems' checks. The work
// is the backend's (copybackend.h): this window never opens a disk or an image itself when a
// helper serves it.

#include "align/alignmentpolicy.h"
#include "copy/copybackend.h"

#include <QList>

#include <QWizard>
#include <optional>

class CopyTargetPage;
class CopyOptionsPage;
class CopyPlanPage;
class CopyRunPage;
class CopyResultPage;

// A disk of the list the copy may go onto.
struct CopyTargetChoice
{
    QString key;  // the disk list's
    QString name; // as the list shows it
    QString path; // as the backend names it
    qint64 sizeBytes = 0;
};

struct CopySetup
{
    QString sourceKey, sourceName, sourcePath; // path: as the backend names it
    qint64 sourceSizeBytes = 0;
    qint64 forcedSectorSize = 0;
    bool sourceIsImage = false;
    QList<CopyTargetChoice> targets; // the other disks the same backend reaches
    QString imageFolder;             // where a new image is suggested
    partwise::AlignmentPolicy policy;
    // Set: the wizard only finishes the copy that stopped part-way onto this disk (its journal
    // says what to copy); it opens on the copy's page and nothing else is chosen.
    std::optional<CopyTargetChoice> resume;
};

class CopyWizard : public QWizard
{
    Q_OBJECT

public:
    enum PageId { TargetPageId, OptionsPageId, PlanPageId, RunPageId, ResultPageId };

    // The wizard takes `backend`.
    CopyWizard(const CopySetup &setup, CopyBackend *backend, QWidget *parent = nullptr);
    ~CopyWizard() override;

    const CopySetup &setup() const { return m_setup; }
    CopyBackend *backend() const { return m_backend; }
    CopyTargetPage *targetPage() const { return m_target; }
    CopyOptionsPage *optionsPage() const { return m_options; }
    CopyPlanPage *planPage() const { return m_plan; }
    CopyRunPage *runPage() const { return m_run; }
    CopyResultPage *resultPage() const { return m_result; }

    // What the pages chose: the target (a disk of the list, or a new image to create first) and
    // the options.
    CopyRequest request() const;
    QString targetKey() const;    // the disk list's key, or the new image's path
    qint64 newImageBytes() const; // 0: the target is a disk of the list
    QString targetName() const;
    const partwise::CopyPlan &plan() const { return m_shownPlan; }
    void setPlan(const partwise::CopyPlan &plan) { m_shownPlan = plan; }
    const partwise::CopyResult &result() const { return m_result_; }
    void setResult(const partwise::CopyResult &result);
    bool isRunning() const;
    bool isResume() const { return m_setup.resume.has_value(); }

signals:
    // A copy ran (the target was written to): the window reads it again, or opens a new image.
    void copyFinished(const QString &targetKey, bool newImage, bool ok);

public slots:
    void reject() override; // while the copy runs, Cancel asks it to stop at a safe point

private:
    CopySetup m_setup;
    CopyBackend *m_backend;
    CopyTargetPage *m_target;
    CopyOptionsPage *m_options;
    CopyPlanPage *m_plan;
    CopyRunPage *m_run;
    CopyResultPage *m_result;
    partwise::CopyPlan m_shownPlan;
    partwise::CopyResult m_result_;
};
