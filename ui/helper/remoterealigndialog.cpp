#include "remoterealigndialog.h"

#include "align/misalignmentreport.h"
#include "base/humansize.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

using namespace partwise;

namespace {

constexpr int kNumberRole = Qt::UserRole + 1;
constexpr int kOffGrainRole = Qt::UserRole + 2;

} // namespace

RemoteRealignDialog::RemoteRealignDialog(HelperConnection *helper, const RemoteDisk &disk,
                                         const AlignmentPolicy &policy, QWidget *parent)
    : QDialog(parent), m_helper(helper), m_disk(disk), m_policy(policy)
{
    setObjectName(QStringLiteral("remoteRealignDialog"));
    setWindowTitle(tr("Realign %1 on %2").arg(disk.devicePath, helper->machine()));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(
        helper->command().overNetwork
            ? tr("The partitions are moved on %1 by its own partwise-cli, with its journal "
                 "there: if the connection drops, the move stops where Resume can finish it.")
                  .arg(helper->machine())
            : tr("The partitions are moved by Partwise's helper, which runs as administrator, "
                 "with its journal on this computer: if the helper is stopped, the move stops "
                 "where Resume can finish it."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *form = new QFormLayout;
    m_partitions = new QListWidget;
    m_partitions->setObjectName(QStringLiteral("remotePartitions"));
    m_partitions->setAccessibleName(tr("Partitions to realign"));
    m_partitions->setMaximumHeight(120);
    form->addRow(tr("&Partitions:"), m_partitions);
    // As the wizard's first choice: the grain of the preferences (1 MiB unless changed), or
    // the next 4 KiB boundary, the smallest move that suits Advanced Format drives.
    m_grain = new QComboBox;
    m_grain->setObjectName(QStringLiteral("remoteGrain"));
    m_grain->addItem(policy.grainBytes == (1 << 20)
                         ? tr("1 MiB grain (recommended)")
                         : tr("%1 grain, as in the preferences").arg(humanSize(policy.grainBytes)),
                     policy.grainBytes);
    if (policy.grainBytes != 4096)
        m_grain->addItem(tr("4 KiB (smallest move)"), 4096);
    form->addRow(tr("&Move to:"), m_grain);
    connect(m_grain, &QComboBox::currentIndexChanged, this,
            [this] { m_runButton->setEnabled(false); });
    m_prefer = new QComboBox;
    m_prefer->addItem(tr("Partwise chooses (move, or shrink where that is faster)"), QString());
    m_prefer->addItem(tr("Move whole partitions"), QStringLiteral("move"));
    m_prefer->addItem(tr("Shrink the start where the filesystem allows"), QStringLiteral("shrink"));
    form->addRow(tr("&Way:"), m_prefer);
    m_verify = new QCheckBox(tr("&Verify every byte after copying it"));
    m_verify->setChecked(true);
    form->addRow(m_verify);
    layout->addLayout(form);

    m_plan = new QPlainTextEdit;
    m_plan->setObjectName(QStringLiteral("remotePlan"));
    m_plan->setReadOnly(true);
    m_plan->setPlaceholderText(tr("Make a plan to see what will be moved."));
    layout->addWidget(m_plan);
    m_step = new QLabel;
    layout->addWidget(m_step);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    layout->addWidget(m_progress);
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("remoteLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumHeight(100);
    layout->addWidget(m_log);
    m_outcome = new QLabel;
    m_outcome->setObjectName(QStringLiteral("remoteOutcome"));
    m_outcome->setWordWrap(true);
    m_outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_outcome);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_planButton = buttons->addButton(tr("&Plan"), QDialogButtonBox::ActionRole);
    m_runButton = buttons->addButton(tr("&Realign"), QDialogButtonBox::ActionRole);
    m_resumeButton = buttons->addButton(tr("Re&sume"), QDialogButtonBox::ActionRole);
    m_cancelButton = buttons->addButton(tr("&Cancel Move"), QDialogButtonBox::ActionRole);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_planButton, &QPushButton::clicked, this, &RemoteRealignDialog::plan);
    connect(m_runButton, &QPushButton::clicked, this, &RemoteRealignDialog::run);
    connect(m_resumeButton, &QPushButton::clicked, this, &RemoteRealignDialog::resume);
    connect(m_cancelButton, &QPushButton::clicked, this, &RemoteRealignDialog::cancel);
    connect(helper, &HelperConnection::notification, this, &RemoteRealignDialog::onNotification);
    connect(m_partitions, &QListWidget::itemChanged, this,
            [this] { m_runButton->setEnabled(false); });

    fillPartitions(disk.layout);
    setRunning(false);
    if (!disk.interruptedJournal.isEmpty())
        m_outcome->setText(tr("A realignment of this disk stopped part-way; its journal is %1 "
                              "on %2. Resume finishes it before anything else is done.")
                               .arg(disk.interruptedJournal, helper->machine()));
    resize(640, 560);
}

void RemoteRealignDialog::fillPartitions(const DiskLayout &layout)
{
    const MisalignmentReport report = analyzeAlignment(layout, m_policy);
    for (int i = 0; i < layout.regions.size(); ++i) {
        const PartitionInfo &region = layout.regions.at(i);
        const AlignmentStatus status = report.verdicts.value(i).status;
        if (status != AlignmentStatus::Misaligned && status != AlignmentStatus::SectorAligned)
            continue;
        const QString what = status == AlignmentStatus::Misaligned
                                 ? tr("misaligned")
                                 : tr("not on the %1 grain").arg(humanSize(m_policy.grainBytes));
        auto *item = new QListWidgetItem(
            tr("Partition %1 (%2, %3) at sector %4: %5")
                .arg(region.number)
                .arg(region.filesystem.isEmpty() ? tr("no filesystem") : region.filesystem,
                     humanSize(region.lengthSectors() * layout.device.topology.logicalSectorSize))
                .arg(region.startSector)
                .arg(what));
        item->setData(kNumberRole, region.number);
        item->setData(kOffGrainRole, status == AlignmentStatus::SectorAligned);
        item->setCheckState(status == AlignmentStatus::Misaligned ? Qt::Checked : Qt::Unchecked);
        m_partitions->addItem(item);
    }
}

QJsonObject RemoteRealignDialog::requestParams() const
{
    QJsonArray numbers;
    bool offGrain = false;
    for (int row = 0; row < m_partitions->count(); ++row) {
        const QListWidgetItem *item = m_partitions->item(row);
        if (item->checkState() != Qt::Checked)
            continue;
        numbers.append(item->data(kNumberRole).toInt());
        offGrain = offGrain || item->data(kOffGrainRole).toBool();
    }
    QJsonObject params{{QStringLiteral("path"), m_disk.devicePath},
                       {QStringLiteral("partitions"), numbers},
                       {QStringLiteral("all"), offGrain},
                       {QStringLiteral("grain"), m_grain->currentData().toLongLong()},
                       {QStringLiteral("trust_drive"), m_policy.trustDrive},
                       {QStringLiteral("verify"), m_verify->isChecked()}};
    if (const QString prefer = m_prefer->currentData().toString(); !prefer.isEmpty())
        params.insert(QStringLiteral("prefer"), prefer);
    return params;
}

QString RemoteRealignDialog::planText() const
{
    return m_plan->toPlainText();
}

QString RemoteRealignDialog::outcomeText() const
{
    return m_outcome->text();
}

void RemoteRealignDialog::plan()
{
    if (!m_helper)
        return;
    m_plan->setPlainText(tr("Asking %1 for a plan…").arg(m_helper->machine()));
    m_planButton->setEnabled(false);
    m_helper->call(
        QStringLiteral("realign-plan"), requestParams(), [this](const HelperReply &reply) {
            m_planButton->setEnabled(true);
            if (!reply.ok()) {
                m_plan->setPlainText(reply.error);
                emit planned(false);
                return;
            }
            QString text = reply.result.value(QStringLiteral("text")).toString();
            for (const QJsonValue &warning :
                 reply.result.value(QStringLiteral("warnings")).toArray())
                text += QStringLiteral("\n⚠ ") + warning.toString();
            m_plan->setPlainText(text);
            m_moveCount = int(reply.result.value(QStringLiteral("moves")).toArray().size());
            m_runButton->setEnabled(m_moveCount > 0 && m_disk.interruptedJournal.isEmpty());
            emit planned(true);
        });
}

void RemoteRealignDialog::run()
{
    startJob(QStringLiteral("realign"), requestParams());
}

void RemoteRealignDialog::resume()
{
    startJob(QStringLiteral("resume"), {{QStringLiteral("path"), m_disk.devicePath}});
}

void RemoteRealignDialog::startJob(const QString &method, const QJsonObject &params)
{
    if (!m_helper)
        return;
    m_log->clear();
    m_outcome->clear();
    m_progress->setValue(0);
    setRunning(true);
    m_jobId =
        m_helper->call(method, params, [this](const HelperReply &reply) { onJobEnded(reply); });
}

void RemoteRealignDialog::cancel()
{
    if (!m_helper || m_jobId == 0)
        return;
    m_cancelButton->setEnabled(false);
    m_step->setText(tr("Stopping at the next chunk…"));
    m_helper->call(QStringLiteral("cancel"), {}, [](const HelperReply &) {});
}

void RemoteRealignDialog::onNotification(const QString &method, const QJsonObject &params)
{
    if (m_jobId == 0 || params.value(QStringLiteral("id")).toInt() != m_jobId)
        return;
    if (method == QLatin1String("log")) {
        m_log->appendPlainText(params.value(QStringLiteral("line")).toString());
        return;
    }
    if (method != QLatin1String("progress"))
        return;
    const double done = params.value(QStringLiteral("bytes_done")).toDouble();
    const double total = params.value(QStringLiteral("bytes_total")).toDouble();
    const int index = params.value(QStringLiteral("move_index")).toInt();
    const int count = std::max(1, params.value(QStringLiteral("move_count")).toInt());
    const double fraction = total > 0 ? done / total : 0;
    m_progress->setValue(int(1000 * (index + fraction) / count));
    const bool verifying =
        params.value(QStringLiteral("step")).toString() == QLatin1String("verifying");
    m_step->setText((verifying ? tr("Verifying partition %1 (%2 of %3): %4 of %5")
                               : tr("Moving partition %1 (%2 of %3): %4 of %5"))
                        .arg(params.value(QStringLiteral("partition")).toInt())
                        .arg(index + 1)
                        .arg(count)
                        .arg(humanSize(qint64(done)), humanSize(qint64(total))));
}

void RemoteRealignDialog::onJobEnded(const HelperReply &reply)
{
    m_jobId = 0;
    const QString machine = m_helper ? m_helper->machine() : QString();
    if (reply.ok()) {
        const QJsonArray checks = reply.result.value(QStringLiteral("checks")).toArray();
        QStringList lines{tr("Done: every chosen partition of %1 on %2 is aligned.")
                              .arg(m_disk.devicePath, machine)};
        for (const QJsonValue &check : checks)
            lines << check.toString();
        m_outcome->setText(lines.join(QLatin1Char('\n')));
        m_disk.interruptedJournal.clear();
        m_progress->setValue(1000);
    } else if (reply.lost()) {
        m_outcome->setText(tr("The connection was lost: %1\nThe move on %2 stops where its "
                              "journal lets it be finished. Connect again and choose Resume, or "
                              "run “partwise-cli resume %3” there.")
                               .arg(reply.error, machine, m_disk.devicePath));
    } else {
        const bool resumable = reply.data.value(QStringLiteral("resumable")).toBool();
        if (resumable)
            m_disk.interruptedJournal = reply.data.value(QStringLiteral("journal")).toString();
        m_outcome->setText(resumable
                               ? tr("%1\nNothing is lost: Resume finishes it.").arg(reply.error)
                               : reply.error);
    }
    setRunning(false);
    emit finished(reply.ok());
}

void RemoteRealignDialog::setRunning(bool running)
{
    const bool alive = m_helper && m_helper->isReady();
    const bool interrupted = !m_disk.interruptedJournal.isEmpty();
    m_partitions->setEnabled(!running);
    m_prefer->setEnabled(!running);
    m_verify->setEnabled(!running);
    m_planButton->setEnabled(alive && !running && !interrupted);
    m_runButton->setEnabled(false); // a new plan first: the disk may have changed
    m_resumeButton->setEnabled(alive && !running && interrupted);
    m_cancelButton->setEnabled(running);
}
