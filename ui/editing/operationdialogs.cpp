#include "editing/operationdialogs.h"

#include "base/humansize.h"
#include "editing/editingtext.h"
#include "editing/partitionflags.h"
#include "editing/passphrasefields.h"
#include "fs/filesystemformatter.h"
#include "fs/filesystemsupport.h"
#include "layer/layercreator.h"
#include "regionnames.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

using namespace partwise;

namespace {

QDialogButtonBox *addButtons(QDialog *dialog, QVBoxLayout *layout, const QString &okText)
{
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(okText);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    return buttons;
}

} // namespace

NewTableDialog::NewTableDialog(const DiskLayout &shown, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("New Partition Table"));
    setObjectName(QStringLiteral("newTableDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *warningRow = new QHBoxLayout;
    auto *icon = new QLabel;
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(32, 32));
    warningRow->addWidget(icon, 0, Qt::AlignTop);
    const int count = int(shown.partitions().size());
    const QString disk = shown.device.path.toHtmlEscaped();
    QString text;
    if (count == 1)
        text = tr("<b>A new partition table erases the partition on %1.</b> Its data becomes "
                  "unreachable once the queue is applied.")
                   .arg(disk);
    else if (count > 1)
        text = tr("<b>A new partition table erases all %1 on %2.</b> Their data becomes "
                  "unreachable once the queue is applied.")
                   .arg(partitionCountText(count), disk);
    else
        text = tr("<b>A new partition table replaces whatever %1 holds.</b>").arg(disk);
    auto *warning = new QLabel(text);
    warning->setWordWrap(true);
    warningRow->addWidget(warning, 1);
    layout->addLayout(warningRow);
    auto *form = new QFormLayout;
    m_type = new QComboBox;
    m_type->setObjectName(QStringLiteral("tableType"));
    m_type->addItem(tr("GPT (GUID partition table)"), QStringLiteral("gpt"));
    m_type->addItem(tr("MBR (msdos; at most 4 primaries, 2 TiB with 512-byte sectors)"),
                    QStringLiteral("msdos"));
    form->addRow(tr("&Type:"), m_type);
    layout->addLayout(form);
    addButtons(this, layout, tr("&Add to Queue"));
}

Operation NewTableDialog::operation() const
{
    Operation op;
    op.type = Operation::Type::NewTable;
    op.tableType = m_type->currentData().toString();
    return op;
}

FormatDialog::FormatDialog(const PartitionInfo &partition, QWidget *parent)
    : QDialog(parent), m_number(partition.number)
{
    setWindowTitle(tr("Format %1").arg(regionTitle(partition)));
    setObjectName(QStringLiteral("formatDialog"));
    setMinimumWidth(380);
    auto *layout = new QVBoxLayout(this);
    auto *text = new QLabel(tr("Creating a filesystem erases what %1 holds now (%2).")
                                .arg(regionTitle(partition), partition.filesystem.isEmpty()
                                                                 ? tr("no filesystem found")
                                                                 : partition.filesystem));
    text->setWordWrap(true);
    layout->addWidget(text);
    auto *form = new QFormLayout;
    m_filesystem = new QComboBox;
    m_filesystem->setObjectName(QStringLiteral("filesystem"));
    for (const QString &fs : creatableHere()) // only what the installed tools can make
        m_filesystem->addItem(fs, fs);
    const int current = m_filesystem->findData(partition.filesystem);
    m_filesystem->setCurrentIndex(current >= 0 ? current : 0);
    form->addRow(tr("&Filesystem:"), m_filesystem);
    m_label = new QLineEdit(partition.label);
    m_label->setObjectName(QStringLiteral("label"));
    form->addRow(tr("&Label:"), m_label);
    m_passphrase = new PassphraseFields;
    form->addRow(m_passphrase);
    layout->addLayout(form);
    QPushButton *ok = addButtons(this, layout, tr("&Add to Queue"))->button(QDialogButtonBox::Ok);
    // A LUKS2 volume needs its passphrase typed twice alike before it can be queued.
    auto update = [this, ok] {
        const bool luks = m_filesystem->currentData().toString() == QLatin1String("luks2");
        m_passphrase->setVisible(luks);
        ok->setEnabled(!luks || m_passphrase->complete());
    };
    connect(m_filesystem, &QComboBox::currentIndexChanged, this, update);
    connect(m_passphrase, &PassphraseFields::changed, this, update);
    update();
}

Operation FormatDialog::operation() const
{
    Operation op;
    op.type = Operation::Type::Format;
    op.number = m_number;
    op.filesystem = m_filesystem->currentData().toString();
    op.label = m_label->text().trimmed();
    if (op.filesystem == QLatin1String("luks2"))
        op.passphrase = m_passphrase->passphrase();
    return op;
}

