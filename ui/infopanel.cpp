#include "infopanel.h"

#include "align/extentgrain.h"
#include "device/drivehealth.h"
#include "report/layerreport.h"

#include "alignmentstyle.h"
#include "base/humansize.h"
#include "boottext.h"
#include "mountmark.h"
#include "partitionmodel.h"
#include "regionnames.h"

#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

using namespace partwise;

namespace {

QString bytes(qint64 value)
{
    return groupedNumber(value);
}

QString mibAndGib(qint64 value)
{
    // Numbers the way humanSize() writes them: the catalogue names the locale.
    QLocale numbers(QCoreApplication::translate("HumanSize", "en_US"));
    numbers.setNumberOptions(QLocale::OmitGroupSeparator);
    return InfoPanel::tr("%1 MiB · %2 GiB")
        .arg(numbers.toString(double(value) / (1 << 20), 'f', 2),
             numbers.toString(double(value) / (qint64(1) << 30), 'f', 3));
}

} // namespace

InfoPanel::InfoPanel(QWidget *parent) : QDockWidget(tr("Sector Info"), parent)
{
    setObjectName(QStringLiteral("infoPanel"));
    auto *content = new QWidget;
    auto *column = new QVBoxLayout(content);
    m_heading = new QLabel;
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_heading->setWordWrap(true);
    QFont headingFont = m_heading->font();
    headingFont.setBold(true);
    m_heading->setFont(headingFont);
    column->addWidget(m_heading);
    m_explanation = new QLabel;
    m_explanation->setWordWrap(true);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse |
                                           Qt::TextSelectableByKeyboard);
    column->addWidget(m_explanation);

    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    column->addLayout(m_form);

    addGroup(tr("Region"));
    addRow(QStringLiteral("kind"), tr("Type"));
    addRow(QStringLiteral("firstSector"), tr("First sector"));
    addRow(QStringLiteral("lastSector"), tr("Last sector"));
    addRow(QStringLiteral("totalSectors"), tr("Total sectors"));
    addRow(QStringLiteral("firstByte"), tr("First byte"));
    addRow(QStringLiteral("lastByte"), tr("Last byte"));
    addRow(QStringLiteral("sizeBytes"), tr("Size in bytes"));
    addRow(QStringLiteral("size"), tr("Size"));
    addGroup(tr("Alignment"));
    addRow(QStringLiteral("status"), tr("Status"));
    addRow(QStringLiteral("startMod4k"), tr("Offset from 4 KiB boundary"),
           tr("Bytes past the previous 4 KiB boundary, after the alignment offset"));
    addRow(QStringLiteral("startModPhysical"), tr("Offset from physical sector"),
           tr("Bytes past the start of the physical sector it begins in: 0 when aligned"));
    addRow(QStringLiteral("startModGrain"), tr("Offset from grain boundary"),
           tr("Bytes past the previous grain boundary (1 MiB unless chosen otherwise)"));
    addRow(QStringLiteral("grain"), tr("Grain"));
    addGroup(tr("Disk"));
    addRow(QStringLiteral("logicalSector"), tr("Logical sector"));
    addPhysicalGrid();
    addRow(QStringLiteral("physicalSource"), tr("Checked against"),
           tr("The physical sector size and offset every verdict and new partition uses"));
    addRow(QStringLiteral("minimumIo"), tr("Minimum I/O size"));
    addRow(QStringLiteral("optimalIo"), tr("Optimal I/O size"));
    addRow(QStringLiteral("topologySource"), tr("Reported by"));
    addRow(QStringLiteral("tableType"), tr("Partition table"));
    addRow(QStringLiteral("diskWarnings"), tr("Warnings"),
           tr("What reading the disk found wrong or worth knowing, such as a partition the "
              "kernel places elsewhere than the table does"));
    addGroup(tr("Drive"));
    addRow(QStringLiteral("driveAnswer"), tr("Own report"),
           tr("What the drive answers to ATA IDENTIFY, SCSI READ CAPACITY or NVMe Identify, "
              "asked through smartctl"));
    addRow(QStringLiteral("driveModel"), tr("Model"));
    addRow(QStringLiteral("driveSerial"), tr("Serial number"));
    addRow(QStringLiteral("driveFirmware"), tr("Firmware"));
    addRow(QStringLiteral("driveWwn"), tr("World Wide Name"));
    addRow(QStringLiteral("driveRotation"), tr("Rotation"));
    addRow(QStringLiteral("driveHealth"), tr("SMART health"),
           tr("The drive's own overall-health self-assessment"));
    addGroup(tr("Contents"));
    addRow(QStringLiteral("filesystem"), tr("Filesystem"));
    addRow(QStringLiteral("label"), tr("Label"));
    addRow(QStringLiteral("name"), tr("GPT name"));
    addRow(QStringLiteral("uuid"), tr("UUID"));
    addRow(QStringLiteral("inUse"), tr("In use"),
           tr("Where the partition is mounted, or that it is an active swap, when the disk was "
              "read; Partition → Unmount or Swap Off frees it"));
    addRow(QStringLiteral("flags"), tr("Flags"));
    addRow(QStringLiteral("layers"), tr("Layers inside"),
           tr("Where the data of a LUKS volume or an LVM physical volume starts: it must be "
              "aligned too, or every write of the filesystem on top straddles sectors"));
    m_bootTitle = addGroup(tr("Boot"));
    addRow(QStringLiteral("bootLoader"), tr("Boot loader"),
           tr("What boots from the selected partition, read from its first sector and the "
              "partition table"));
    addRow(QStringLiteral("bootMbr"), tr("MBR boot code"),
           tr("The code in the disk's first sector, which a BIOS runs, and where it loads the "
              "rest from"));
    addRow(QStringLiteral("bootBiosBoot"), tr("BIOS boot partition"));
    addRow(QStringLiteral("bootEsp"), tr("EFI system partitions"));
    addRow(QStringLiteral("bootFirmware"), tr("Firmware entries"),
           tr("This machine's UEFI boot entries (efibootmgr) that name a partition of this "
              "disk"));
    addRow(QStringLiteral("bootNotes"), tr("Not read"));

    auto *copy = new QPushButton(tr("&Copy All"));
    copy->setObjectName(QStringLiteral("copyAllButton"));
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(toPlainText()); });
    column->addWidget(copy, 0, Qt::AlignRight);
    column->addStretch();

    auto *scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    setWidget(scroll);
    clearValues();
}

