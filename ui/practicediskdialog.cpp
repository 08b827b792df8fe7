#include "practicediskdialog.h"

#include "alignmentstyle.h"

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

#include <algorithm>

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

PracticeDiskDialog::PracticeDiskDialog(const QString &folder, QWidget *parent) : QDialog(parent)
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
    // Something to realign, as on the demo disk: the layout the Windows XP installer made.
    m_preset->setCurrentIndex(m_preset->findData(int(PracticePreset::WindowsXp)));
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
    form->addRow(tr("Logical sec&tor size:"), m_sectorSize);

    // The folder whole, wide enough to read: where the image goes is not a detail.
    m_folder = new QLineEdit(QDir::toNativeSeparators(folder));
    m_folder->setObjectName(QStringLiteral("imageFolder"));
    m_folder->setMinimumWidth(
        std::min(m_folder->fontMetrics().horizontalAdvance(m_folder->text()) + 24,
                 m_folder->fontMetrics().averageCharWidth() * 70));
    auto *browseButton = new QPushButton(tr("&Browse…"));
    browseButton->setObjectName(QStringLiteral("browseFolder"));
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browseButton);
    // A row holding a layout gets no buddy by itself: without one the "&" would show.
    auto *folderLabel = new QLabel(tr("&Folder:"));
    folderLabel->setBuddy(m_folder);
    form->addRow(folderLabel, folderRow);

    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("imageName"));
    form->addRow(tr("File &name:"), m_name);

    m_where = new QLabel;
    m_where->setObjectName(QStringLiteral("imagePath"));
    m_where->setWordWrap(true);
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(QString(), m_where);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("C&reate"));
    form->addRow(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browseButton, &QPushButton::clicked, this, &PracticeDiskDialog::browse);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &PracticeDiskDialog::suggestName);
    // The 4Kn preset has 4096-byte sectors by definition.
    connect(m_preset, &QComboBox::currentIndexChanged, this, [this] {
        const qint64 forced =
            practicePresetSectorSize(PracticePreset(m_preset->currentData().toInt()));
        if (forced > 0)
            m_sectorSize->setCurrentIndex(m_sectorSize->findData(int(forced)));
        m_sectorSize->setEnabled(forced == 0);
    });
    connect(m_name, &QLineEdit::textEdited, this, [this] { m_nameEdited = true; });
    connect(m_name, &QLineEdit::textChanged, this, &PracticeDiskDialog::updateState);
    // Another folder may hold the suggested name already.
    connect(m_folder, &QLineEdit::textChanged, this, &PracticeDiskDialog::suggestName);
    connect(m_folder, &QLineEdit::textChanged, this, &PracticeDiskDialog::updateState);
    suggestName();
    updateState();
}

QString PracticeDiskDialog::path() const
{
    const QString folder = QDir::fromNativeSeparators(m_folder->text().trimmed());
    const QString name = m_name->text().trimmed();
    if (folder.isEmpty() || name.isEmpty())
        return QString();
    return QDir(folder).filePath(name);
}

PracticeDiskSpec PracticeDiskDialog::spec() const
{
    PracticeDiskSpec spec;
    spec.path = path();
    spec.sizeBytes = qint64(m_sizeMiB->value()) << 20;
    spec.preset = PracticePreset(m_preset->currentData().toInt());
    spec.sectorSize = practicePresetSectorSize(spec.preset);
    if (spec.sectorSize == 0)
        spec.sectorSize = m_sectorSize->currentData().toLongLong();
    return spec;
}

void PracticeDiskDialog::browse()
{
    const QString folder =
        QFileDialog::getExistingDirectory(this, tr("Folder for the Practice Disk"),
                                          QDir::fromNativeSeparators(m_folder->text().trimmed()));
    if (!folder.isEmpty())
        m_folder->setText(QDir::toNativeSeparators(folder));
}

void PracticeDiskDialog::suggestName()
{
    if (m_nameEdited)
        return;
    // Never suggest a file that exists: creating refuses to overwrite.
    const QDir dir(QDir::fromNativeSeparators(m_folder->text().trimmed()));
    const QString stem = fileStem(PracticePreset(m_preset->currentData().toInt()));
    QString name = stem + QStringLiteral(".img");
    for (int n = 2; QFileInfo::exists(dir.filePath(name)); ++n)
        name = QStringLiteral("%1-%2.img").arg(stem).arg(n);
    m_name->setText(name);
}

void PracticeDiskDialog::updateState()
{
    const QString folder = QDir::fromNativeSeparators(m_folder->text().trimmed());
    const QString name = m_name->text().trimmed();
    const QString image = path();
    QString problem;
    if (folder.isEmpty())
        problem = tr("Choose a folder for the image.");
    else if (!QFileInfo(folder).isDir())
        problem = tr("There is no folder %1.").arg(QDir::toNativeSeparators(folder));
    else if (name.isEmpty())
        problem = tr("Give the image a file name.");
    else if (name.contains(QLatin1Char('/')))
        problem = tr("The file name cannot hold a “/”: choose the folder above.");
    else if (QFileInfo::exists(image))
        problem =
            tr("%1 exists already: choose another name.").arg(QDir::toNativeSeparators(image));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
    m_where->setText(problem.isEmpty() ? tr("Creates %1").arg(QDir::toNativeSeparators(image))
                                       : problem);
    m_where->setStyleSheet(problem.isEmpty() ? QString()
                                             : AlignmentStyle::errorStyleSheet(palette()));
}
