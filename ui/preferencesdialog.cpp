#include "preferencesdialog.h"

#include "report/humansize.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

constexpr qint64 kMiB = 1 << 20;
constexpr qint64 k4KiB = 4096;
constexpr int kCustomIndex = 2;

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