void InfoPanel::setModel(PartitionModel *model, QItemSelectionModel *selection)
{
    m_model = model;
    m_selection = selection;
    connect(model, &QAbstractItemModel::modelReset, this, &InfoPanel::refresh);
    connect(model, &PartitionModel::verdictsChanged, this, &InfoPanel::refresh);
    connect(selection, &QItemSelectionModel::currentRowChanged, this, &InfoPanel::refresh);
    refresh();
}

QString InfoPanel::value(const QString &key) const
{
    const QLabel *label = m_values.value(key);
    return label ? label->text() : QString();
}

QString InfoPanel::toPlainText() const
{
    QStringList lines{m_heading->text()};
    for (const QString &key : m_order) {
        if (!value(key).isEmpty())
            lines << QStringLiteral("%1: %2").arg(m_titles.value(key), value(key));
    }
    return lines.join(QLatin1Char('\n'));
}

QLabel *InfoPanel::addGroup(const QString &title)
{
    auto *label = new QLabel(title);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    m_form->addRow(label);
    return label;
}

QLabel *InfoPanel::makeValue(const QString &key, const QString &title, const QString &toolTip)
{
    auto *valueLabel = new QLabel;
    valueLabel->setObjectName(key);
    valueLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    valueLabel->setToolTip(toolTip);
    m_values.insert(key, valueLabel);
    m_titles.insert(key, title);
    m_order << key;
    return valueLabel;
}

void InfoPanel::addRow(const QString &key, const QString &title, const QString &toolTip)
{
    QLabel *valueLabel = makeValue(key, title, toolTip);
    valueLabel->setWordWrap(true); // long values wrap rather than widen the dock
    auto *titleLabel = new QLabel(title + QLatin1Char(':'));
    titleLabel->setToolTip(toolTip);
    titleLabel->setBuddy(valueLabel);
    m_form->addRow(titleLabel, valueLabel);
}