FlagsDialog::FlagsDialog(const PartitionInfo &partition, const QString &tableType, QWidget *parent)
    : QDialog(parent), m_partition(partition)
{
    setWindowTitle(tr("Flags of %1").arg(regionTitle(partition)));
    setObjectName(QStringLiteral("flagsDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *hint =
        new QLabel(tr("Flags of %1 on a %2 table. A flag this table does not take is refused in "
                      "the preview, before anything is written.")
                       .arg(regionTitle(partition),
                            tableType == QLatin1String("msdos") ? tr("MBR") : tableType.toUpper()));
    hint->setWordWrap(true);
    layout->addWidget(hint);
    m_flags = new QListWidget;
    m_flags->setObjectName(QStringLiteral("flags"));
    QStringList names = partitionFlagNames(tableType);
    for (const QString &flag : partition.flags)
        if (!names.contains(flag))
            names << flag;
    for (const QString &flag : names) {
        // The name as parted and GParted show it, and what it means beside it.
        const QString meaning = partitionFlagHint(flag);
        auto *item = new QListWidgetItem(
            meaning.isEmpty() ? flag : tr("%1 — %2").arg(flag, meaning), m_flags);
        item->setData(Qt::UserRole, flag);
        item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
        item->setCheckState(partition.flags.contains(flag) ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(partitionFlagHint(flag));
    }
    // Wide enough for each flag and its meaning, as far as a small screen allows.
    m_flags->setMinimumWidth(
        std::min(m_flags->sizeHintForColumn(0) + 2 * m_flags->frameWidth() +
                     m_flags->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 8,
                 700));
    layout->addWidget(m_flags);
    addButtons(this, layout, tr("&Add to Queue"));
}

QList<Operation> FlagsDialog::operations() const
{
    QList<Operation> ops;
    for (int i = 0; i < m_flags->count(); ++i) {
        const QListWidgetItem *item = m_flags->item(i);
        const bool on = item->checkState() == Qt::Checked;
        const QString flag = item->data(Qt::UserRole).toString();
        if (on == m_partition.flags.contains(flag))
            continue;
        Operation op;
        op.type = Operation::Type::SetFlag;
        op.number = m_partition.number;
        op.flag = flag;
        op.flagState = on;
        ops << op;
    }
    return ops;
}

CheckDialog::CheckDialog(const PartitionInfo &partition, QWidget *parent)
    : QDialog(parent), m_number(partition.number)
{
    setWindowTitle(tr("Check %1").arg(regionTitle(partition)));
    setObjectName(QStringLiteral("checkDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *text =
        new QLabel(tr("Check the %1 filesystem on %2 with its own fsck tool. "
                      "Without repair, nothing on the disk is changed.")
                       .arg(partition.filesystem.isEmpty() ? tr("unknown") : partition.filesystem,
                            regionTitle(partition)));
    text->setWordWrap(true);
    layout->addWidget(text);
    m_repair = new QCheckBox(tr("&Repair problems that are found"));
    m_repair->setObjectName(QStringLiteral("repair"));
    layout->addWidget(m_repair);
    addButtons(this, layout, tr("&Add to Queue"));
}

Operation CheckDialog::operation() const
{
    Operation op;
    op.type = Operation::Type::Check;
    op.number = m_number;
    op.repair = m_repair->isChecked();
    return op;
}

namespace OperationPrompts {

std::optional<Operation> askLabel(const PartitionInfo &partition, QWidget *parent)
{
    bool ok = false;
    const QString label = QInputDialog::getText(
        parent, QCoreApplication::translate("OperationPrompts", "Filesystem Label"),
        QCoreApplication::translate("OperationPrompts", "New label for the %1 filesystem on %2:")
            .arg(partition.filesystem, regionTitle(partition)),
        QLineEdit::Normal, partition.label, &ok);
    if (!ok)
        return std::nullopt;
    Operation op;
    op.type = Operation::Type::SetLabel;
    op.number = partition.number;
    op.label = label.trimmed();
    op.oldLabel = partition.label; // its LABEL= references follow (ops/identityfollow.h)
    return op;
}

std::optional<Operation> askName(const PartitionInfo &partition, QWidget *parent)
{
    bool ok = false;
    const QString name = QInputDialog::getText(
        parent, QCoreApplication::translate("OperationPrompts", "Partition Name"),
        QCoreApplication::translate("OperationPrompts", "GPT name of %1:")
            .arg(regionTitle(partition)),
        QLineEdit::Normal, partition.name, &ok);
    if (!ok)
        return std::nullopt;
    Operation op;
    op.type = Operation::Type::SetName;
    op.number = partition.number;
    op.name = name.trimmed();
    return op;
}

Operation deletion(const PartitionInfo &partition)
{
    Operation op;
    op.type = Operation::Type::Delete;
    op.number = partition.number;
    return op;
}

} // namespace OperationPrompts
