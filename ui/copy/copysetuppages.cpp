// The Copy Disk wizard's first two pages: where the copy goes, and how.

#include "copy/copypages.h"
#include "copy/copywizard.h"

#include "base/humansize.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include <cmath>

using namespace partwise;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

} // namespace

CopyTargetPage::CopyTargetPage(CopyWizard *wizard) : m_wizard(wizard)
{
    setObjectName(QStringLiteral("copyTargetPage"));
    setTitle(tr("Where the Copy Goes"));
    const CopySetup &setup = wizard->setup();
    setSubTitle(tr("%1 (%2) is copied, every partition placed on the grain. Everything on the "
                   "target is replaced.")
                    .arg(setup.sourceName, humanSize(setup.sourceSizeBytes)));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(subTitle());
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_toDisk = new QRadioButton(tr("Onto another &disk:"));
    m_toDisk->setObjectName(QStringLiteral("copyToDisk"));
    m_disks = new QComboBox;
    m_disks->setObjectName(QStringLiteral("copyTargetDisks"));
    for (const CopyTargetChoice &choice : setup.targets)
        m_disks->addItem(tr("%1 — %2").arg(choice.name, humanSize(choice.sizeBytes)));
    layout->addWidget(m_toDisk);
    layout->addWidget(m_disks);

    m_toImage = new QRadioButton(tr("Into a new &image file:"));
    m_toImage->setObjectName(QStringLiteral("copyToImage"));
    layout->addWidget(m_toImage);
    auto *form = new QFormLayout;
    auto *pathRow = new QHBoxLayout;
    m_imagePath = new QLineEdit;
    m_imagePath->setObjectName(QStringLiteral("copyImagePath"));
    QString folder = setup.imageFolder.isEmpty() ? QDir::homePath() : setup.imageFolder;
    m_imagePath->setText(QDir(folder).filePath(QStringLiteral("copy.img")));
    auto *browse = new QPushButton(tr("Bro&wse…"));
    connect(browse, &QPushButton::clicked, this, &CopyTargetPage::browse);
    pathRow->addWidget(m_imagePath);
    pathRow->addWidget(browse);
    auto *fileLabel = new QLabel(tr("&File:"));
    fileLabel->setBuddy(m_imagePath);
    form->addRow(fileLabel, pathRow);
    m_imageGiB = new QDoubleSpinBox;
    m_imageGiB->setObjectName(QStringLiteral("copyImageSize"));
    m_imageGiB->setDecimals(2);
    m_imageGiB->setRange(0.01, 1024.0 * 1024.0);
    m_imageGiB->setSuffix(tr(" GiB"));
    m_imageGiB->setValue(std::max(0.01, std::ceil(setup.sourceSizeBytes / kGiB * 100) / 100));
    auto *sizeLabel = new QLabel(tr("Si&ze:"));
    sizeLabel->setBuddy(m_imageGiB);
    form->addRow(sizeLabel, m_imageGiB);
    auto *note = new QLabel(tr("The image takes room on its disk only for the data copied "
                               "(a sparse file)."));
    note->setWordWrap(true);
    form->addRow(QString(), note);
    layout->addLayout(form);
    layout->addStretch();

    auto *group = new QButtonGroup(this);
    group->addButton(m_toDisk);
    group->addButton(m_toImage);
    (setup.targets.isEmpty() ? m_toImage : m_toDisk)->setChecked(true);
    m_toDisk->setEnabled(!setup.targets.isEmpty());
    const auto update = [this] {
        m_disks->setEnabled(m_toDisk->isChecked());
        m_imagePath->setEnabled(m_toImage->isChecked());
        m_imageGiB->setEnabled(m_toImage->isChecked());
        emit completeChanged();
    };
    connect(m_toDisk, &QRadioButton::toggled, this, update);
    connect(m_imagePath, &QLineEdit::textChanged, this, &CopyTargetPage::completeChanged);
    update();
}

void CopyTargetPage::browse()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("New Image File"), m_imagePath->text(),
                                     tr("Disk images (*.img *.raw);;All files (*)"));
    if (!path.isEmpty())
        m_imagePath->setText(path);
}

bool CopyTargetPage::toNewImage() const
{
    return m_toImage->isChecked();
}

int CopyTargetPage::diskIndex() const
{
    return m_toDisk->isChecked() ? m_disks->currentIndex() : -1;
}