// The physical sector size and its offset as the kernel, the drive itself and the timing probe
// give them, and the one Partwise checks against, side by side.
void InfoPanel::addPhysicalGrid()
{
    auto *box = new QWidget;
    box->setObjectName(QStringLiteral("physicalGrid"));
    auto *grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(12);
    const QStringList columns{tr("Kernel"), tr("Drive"), tr("Measured"), tr("Assumed")};
    const QStringList tips{tr("What the kernel passes on (or what the image file implies)"),
                           tr("What the drive itself answers, asked through smartctl"),
                           tr("What a timing probe measured on this drive (Drive → Measure "
                              "Physical Sector…)"),
                           tr("What alignment is checked against")};
    for (int c = 0; c < columns.size(); ++c) {
        auto *header = new QLabel(columns[c]);
        header->setToolTip(tips[c]);
        header->setObjectName(QStringLiteral("physicalHeader%1").arg(c));
        grid->addWidget(header, 0, c + 1, Qt::AlignRight);
    }
    grid->addWidget(new QLabel(tr("Physical sector:")), 1, 0);
    grid->addWidget(new QLabel(tr("Offset:")), 2, 0);
    const QStringList sizeKeys{QStringLiteral("physicalReported"), QStringLiteral("physicalDrive"),
                               QStringLiteral("physicalMeasured"),
                               QStringLiteral("physicalAssumed")};
    const QStringList sizeTitles{tr("Physical sector (kernel)"), tr("Physical sector (drive)"),
                                 tr("Physical sector (measured)"), tr("Physical sector (assumed)")};
    const QStringList offsetKeys{QStringLiteral("offsetReported"), QStringLiteral("offsetDrive"),
                                 QStringLiteral("offsetMeasured"),
                                 QStringLiteral("alignmentOffset")};
    const QStringList offsetTitles{tr("Alignment offset (kernel)"), tr("Alignment offset (drive)"),
                                   tr("Alignment offset (measured)"), tr("Alignment offset")};
    for (int c = 0; c < columns.size(); ++c) {
        grid->addWidget(makeValue(sizeKeys[c], sizeTitles[c], tips[c]), 1, c + 1, Qt::AlignRight);
        grid->addWidget(makeValue(offsetKeys[c], offsetTitles[c], tips[c]), 2, c + 1,
                        Qt::AlignRight);
    }
    grid->setColumnStretch(0, 1);
    m_form->addRow(box);
}

void InfoPanel::setValue(const QString &key, const QString &text)
{
    if (QLabel *label = m_values.value(key))
        label->setText(text);
}

void InfoPanel::clearValues()
{
    for (QLabel *label : std::as_const(m_values))
        label->clear();
    m_heading->setText(tr("Nothing selected"));
    m_explanation->setText(tr("Select a partition or unallocated space on the map or in the "
                              "list to see where it starts and why that matters."));
}

void InfoPanel::refresh()
{
    clearValues();
    if (m_model && m_model->hasDisk()) {
        showDisk();
        const QModelIndex current = m_selection ? m_selection->currentIndex() : QModelIndex();
        const int row =
            current.isValid() && current.row() < m_model->rowCount() ? current.row() : -1;
        if (row >= 0)
            showRegion(row);
        showBoot(row);
    }
    // What a drive did not say (and an image has no drive to say it) takes no rows, nor does
    // a boot loader where nothing boots, nor a GPT name where the table has none (MBR), nor
    // warnings where there are none.
    bool anyBoot = false;
    for (const char *key : {"name", "diskWarnings", "driveModel", "driveSerial", "driveFirmware",
                            "driveWwn", "driveRotation", "driveHealth", "bootLoader", "bootMbr",
                            "bootBiosBoot", "bootEsp", "bootFirmware", "bootNotes"}) {
        if (QLabel *label = m_values.value(QString::fromLatin1(key))) {
            m_form->setRowVisible(label, !label->text().isEmpty());
            anyBoot = anyBoot || (qstrncmp(key, "boot", 4) == 0 && !label->text().isEmpty());
        }
    }
    m_form->setRowVisible(m_bootTitle, anyBoot);
}

// What boots from the disk as it was read, and from the selected partition while it is still
// where the disk has it (a pending move shows it elsewhere).
void InfoPanel::showBoot(int row)
{
    const std::optional<BootInventory> &boot = m_model->boot();
    if (!boot)
        return;
    setValue(QStringLiteral("bootMbr"), BootText::mbrCode(*boot));
    setValue(QStringLiteral("bootBiosBoot"), BootText::biosBoot(*boot));
    setValue(QStringLiteral("bootEsp"), BootText::esps(*boot));
    setValue(QStringLiteral("bootFirmware"), BootText::firmwareEntries(*boot));
    setValue(QStringLiteral("bootNotes"), boot->notes.join(QLatin1Char('\n')));
    if (row < 0)
        return;
    if (const PartitionBoot *pb = m_model->bootOf(m_model->region(row)))
        setValue(QStringLiteral("bootLoader"), BootText::partition(*boot, *pb));
}

