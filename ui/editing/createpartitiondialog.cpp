#include "editing/createpartitiondialog.h"

#include "alignmentstyle.h"
#include "base/humansize.h"
#include "editing/partitionflags.h"
#include "editing/passphrasefields.h"
#include "editing/placementcontrols.h"
#include "fs/filesystemformatter.h"
#include "fs/filesystemsupport.h"
#include "layer/layercreator.h"
#include "ops/copyplan.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

using namespace partwise;

namespace {

constexpr qint64 kMiB = qint64(1) << 20;
constexpr qint64 kGiB = qint64(1) << 30;

// The largest value with `decimals` decimals not above `value`.
double floorTo(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::floor(value * scale + 1e-9) / scale;
}

} // namespace

CreatePartitionDialog::CreatePartitionDialog(const DiskLayout &base,
                                             const QList<Operation> &pending,
                                             const DiskLayout &shown,
                                             const PartitionInfo &freeRegion,
                                             const AlignmentPolicy &policy, QWidget *parent,
                                             const std::optional<Operation> &paste)
    : QDialog(parent), m_base(base), m_pending(pending), m_shown(shown), m_free(freeRegion),
      m_policy(policy), m_paste(paste), m_sectorSize(shown.device.topology.logicalSectorSize)
{
    // Every change asks for a preview; the ones made in one go are previewed once.
    m_previewTimer.setSingleShot(true);
    m_previewTimer.setInterval(0);
    connect(&m_previewTimer, &QTimer::timeout, this, &CreatePartitionDialog::runPreview);
    setWindowTitle(tr("Create Partition"));
    setObjectName(QStringLiteral("createPartitionDialog"));
    const bool mbr = shown.tableType == QLatin1String("msdos");

    auto *form = new QFormLayout;
    auto *region = new QLabel(tr("Unallocated space of %1, sectors %2 – %3 (%4-byte sectors)")
                                  .arg(humanSize(regionBytes()))
                                  .arg(m_free.startSector)
                                  .arg(m_free.endSector)
                                  .arg(m_sectorSize));
    region->setWordWrap(true);
    form->addRow(region);

    m_unit = new QComboBox;
    m_unit->setObjectName(QStringLiteral("unit"));
    m_unit->addItem(tr("MiB"), int(Unit::MiB));
    m_unit->addItem(tr("GiB"), int(Unit::GiB));
    form->addRow(tr("&Units:"), m_unit);

    m_before = new QDoubleSpinBox;
    m_before->setObjectName(QStringLiteral("freeBefore"));
    m_before->setAccessibleName(tr("Free space before"));
    form->addRow(tr("Free space &before:"), m_before);
    m_size = new QDoubleSpinBox;
    m_size->setObjectName(QStringLiteral("size"));
    m_size->setAccessibleName(tr("Size"));
    m_size->setToolTip(tr("At its maximum the partition takes the rest of the free space."));
    form->addRow(tr("&Size:"), m_size);
    m_after = new QLabel;
    m_after->setObjectName(QStringLiteral("freeAfter"));
    form->addRow(tr("Free space after:"), m_after);

    m_align = PlacementControls::createAlignToCombo(m_policy);
    form->addRow(PlacementControls::alignToLabel(), m_align);

    m_kind = new QComboBox;
    m_kind->setObjectName(QStringLiteral("kind"));
    bool hasExtended = false;
    for (const PartitionInfo &p : shown.regions)
        hasExtended = hasExtended || p.kind == PartitionInfo::Kind::Extended;
    if (m_free.insideExtended) {
        m_kind->addItem(tr("Logical"), int(PartitionInfo::Kind::Logical));
    } else {
        m_kind->addItem(tr("Primary"), int(PartitionInfo::Kind::Primary));
        if (mbr && !hasExtended)
            m_kind->addItem(tr("Extended"), int(PartitionInfo::Kind::Extended));
    }
    form->addRow(tr("&Kind:"), m_kind);
    form->setRowVisible(m_kind, mbr);

    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("partitionName"));
    m_name->setMaxLength(36); // GPT names are 36 UTF-16 code units
    m_name->setPlaceholderText(tr("GPT partition name (optional)"));
    form->addRow(tr("&Name:"), m_name);
    form->setRowVisible(m_name, !mbr);

    m_filesystem = new QComboBox;
    m_filesystem->setObjectName(QStringLiteral("filesystem"));
    m_filesystem->addItem(tr("unformatted"), QString());
    for (const QString &fs : creatableHere()) // only what the installed tools can make
        m_filesystem->addItem(fs, fs);
    m_filesystem->setCurrentIndex(m_filesystem->findData(QStringLiteral("ext4")));
    form->addRow(tr("&Filesystem:"), m_filesystem);
    m_passphrase = new PassphraseFields;
    form->addRow(m_passphrase);
    m_passphrase->setVisible(false);

    m_label = new QLineEdit;
    m_label->setObjectName(QStringLiteral("label"));
    m_label->setPlaceholderText(tr("Filesystem label (optional)"));
    form->addRow(tr("&Label:"), m_label);

    m_flags = new QListWidget;
    m_flags->setObjectName(QStringLiteral("flags"));
    m_flags->setFlow(QListView::LeftToRight);
    m_flags->setWrapping(true);
    m_flags->setResizeMode(QListView::Adjust);
    m_flags->setFixedHeight(m_flags->fontMetrics().height() * 5 + 12);
    for (const QString &flag : partitionFlagNames(shown.tableType)) {
        auto *item = new QListWidgetItem(flag, m_flags);
        item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
        item->setCheckState(Qt::Unchecked);
        item->setToolTip(partitionFlagHint(flag));
    }
    form->addRow(tr("Fla&gs:"), m_flags);

    m_result = new QLabel;
    m_result->setObjectName(QStringLiteral("previewResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setMinimumHeight(m_result->fontMetrics().height() * 3);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Add to Queue"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_result);
    layout->addWidget(m_buttons);

    setUnit(regionBytes() >= 10 * kGiB ? Unit::GiB : Unit::MiB);
    m_before->setValue(0);
    m_size->setValue(m_size->maximum());
    if (m_paste)
        setUpPaste(form);

    connect(m_unit, &QComboBox::currentIndexChanged, this,
            [this] { setUnit(Unit(m_unit->currentData().toInt())); });
    connect(m_before, &QDoubleSpinBox::valueChanged, this, [this] {
        const bool rest = sizeIsRest();
        updateLimits();
        if (rest)
            m_size->setValue(m_size->maximum());
        schedulePreview();
    });
    connect(m_size, &QDoubleSpinBox::valueChanged, this, &CreatePartitionDialog::schedulePreview);
    connect(m_align, &QComboBox::currentIndexChanged, this,
            &CreatePartitionDialog::schedulePreview);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        const bool extended = m_kind->currentData().toInt() == int(PartitionInfo::Kind::Extended);
        m_filesystem->setEnabled(!extended);
        m_label->setEnabled(!extended);
        m_flags->setEnabled(!extended);
        schedulePreview();
    });
    connect(m_filesystem, &QComboBox::currentIndexChanged, this, [this] {
        m_passphrase->setVisible(m_filesystem->currentData().toString() == QLatin1String("luks2"));
        schedulePreview();
    });
    connect(m_passphrase, &PassphraseFields::changed, this,
            &CreatePartitionDialog::schedulePreview);
    connect(m_name, &QLineEdit::textChanged, this, &CreatePartitionDialog::schedulePreview);
    connect(m_flags, &QListWidget::itemChanged, this, &CreatePartitionDialog::schedulePreview);
    runPreview();
}

