#include "copy/copywizard.h"

#include "copy/copypages.h"
#include "screenfit.h"

#include <QCloseEvent>
#include <QFileInfo>

using namespace partwise;

CopyWizard::CopyWizard(const CopySetup &setup, CopyBackend *backend, QWidget *parent)
    : QWizard(parent), m_setup(setup), m_backend(backend)
{
    m_backend->setParent(this);
    setObjectName(QStringLiteral("copyWizard"));
    setWindowTitle(setup.resume ? tr("Finish Copy — %1").arg(setup.resume->name)
                                : tr("Copy Disk — %1").arg(setup.sourceName));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnStartPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    m_target = new CopyTargetPage(this);
    m_options = new CopyOptionsPage(this);
    m_plan = new CopyPlanPage(this);
    m_run = new CopyRunPage(this);
    m_result = new CopyResultPage(this);
    setPage(TargetPageId, m_target);
    setPage(OptionsPageId, m_options);
    setPage(PlanPageId, m_plan);
    setPage(RunPageId, m_run);
    setPage(ResultPageId, m_result);
    // What does not fit a small screen scrolls inside its page (the plan page keeps its
    // confirmation below), so the wizard's buttons stay on the screen.
    for (QWidget *page : std::initializer_list<QWidget *>{m_target, m_options, m_run, m_result})
        scrollPageContents(page);
    setStartId(setup.resume ? RunPageId : TargetPageId);
    resize(sizeWithinScreen(this, QSize(900, 700)));
}

CopyWizard::~CopyWizard() = default;

CopyRequest CopyWizard::request() const
{
    CopyRequest request;
    if (m_setup.resume) {
        request.target = m_setup.resume->path;
        return request;
    }
    request.source = m_setup.sourcePath;
    const int index = m_target->diskIndex();
    request.target = index >= 0 ? m_setup.targets.at(index).path : m_target->imagePath();
    request.options = m_options->options();
    request.options.forcedSourceSectorSize = m_setup.forcedSectorSize;
    return request;
}

QString CopyWizard::targetKey() const
{
    if (m_setup.resume)
        return m_setup.resume->key;
    const int index = m_target->diskIndex();
    return index >= 0 ? m_setup.targets.at(index).key : m_target->imagePath();
}

qint64 CopyWizard::newImageBytes() const
{
    return !m_setup.resume && m_target->toNewImage() ? m_target->imageBytes() : 0;
}

QString CopyWizard::targetName() const
{
    if (m_setup.resume)
        return m_setup.resume->name;
    const int index = m_target->diskIndex();
    return index >= 0 ? m_setup.targets.at(index).name : m_target->imagePath();
}

void CopyWizard::setResult(const CopyResult &result)
{
    m_result_ = result;
    emit copyFinished(targetKey(), newImageBytes() > 0, result.ok);
}

bool CopyWizard::isRunning() const
{
    return m_run->isRunning();
}

void CopyWizard::reject()
{
    if (isRunning()) {
        m_run->requestCancel(); // the copy stops at a safe point; the page then says so
        return;
    }
    QWizard::reject();
}