void InfoPanel::showDisk()
{
    const DiskLayout &layout = m_model->layout();
    const SectorTopology &t = layout.device.topology;
    const AlignmentGeometry &g = m_model->report().geometry;
    setValue(QStringLiteral("logicalSector"), tr("%1 bytes").arg(bytes(t.logicalSectorSize)));
    showPhysical(layout.device, g);
    setValue(QStringLiteral("minimumIo"), tr("%1 bytes").arg(bytes(t.minimumIoSize)));
    setValue(QStringLiteral("optimalIo"),
             t.optimalIoSize == 0  ? tr("not reported")
             : g.optimalIoHonoured ? tr("%1 bytes (used as the grain)").arg(bytes(t.optimalIoSize))
                                   : tr("%1 bytes").arg(bytes(t.optimalIoSize)));
    setValue(QStringLiteral("topologySource"), t.source);
    const QString wholeDisk = layout.wholeDiskFilesystemName();
    setValue(QStringLiteral("tableType"),
             !layout.tableType.isEmpty() ? layout.tableType
             : wholeDisk.isEmpty()
                 ? tr("none")
                 : tr("No partition table: the whole disk holds %1").arg(wholeDisk));
    setValue(QStringLiteral("diskWarnings"), layout.warnings.join(QLatin1Char('\n')));
    setValue(QStringLiteral("grain"),
             tr("%1 = %2 sectors").arg(humanSize(g.grainBytes)).arg(g.grainSectors()));

    m_heading->setText(layout.device.isImage ? QFileInfo(layout.device.path).fileName()
                                             : layout.device.path);
    m_heading->setToolTip(layout.device.path);
    // Why two physical sizes: drives lie, and the policy decides what is believed.
    QString why;
    if (g.physicalSource == PhysicalSource::Measured)
        why = tr("A timing probe measured %1-byte physical sectors starting at byte %2 on this "
                 "drive, so Partwise checks starts against that rather than the %3 bytes the "
                 "disk reports.")
                  .arg(g.physicalMeasured)
                  .arg(g.alignmentOffsetMeasured)
                  .arg(std::max(g.physicalReported, g.physicalDrive));
    else if (g.physicalDrive > g.physicalReported && g.physicalAssumed == g.physicalDrive)
        why = tr("The kernel reports %1-byte physical sectors, but the drive itself answers %2, "
                 "and starts are checked against %2 bytes.")
                  .arg(g.physicalReported)
                  .arg(g.physicalDrive);
    else if (g.physicalAssumed != g.physicalReported)
        why = tr("The disk reports %1-byte physical sectors. Many Advanced Format drives "
                 "report 512 although they write 4096-byte sectors inside, so Partwise checks "
                 "starts against %2 bytes (Preferences → trust the drive to change this).")
                  .arg(g.physicalReported)
                  .arg(g.physicalAssumed);
    else
        why = tr("The disk reports %1-byte physical sectors and starts are checked against "
                 "that size.")
                  .arg(g.physicalReported);
    m_explanation->setText(why);
}

