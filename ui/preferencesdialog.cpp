#include "preferencesdialog.h"

#include "base/humansize.h"
#include "move/journaldurability.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace partwise;

namespace {

constexpr qint64 kMiB = 1 << 20;
constexpr qint64 k4KiB = 4096;
constexpr int kCustomIndex = 2;
const char kDefaultJournalFolder[] = "/var/lib/partwise/moves";

} // namespace

PreferencesDialog::PreferencesDialog(const AlignmentPolicy &policy, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Preferences"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    layout->addLayout(form);

    m_grain = new QComboBox;
    m_grain->setObjectName(QStringLiteral("grainChoice"));
    m_grain->addItem(tr("1 MiB (recommended)"), kMiB);
    m_grain->addItem(tr("4 KiB (physical sector only)"), k4KiB);
    m_grain->addItem(tr("Custom…"), 0);
    form->addRow(tr("&Grain:"), m_grain);

    m_customGrain = new QLineEdit;
    m_customGrain->setObjectName(QStringLiteral("customGrain"));
    m_customGrain->setPlaceholderText(tr("e.g. 512k, 2m, 4m"));
    form->addRow(tr("C&ustom grain:"), m_customGrain);

    m_grainHint = new QLabel;
    m_grainHint->setWordWrap(true);
    form->addRow(QString(), m_grainHint);

    m_trustDrive = new QCheckBox(tr("&Trust the drive's reported physical sector size"));
    m_trustDrive->setObjectName(QStringLiteral("trustDrive"));
    m_trustDrive->setToolTip(tr("Off: starts are checked against at least 4096 bytes, because "
                                "many Advanced Format drives claim 512-byte sectors."));
    layout->addWidget(m_trustDrive);

    auto *journalForm = new QFormLayout;
    layout->addLayout(journalForm);
    auto *journalRow = new QHBoxLayout;
    m_journalFolder = new QLineEdit;
    m_journalFolder->setObjectName(QStringLiteral("journalFolder"));
    m_journalFolder->setPlaceholderText(QString::fromLatin1(kDefaultJournalFolder));
    m_journalFolder->setClearButtonEnabled(true);
    m_journalFolder->setMinimumWidth(m_journalFolder->fontMetrics().averageCharWidth() * 36);
    m_journalFolder->setToolTip(tr("Where moving a partition of a disk keeps the record that "
                                   "lets it finish after a crash. Images keep theirs beside "
                                   "them. Empty: %1.")
                                    .arg(QString::fromLatin1(kDefaultJournalFolder)));
    journalRow->addWidget(m_journalFolder);
    auto *browse = new QPushButton(tr("&Browse…"));
    browse->setObjectName(QStringLiteral("journalBrowse"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getExistingDirectory(
            this, tr("Folder for Move Journals"), m_journalFolder->text());
        if (!chosen.isEmpty())
            m_journalFolder->setText(chosen);
    });
    journalRow->addWidget(browse);
    auto *journalLabel = new QLabel(tr("Move &journals:"));
    journalLabel->setBuddy(m_journalFolder);
    journalForm->addRow(journalLabel, journalRow);
    m_journalHint = new QLabel;
    m_journalHint->setObjectName(QStringLiteral("journalHint"));
    m_journalHint->setWordWrap(true);
    journalForm->addRow(QString(), m_journalHint);
    connect(m_journalFolder, &QLineEdit::textChanged, this, &PreferencesDialog::updateJournalHint);
    updateJournalHint();

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    const int preset = m_grain->findData(policy.grainBytes);
    m_grain->setCurrentIndex(preset >= 0 ? preset : kCustomIndex);
    if (preset < 0)
        m_customGrain->setText(QStringLiteral("%1k").arg(policy.grainBytes / 1024));
    m_trustDrive->setChecked(policy.trustDrive);

    connect(m_grain, &QComboBox::currentIndexChanged, this, &PreferencesDialog::updateState);
    connect(m_customGrain, &QLineEdit::textChanged, this, &PreferencesDialog::updateState);
    updateState();
}

std::optional<qint64> PreferencesDialog::grainBytes() const
{
    if (m_grain->currentIndex() != kCustomIndex)
        return m_grain->currentData().toLongLong();
    const std::optional<qint64> parsed = parseByteSize(m_customGrain->text().trimmed());
    // Grains must be whole 512-byte sectors, or no start could ever be on one.
    if (!parsed || *parsed % 512 != 0)
        return std::nullopt;
    return parsed;
}

bool PreferencesDialog::isValid() const
{
    return grainBytes().has_value();
}

AlignmentPolicy PreferencesDialog::policy() const
{
    AlignmentPolicy policy;
    policy.grainBytes = grainBytes().value_or(AlignmentPolicy::kDefaultGrain);
    policy.trustDrive = m_trustDrive->isChecked();
    return policy;
}

void PreferencesDialog::setJournalFolder(const QString &folder)
{
    m_journalFolder->setText(folder);
}

QString PreferencesDialog::journalFolder() const
{
    return m_journalFolder->text().trimmed();
}

void PreferencesDialog::updateJournalHint()
{
    const QString folder =
        journalFolder().isEmpty() ? QString::fromLatin1(kDefaultJournalFolder) : journalFolder();
    const partwise::move::JournalDurability durability =
        partwise::move::journalDurability(folder + QStringLiteral("/journal"));
    if (durability.survivesPowerCut)
        m_journalHint->setText(tr("A move interrupted by a crash or a power cut finishes from "
                                  "its journal there."));
    else
        m_journalHint->setText(tr("%1 is in memory (%2), as in a live session: a power cut "
                                  "during a move would lose its journal. Choose a folder on "
                                  "another disk; a USB stick will do.")
                                   .arg(folder, durability.filesystem));
}

void PreferencesDialog::updateState()
{
    const bool custom = m_grain->currentIndex() == kCustomIndex;
    m_customGrain->setEnabled(custom);
    const std::optional<qint64> grain = grainBytes();
    if (!grain)
        m_grainHint->setText(tr("Enter a multiple of 512 bytes: a RAID stripe (16–256 KiB × "
                                "data disks) or an SSD erase block (512 KiB – 4 MiB)."));
    else
        m_grainHint->setText(tr("Partitions should start on multiples of %1 (%2 bytes).")
                                 .arg(humanSize(*grain), groupedNumber(*grain)));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(grain.has_value());
}