void CreatePartitionDialog::setUpPaste(QFormLayout *form)
{
    const Operation::PasteSource &source = m_paste->source;
    setWindowTitle(tr("Paste Partition"));
    setObjectName(QStringLiteral("pastePartitionDialog"));
    QString what = tr("Partition %1 of %2: %3, %4")
                       .arg(m_paste->sourceNumber)
                       .arg(m_paste->sourcePath, source.filesystem, humanSize(source.lengthBytes));
    if (!source.label.isEmpty())
        what += tr(", labelled “%1”").arg(source.label);
    // What its table entry brings along onto this table (ops/copyplan.h's rule).
    const QStringList flags =
        carriedEntry(source.tableType, m_shown.tableType, source.flags, source.typeId).flags;
    if (!flags.isEmpty())
        what += tr(", flags %1").arg(flags.join(QStringLiteral(", ")));
    if (!source.name.isEmpty() && m_shown.tableType == QLatin1String("gpt"))
        what += tr(", named “%1”").arg(source.name);
    auto *copied = new QLabel(what);
    copied->setObjectName(QStringLiteral("pasteSource"));
    copied->setWordWrap(true);
    form->insertRow(0, tr("Paste:"), copied);
    for (QWidget *row : {static_cast<QWidget *>(m_name), static_cast<QWidget *>(m_filesystem),
                         static_cast<QWidget *>(m_label), static_cast<QWidget *>(m_flags)})
        form->setRowVisible(row, false);
    m_passphrase->setVisible(false);
    const int extended = m_kind->findData(int(PartitionInfo::Kind::Extended));
    if (extended >= 0)
        m_kind->removeItem(extended);
    m_size->setToolTip(tr("At least what the source's filesystem fills, or as little as its "
                          "own tool can shrink it to once that is measured; a larger partition "
                          "gets its filesystem grown, a smaller one shrunk on the way."));
    updateLimits();
    m_size->setValue(std::ceil(double(source.lengthBytes) / double(unitBytes()) *
                                   std::pow(10.0, m_size->decimals()) -
                               1e-9) /
                     std::pow(10.0, m_size->decimals()));
    schedulePreview();
}