// Column cells of the side-by-side grid, the "Checked against" row and the Drive group.
void InfoPanel::showPhysical(const DeviceInfo &device, const AlignmentGeometry &g)
{
    const QString unknown = QStringLiteral("–");
    const auto cell = [&](qint64 value) { return value > 0 ? bytes(value) : unknown; };
    setValue(QStringLiteral("physicalReported"), bytes(g.physicalReported));
    setValue(QStringLiteral("offsetReported"), bytes(g.alignmentOffsetReported));
    setValue(QStringLiteral("physicalDrive"), cell(g.physicalDrive));
    setValue(QStringLiteral("offsetDrive"), unknown); // smartctl's JSON does not carry it
    setValue(QStringLiteral("physicalMeasured"), cell(g.physicalMeasured));
    setValue(QStringLiteral("offsetMeasured"),
             g.physicalMeasured > 0 ? bytes(g.alignmentOffsetMeasured) : unknown);
    setValue(QStringLiteral("physicalAssumed"), bytes(g.physicalAssumed));
    setValue(QStringLiteral("alignmentOffset"), bytes(g.alignmentOffset));
    QString source;
    switch (g.physicalSource) {
    case PhysicalSource::Reported:
        source = tr("%1 bytes, as reported");
        break;
    case PhysicalSource::Assumed:
        source = tr("%1 bytes, assumed");
        break;
    case PhysicalSource::Measured:
        source = tr("%1 bytes, as measured");
        break;
    }
    setValue(QStringLiteral("physicalSource"),
             source.arg(bytes(g.physicalAssumed)) +
                 tr(" (offset %1 bytes)").arg(bytes(g.alignmentOffset)));

    const DriveReport &d = device.drive;
    if (device.isImage)
        setValue(QStringLiteral("driveAnswer"),
                 tr("none: a disk image file has no drive behind it to ask"));
    else if (!d.asked && d.reason.isEmpty())
        setValue(QStringLiteral("driveAnswer"), tr("not asked"));
    else if (!d.answered)
        setValue(QStringLiteral("driveAnswer"), d.reason); // core's sentence, in English
    else
        setValue(QStringLiteral("driveAnswer"),
                 d.deviceType.isEmpty()
                     ? tr("%1, through smartctl %2").arg(d.protocol, d.smartctlVersion)
                     : tr("%1, through smartctl %2 (-d %3)")
                           .arg(d.protocol, d.smartctlVersion, d.deviceType));
    if (!d.answered)
        return;
    setValue(QStringLiteral("driveModel"), d.model);
    setValue(QStringLiteral("driveSerial"), d.serial);
    setValue(QStringLiteral("driveFirmware"), d.firmware);
    setValue(QStringLiteral("driveWwn"), d.wwn);
    if (d.rotationRate)
        setValue(QStringLiteral("driveRotation"), *d.rotationRate == 0
                                                      ? tr("none: solid state")
                                                      : tr("%1 rpm").arg(*d.rotationRate));
    setValue(QStringLiteral("driveHealth"), healthText(judgeDriveHealth(d)));
}

void InfoPanel::showRegion(int row)
{
    const PartitionInfo &r = m_model->region(row);
    const AlignmentVerdict v = m_model->verdict(row);
    const qint64 sectorSize = m_model->layout().device.topology.logicalSectorSize;
    const qint64 firstByte = r.startSector * sectorSize;
    const qint64 sizeBytes = r.lengthSectors() * sectorSize;

    m_heading->setText(regionTitle(r));
    setValue(QStringLiteral("kind"), regionKindTitle(r.kind));
    setValue(QStringLiteral("firstSector"), QString::number(r.startSector));
    setValue(QStringLiteral("lastSector"), QString::number(r.endSector));
    setValue(QStringLiteral("totalSectors"), QString::number(r.lengthSectors()));
    setValue(QStringLiteral("firstByte"), bytes(firstByte));
    setValue(QStringLiteral("lastByte"), bytes(firstByte + sizeBytes - 1));
    setValue(QStringLiteral("sizeBytes"), bytes(sizeBytes));
    setValue(QStringLiteral("size"), mibAndGib(sizeBytes));
    setValue(QStringLiteral("status"),
             r.isFree() ? tr("unallocated: not judged") : AlignmentStyle::title(v.status));
    setValue(QStringLiteral("startMod4k"), tr("%1 bytes").arg(bytes(v.offsetIn4KiB)));
    setValue(QStringLiteral("startModPhysical"), tr("%1 bytes").arg(bytes(v.offsetInPhysical)));
    setValue(QStringLiteral("startModGrain"), tr("%1 bytes").arg(bytes(v.offsetInGrain)));
    setValue(QStringLiteral("filesystem"), r.filesystem);
    setValue(QStringLiteral("label"), r.label);
    setValue(QStringLiteral("name"), r.name);
    setValue(QStringLiteral("uuid"), r.uuid);
    setValue(QStringLiteral("inUse"), r.isFree() || r.isContainer() ? QString()
                                      : r.inUse()                   ? MountMark::text(r)
                                                                    : tr("not mounted"));
    setValue(QStringLiteral("flags"),
             r.isFree() || !r.flags.isEmpty() ? r.flags.join(QStringLiteral(", ")) : tr("none"));
    setValue(QStringLiteral("layers"), layersText(r.layers));
    const QString why = v.explanation(m_model->report().geometry);
    if (why.isEmpty())
        return;
    // The verdict completes "It starts …"; an extended partition's is a phrase of its own.
    QString sentence = tr("It %1.").arg(why);
    if (v.status == AlignmentStatus::Container) {
        sentence = why + QLatin1Char('.');
        sentence[0] = sentence.at(0).toUpper();
    }
    if (const StorageLayer *layer = m_model->misalignedLayer(row))
        sentence += QLatin1Char(' ') +
                    tr("Its %1 data starts %2 bytes past a physical sector, "
                       "so it is misaligned all the same; moving the "
                       "partition cannot fix that: %3.")
                        .arg(layerDisplayName(*layer))
                        .arg(judgeLayer(*layer, m_model->report().geometry).misalignmentBytes)
                        .arg(layer->remedy);
    m_explanation->setText(sentence + QLatin1Char(' ') + m_explanation->text());
}

