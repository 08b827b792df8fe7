#include "practicediskdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

using namespace partwise;

namespace {

QString fileStem(PracticePreset preset)
{
    return QStringLiteral("practice-") + practicePresetName(preset);
}

// The presets' names on screen (core's practicePresetTitle() is the English original).
QString presetTitle(PracticePreset preset)
{
    switch (preset) {
    case PracticePreset::Empty:
        return PracticeDiskDialog::tr("Empty (no partition table)");
    case PracticePreset::WindowsXp:
        return PracticeDiskDialog::tr("Windows XP (sector 63)");
    case PracticePreset::OldFdiskLogical:
        return PracticeDiskDialog::tr("Old fdisk with logical partitions");
    case PracticePreset::GptAt34:
        return PracticeDiskDialog::tr("GPT at sector 34");
    case PracticePreset::Gpt4Kn:
        return PracticeDiskDialog::tr("4Kn disk (4096-byte sectors)");
    case PracticePreset::ModernMiB:
        return PracticeDiskDialog::tr("Modern 1 MiB layout");
    case PracticePreset::Demo:
        return PracticeDiskDialog::tr("Demo: misaligned and aligned partitions");
    }
    return practicePresetTitle(preset);
}

} // namespace

PracticeDiskDialog::PracticeDiskDialog(const QString &folder, QWidget *parent)
    : QDialog(parent), m_folder(folder)
{
    setWindowTitle(tr("New Practice Disk"));
    auto *form = new QFormLayout(this);

    auto *intro = new QLabel(tr("A practice disk is a sparse image file: it takes almost no "
                                "space and nothing on your real disks is touched."));
    intro->setWordWrap(true);
    form->addRow(intro);

    m_preset = new QComboBox;
    m_preset->setObjectName(QStringLiteral("preset"));
    for (PracticePreset preset : allPracticePresets())
        m_preset->addItem(presetTitle(preset), int(preset));
    form->addRow(tr("&Layout:"), m_preset);

    m_sizeMiB = new QSpinBox;
    m_sizeMiB->setObjectName(QStringLiteral("sizeMiB"));
    m_sizeMiB->setRange(64, 4 * 1024 * 1024);
    m_sizeMiB->setValue(1024);
    m_sizeMiB->setSuffix(tr(" MiB"));
    form->addRow(tr("&Size:"), m_sizeMiB);

    m_sectorSize = new QComboBox;
    m_sectorSize->setObjectName(QStringLiteral("sectorSize"));
    m_sectorSize->addItem(tr("512 bytes"), 512);
    m_sectorSize->addItem(tr("4096 bytes (4Kn)"), 4096);
    form->addRow(tr("Logical &sector size:"), m_sectorSize);

    m_path = new QLineEdit;
    m_path->setObjectName(QStringLiteral("imagePath"));
    auto *browseButton = new QPushButton(tr("&Browse…"));
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path);
    pathRow->addWidget(browseButton);
    // A row holding a layout gets no buddy by itself: without one the "&" would show.
    auto *pathLabel = new QLabel(tr("&Image file:"));
    pathLabel->setBuddy(m_path);
    form->addRow(pathLabel, pathRow);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("C&reate"));
    form->addRow(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browseButton, &QPushButton::clicked, this, &PracticeDiskDialog::browse);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &PracticeDiskDialog::suggestPath);
    // The 4Kn preset has 4096-byte sectors by definition.
    connect(m_preset, &QComboBox::currentIndexChanged, this, [this] {
        const qint64 forced =
            practicePresetSectorSize(PracticePreset(m_preset->currentData().toInt()));
        if (forced > 0)
            m_sectorSize->setCurrentIndex(m_sectorSize->findData(int(forced)));
        m_sectorSize->setEnabled(forced == 0);
    });
    connect(m_path, &QLineEdit::textEdited, this, [this] { m_pathEdited = true; });
    connect(m_path, &QLineEdit::textChanged, this, &PracticeDiskDialog::updateState);
    suggestPath();
}

PracticeDiskSpec PracticeDiskDialog::spec() const
{
    PracticeDiskSpec spec;
    spec.path = m_path->text().trimmed();
    spec.sizeBytes = qint64(m_sizeMiB->value()) << 20;
    spec.preset = PracticePreset(m_preset->currentData().toInt());
    spec.sectorSize = practicePresetSectorSize(spec.preset);
    if (spec.sectorSize == 0)
        spec.sectorSize = m_sectorSize->currentData().toLongLong();
    return spec;
}

void PracticeDiskDialog::browse()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Practice Disk Image"),
                                                      m_path->text(), tr("Disk images (*.img)"));
    if (path.isEmpty())
        return;
    m_path->setText(path);
    m_pathEdited = true;
}

void PracticeDiskDialog::suggestPath()
{
    if (m_pathEdited)
        return;
    // Never suggest a file that exists: creating refuses to overwrite.
    const QDir dir(m_folder);
    const QString stem = fileStem(PracticePreset(m_preset->currentData().toInt()));
    QString path = dir.filePath(stem + QStringLiteral(".img"));
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = dir.filePath(QStringLiteral("%1-%2.img").arg(stem).arg(n));
    m_path->setText(path);
}

void PracticeDiskDialog::updateState()
{
    const QString path = m_path->text().trimmed();
    const bool usable = !path.isEmpty() && !QFileInfo::exists(path);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(usable);
    m_path->setToolTip(QFileInfo::exists(path) ? tr("This file exists already") : QString());
}