QString CopyTargetPage::imagePath() const
{
    return QDir::cleanPath(m_imagePath->text().trimmed());
}

qint64 CopyTargetPage::imageBytes() const
{
    // Whole MiB, so the image ends on the grain.
    const qint64 mib = qint64(std::llround(m_imageGiB->value() * 1024.0));
    return mib * 1024 * 1024;
}

bool CopyTargetPage::isComplete() const
{
    if (m_toDisk->isChecked())
        return m_disks->currentIndex() >= 0;
    return QFileInfo(imagePath()).isAbsolute() && !imagePath().endsWith(QLatin1Char('/'));
}

CopyOptionsPage::CopyOptionsPage(CopyWizard *wizard) : m_wizard(wizard)
{
    setObjectName(QStringLiteral("copyOptionsPage"));
    setTitle(tr("How to Copy"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_grain = new QComboBox;
    m_grain->setObjectName(QStringLiteral("copyGrain"));
    for (const int mib : {1, 2, 4, 8, 16})
        m_grain->addItem(tr("%1 MiB").arg(mib), qint64(mib) << 20);
    const int current = m_grain->findData(wizard->setup().policy.grainBytes);
    m_grain->setCurrentIndex(current >= 0 ? current : 0);
    auto *grainLabel = new QLabel(tr("Partitions start on a multiple of (&grain):"));
    grainLabel->setBuddy(m_grain);
    form->addRow(grainLabel, m_grain);
    m_table = new QComboBox;
    m_table->setObjectName(QStringLiteral("copyTable"));
    m_table->addItem(tr("Keep the source's"), QString());
    m_table->addItem(tr("GPT"), QStringLiteral("gpt"));
    auto *tableLabel = new QLabel(tr("Partition &table:"));
    tableLabel->setBuddy(m_table);
    form->addRow(tableLabel, m_table);
    layout->addLayout(form);

    layout->addWidget(new QLabel(tr("When the target is larger:")));
    m_sizes = new QButtonGroup(this);
    const QList<QPair<QString, QString>> sizes{
        {tr("&Keep every partition's size"), QStringLiteral("copyKeepSizes")},
        {tr("Grow the &last partition to fill the target"), QStringLiteral("copyGrowLast")},
        {tr("Grow every partition in &proportion"), QStringLiteral("copyGrowProportional")}};
    for (int i = 0; i < sizes.size(); ++i) {
        auto *button = new QRadioButton(sizes[i].first);
        button->setObjectName(sizes[i].second);
        m_sizes->addButton(button, i);
        layout->addWidget(button);
    }
    m_sizes->button(0)->setChecked(true);

    auto *where = new QLabel(tr("Where will the copy be used?"));
    where->setWordWrap(true);
    layout->addSpacing(8);
    layout->addWidget(where);
    m_where = new QButtonGroup(this);
    auto *replaces =
        new QRadioButton(tr("It &replaces the old disk: keep every UUID, label and disk id"));
    replaces->setObjectName(QStringLiteral("copyReplaces"));
    auto *beside = new QRadioButton(tr("It will sit be&side the old disk on this computer: "
                                       "new UUIDs and disk ids"));
    beside->setObjectName(QStringLiteral("copyBeside"));
    m_where->addButton(replaces, 1);
    m_where->addButton(beside, 2);
    layout->addWidget(replaces);
    layout->addWidget(beside);
    auto *why = new QLabel(tr("Two disks with the same ids on one computer confuse mounting and "
                              "booting, so a copy kept beside its source needs new ones."));
    why->setWordWrap(true);
    layout->addWidget(why);
    layout->addStretch();
    connect(m_where, &QButtonGroup::idClicked, this, &CopyOptionsPage::completeChanged);
}

bool CopyOptionsPage::isComplete() const
{
    return m_where->checkedId() > 0; // asked, never assumed
}

CopyOptions CopyOptionsPage::options() const
{
    CopyOptions options;
    options.policy = m_wizard->setup().policy;
    options.policy.grainBytes = m_grain->currentData().toLongLong();
    options.tableType = m_table->currentData().toString();
    options.growth = m_sizes->checkedId() == 1   ? CopyGrowth::GrowLast
                     : m_sizes->checkedId() == 2 ? CopyGrowth::Proportional
                                                 : CopyGrowth::KeepSizes;
    options.newIds = m_where->checkedId() == 2;
    return options;
}