// SMART's verdict and the counters that predict a failure, as the drive reported them.
QString InfoPanel::healthText(const DriveHealth &health) const
{
    const QString findings = health.findings.join(QStringLiteral(", "));
    switch (health.status) {
    case DriveHealthStatus::Good:
        return tr("good: SMART passed, no reallocated, pending or uncorrectable sectors");
    case DriveHealthStatus::Warning:
        //: %1 lists what SMART found, e.g. "8 reallocated sectors".
        return tr("warning: %1. Back up this drive soon; copy your data off before moving "
                  "anything on it.")
            .arg(findings);
    case DriveHealthStatus::Failing:
        return tr("FAILING: %1. Copy your data off now; moving data on a failing drive risks "
                  "losing it.")
            .arg(findings);
    case DriveHealthStatus::Unknown:
        break;
    }
    return tr("not reported");
}

// One line per layer: its kind, where its data starts (in the partition and on the disk) and
// its verdict, or why it could not be read.
QString InfoPanel::layersText(const StorageLayers &layers) const
{
    if (layers.isEmpty())
        return tr("none");
    QStringList lines;
    for (const StorageLayer &layer : layers) {
        if (!layer.readable()) {
            lines << tr("%1: unreadable (%2)").arg(layerDisplayName(layer), layer.error);
            continue;
        }
        const AlignmentVerdict v = judgeLayer(layer, m_model->report().geometry);
        //: %1 kind of layer, %2 and %3 byte offsets, %4 a status such as "Aligned".
        lines << tr("%1: data at byte %2 of the partition, %3 of the disk: %4")
                     .arg(layerDisplayName(layer), bytes(layer.dataOffsetBytes),
                          bytes(layer.absoluteOffsetBytes), AlignmentStyle::title(v.status));
        lines << volumeGroupLines(layer);
    }
    return lines.join(QLatin1Char('\n'));
}

// A physical volume's group: its extent size against the grain, and where each logical volume
// here starts, with its verdict.
QStringList InfoPanel::volumeGroupLines(const StorageLayer &pv) const
{
    if (pv.volumeGroup.isEmpty())
        return {};
    const AlignmentGeometry &geometry = m_model->report().geometry;
    const QString extents = humanSize(pv.extentSizeBytes);
    QStringList lines;
    //: %1 the group's name, %2 active or not active, %3 a size such as "4 MiB".
    lines << tr("  volume group %1 (%2), extents of %3: %4")
                 .arg(pv.volumeGroup, pv.volumeGroupActive() ? tr("active") : tr("not active"),
                      extents,
                      extentsKeepGrain(pv.extentSizeBytes, geometry)
                          ? tr("a whole number of grains, so volumes stay on the grain")
                          : tr("not a multiple of the %1 grain, so some volumes start off it")
                                .arg(humanSize(geometry.grainBytes)));
    for (const LogicalVolumeExtents &lv : pv.logicalVolumes) {
        const AlignmentVerdict v = judgeByte(lv.absoluteOffsetBytes, geometry);
        //: %1 the volume's name, %2 a size, %3 a byte offset, %4 a status such as "Aligned".
        lines << tr("  volume %1, %2 from byte %3 of the disk%5: %4")
                     .arg(lv.name, humanSize(lv.sizeBytes), bytes(lv.absoluteOffsetBytes),
                          AlignmentStyle::title(v.status), lv.active ? tr(" (active)") : QString());
    }
    return lines;
}