qint64 CreatePartitionDialog::unitBytes() const
{
    return Unit(m_unit->currentData().toInt()) == Unit::GiB ? kGiB : kMiB;
}

qint64 CreatePartitionDialog::regionBytes() const
{
    return m_free.lengthSectors() * m_sectorSize;
}

qint64 CreatePartitionDialog::beforeBytes() const
{
    return std::llround(m_before->value() * double(unitBytes()));
}

bool CreatePartitionDialog::sizeIsRest() const
{
    return m_size->value() >= m_size->maximum();
}

void CreatePartitionDialog::setUnit(Unit unit)
{
    const bool rest = m_size->maximum() > 0 ? sizeIsRest() : true;
    const qint64 before = beforeBytes();
    const qint64 size = std::llround(m_size->value() * double(unitBytes()));
    const QSignalBlocker b1(m_unit), b2(m_before), b3(m_size);
    m_unit->setCurrentIndex(m_unit->findData(int(unit)));
    const int decimals = unit == Unit::GiB ? 2 : 0;
    const QString suffix = unit == Unit::GiB ? tr(" GiB") : tr(" MiB");
    for (QDoubleSpinBox *box : {m_before, m_size}) {
        box->setDecimals(decimals);
        box->setSuffix(suffix);
        box->setSingleStep(unit == Unit::GiB ? 0.25 : 1);
    }
    m_before->setMaximum(floorTo(double(regionBytes()) / double(unitBytes()), decimals));
    m_before->setValue(double(before) / double(unitBytes()));
    updateLimits();
    m_size->setValue(rest ? m_size->maximum() : double(size) / double(unitBytes()));
    schedulePreview();
}

void CreatePartitionDialog::updateLimits()
{
    const int decimals = m_size->decimals();
    const double step = std::pow(10.0, -decimals);
    const double room = double(regionBytes() - beforeBytes()) / double(unitBytes());
    // A paste is never smaller than the filesystem it holds.
    const double least =
        m_paste ? std::ceil(double(m_paste->source.minimumBytes()) / double(unitBytes()) / step -
                            1e-9) *
                      step
                : step;
    m_size->setMinimum(std::min(least, floorTo(room, decimals)));
    m_size->setMaximum(std::max(m_size->minimum(), floorTo(room, decimals)));
}

void CreatePartitionDialog::setSizeBytes(qint64 bytes)
{
    m_size->setValue(double(bytes) / double(unitBytes()));
}

void CreatePartitionDialog::setBeforeBytes(qint64 bytes)
{
    m_before->setValue(double(bytes) / double(unitBytes()));
}

void CreatePartitionDialog::setAlignTo(AlignTo mode)
{
    m_align->setCurrentIndex(m_align->findData(int(mode)));
}

void CreatePartitionDialog::setKind(PartitionInfo::Kind kind)
{
    const int index = m_kind->findData(int(kind));
    if (index >= 0)
        m_kind->setCurrentIndex(index);
}

