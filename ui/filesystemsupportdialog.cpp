#include "filesystemsupportdialog.h"

#include "fs/filesystemsupport.h"
#include "fs/sessionabilities.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace partwise;

namespace {

QString actionTitle(FilesystemAction action)
{
    switch (action) {
    case FilesystemAction::Create:
        return FilesystemSupportDialog::tr("Create");
    case FilesystemAction::Label:
        return FilesystemSupportDialog::tr("Label");
    case FilesystemAction::Check:
        return FilesystemSupportDialog::tr("Check");
    case FilesystemAction::Repair:
        return FilesystemSupportDialog::tr("Repair");
    case FilesystemAction::Grow:
        return FilesystemSupportDialog::tr("Grow");
    case FilesystemAction::Shrink:
        return FilesystemSupportDialog::tr("Shrink");
    case FilesystemAction::Move:
        return FilesystemSupportDialog::tr("Move");
    case FilesystemAction::UsedBlocks:
        return FilesystemSupportDialog::tr("Used blocks only");
    case FilesystemAction::NewUuid:
        return FilesystemSupportDialog::tr("New UUID");
    }
    return {};
}

// The cell for `action` on `fs`: this session's answer on disks and inside image files
// (fs/sessionabilities.h, the one Resize/Move, the planner and Apply ask), with the programs it
// runs and the reason when not.
QTableWidgetItem *cellItem(const QString &fs, FilesystemAction action)
{
    const SupportCell c = filesystemSupport(fs, action);
    const AbilityHere disk = filesystemAbilityHere(fs, action, FilesystemPlace::Disk);
    const AbilityHere image = filesystemAbilityHere(fs, action, FilesystemPlace::Image);
    QStringList programs;
    for (const ToolNeed &t : c.tools)
        if (!t.program.isEmpty())
            programs << t.program;
    programs.removeDuplicates(); // btrfs grows and shrinks with the one program
    QString text;
    QStringList tip{programs.join(QStringLiteral(", "))};
    if (!c.supported)
        text = FilesystemSupportDialog::tr("no");
    else if (!c.missing.isEmpty())
        //: A cell of the support table: what to install.
        text = FilesystemSupportDialog::tr("install %1").arg(c.missing.join(QStringLiteral(", ")));
    else if (disk.can && !image.can)
        //: A cell of the support table: on disks, but not inside image files in this session.
        text = FilesystemSupportDialog::tr("disks only");
    else
        text = disk.can ? FilesystemSupportDialog::tr("yes") : FilesystemSupportDialog::tr("no");
    if (!c.note.isEmpty() && c.note != disk.why)
        tip << c.note;
    tip << disk.why << (image.why != disk.why ? image.why : QString());
    tip.removeAll(QString());
    auto *item = new QTableWidgetItem(text);
    item->setToolTip(tip.join(QLatin1Char('\n')));
    item->setData(Qt::UserRole, disk.can);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (c.supported && !c.missing.isEmpty())
        item->setForeground(QColor(0xb0, 0x40, 0x00));
    else if (!disk.can)
        item->setForeground(QColor(0x80, 0x80, 0x80));
    return item;
}

} // namespace

FilesystemSupportDialog::FilesystemSupportDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Filesystem Support"));
    setObjectName(QStringLiteral("filesystemSupportDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("What Partwise can do with each filesystem with the tools "
                                "installed on this computer, and in this session: \"disks only\" "
                                "cannot be done inside a disk image file without administrator "
                                "rights. Hover over a cell for the programs it runs and why."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_table = new QTableWidget;
    m_table->setObjectName(QStringLiteral("supportTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(m_table);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton *rescanButton = buttons->addButton(tr("&Rescan"), QDialogButtonBox::ActionRole);
    rescanButton->setObjectName(QStringLiteral("rescanButton"));
    connect(rescanButton, &QPushButton::clicked, this, &FilesystemSupportDialog::rescan);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    rescan();
    resize(900, 420);
}

void FilesystemSupportDialog::rescan()
{
    const QStringList filesystems = supportedFilesystemNames();
    const QList<FilesystemAction> actions = allFilesystemActions();
    m_table->clear();
    m_table->setRowCount(filesystems.size());
    m_table->setColumnCount(actions.size());
    m_table->setVerticalHeaderLabels(filesystems);
    QStringList headers;
    for (FilesystemAction a : actions)
        headers << actionTitle(a);
    m_table->setHorizontalHeaderLabels(headers);
    for (int r = 0; r < filesystems.size(); ++r)
        for (int c = 0; c < actions.size(); ++c)
            m_table->setItem(r, c, cellItem(filesystems[r], actions[c]));
    m_table->resizeColumnsToContents();
}