void CreatePartitionDialog::setFilesystem(const QString &filesystem)
{
    m_filesystem->setCurrentIndex(std::max(0, m_filesystem->findData(filesystem)));
}

void CreatePartitionDialog::setLabel(const QString &label)
{
    m_label->setText(label);
}

void CreatePartitionDialog::setName(const QString &name)
{
    m_name->setText(name);
}

void CreatePartitionDialog::setFlags(const QStringList &flags)
{
    for (int i = 0; i < m_flags->count(); ++i) {
        QListWidgetItem *item = m_flags->item(i);
        item->setCheckState(flags.contains(item->text()) ? Qt::Checked : Qt::Unchecked);
    }
}

Operation CreatePartitionDialog::operation() const
{
    Operation op;
    op.type = Operation::Type::Create;
    if (m_paste) {
        op = *m_paste;
        op.type = Operation::Type::Paste;
    }
    op.kind = PartitionInfo::Kind(m_kind->currentData().toInt());
    op.startBytes = m_free.startSector * m_sectorSize + beforeBytes();
    // Nothing left free in front of the first free space of its kind: the plan just says
    // "the first free space", as a hand-written plan would.
    if (beforeBytes() == 0) {
        for (const PartitionInfo &r : m_shown.regions) {
            if (!r.isFree() || r.insideExtended != m_free.insideExtended)
                continue;
            if (r.startSector == m_free.startSector)
                op.startBytes = -1;
            break;
        }
    }
    op.sizeBytes = sizeIsRest() ? -1 : std::llround(m_size->value() * double(unitBytes()));
    op.alignTo = AlignTo(m_align->currentData().toInt());
    if (m_paste)
        return op;
    if (m_shown.tableType == QLatin1String("gpt"))
        op.name = m_name->text().trimmed();
    if (op.kind != PartitionInfo::Kind::Extended) {
        op.filesystem = m_filesystem->currentData().toString();
        op.label = op.filesystem.isEmpty() ? QString() : m_label->text().trimmed();
        if (op.filesystem == QLatin1String("luks2"))
            op.passphrase = m_passphrase->passphrase();
        for (int i = 0; i < m_flags->count(); ++i)
            if (m_flags->item(i)->checkState() == Qt::Checked)
                op.flags << m_flags->item(i)->text();
    }
    return op;
}

QString CreatePartitionDialog::previewText() const
{
    return m_result->text();
}

void CreatePartitionDialog::schedulePreview()
{
    m_previewTimer.start(); // a pending preview is not started twice
}

void CreatePartitionDialog::runPreview()
{
    m_previewTimer.stop();
    const Operation op = operation();
    QList<Operation> ops = m_pending;
    ops << op;
    const PreviewResult result = previewOperations(m_base, ops, m_policy);
    m_previewed.reset();
    int row = -1;
    if (result.ok) {
        for (int i = 0; i < result.layout.regions.size(); ++i) {
            const PartitionInfo &p = result.layout.regions.at(i);
            if (!p.isFree() && p.kind == op.kind && p.startSector >= m_free.startSector &&
                p.startSector <= m_free.endSector) {
                m_previewed = p;
                row = i;
                break;
            }
        }
    }
    QPushButton *ok = m_buttons->button(QDialogButtonBox::Ok);
    if (!m_previewed) {
        m_result->setText(result.ok ? tr("libparted did not place the partition here.")
                                    : result.error);
        m_result->setStyleSheet(AlignmentStyle::errorStyleSheet(palette()));
        m_after->clear();
        ok->setEnabled(false);
        return;
    }
    const PartitionInfo &p = *m_previewed;
    AlignmentStatus status = AlignmentStatus::NotApplicable;
    const QString text = PlacementControls::resultText(result.layout, row, m_policy, &status);
    m_result->setText(text);
    m_result->setStyleSheet(status == AlignmentStatus::Misaligned
                                ? AlignmentStyle::errorStyleSheet(palette())
                                : QString());
    m_after->setText(humanSize((m_free.endSector - p.endSector) * m_sectorSize));
    // A LUKS2 volume needs its passphrase typed twice alike before it can be queued.
    ok->setEnabled(!m_passphrase->isVisibleTo(this) || m_passphrase->complete());
}
