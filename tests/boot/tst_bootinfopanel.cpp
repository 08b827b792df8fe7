// The info panel's Boot rows for a GPT disk with GRUB's boot.img in the MBR and core.img in a
// BIOS boot partition at sector 34 (GRUB's own files, placed as grub-install places them):
// read by the window itself, and read through `partwise-cli serve` as a helper's disk is (its
// answer read back with every field checked, a wrong one refused). Then Apply of a queue that
// moves a partition whose boot sector holds GRUB asks for the tick the wizard asks for, and
// writes nothing without it. Screenshots under <build>/screenshots/. No root.

#include "buildsetting.h"
#include "disklistmodel.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"
#include "helper/helperdiskread.h"
#include "infopanel.h"
#include "partitionmodel.h"
#include "window/mainwindow.h"

#include "bootfixtures.h"
#include "clirun.h"
#include "filechecksum.h"
#include "guitestsupport.h"
#include "serveclient.h"
#include "sfdisktable.h"
#include "toolrun.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QtTest>

using namespace partwise;

namespace {

void savePanel(InfoPanel *panel, const QString &name)
{
    auto *scroll = qobject_cast<QScrollArea *>(panel->widget());
    QWidget *content = scroll ? scroll->widget() : panel;
    content->resize(content->width(), content->sizeHint().height());
    guitest::saveScreenshot(content, name);
}

void select(MainWindow &window, int number)
{
    const int row = guitest::rowOfPartition(*window.partitionModel(), number);
    QVERIFY(row >= 0);
    window.regionSelection()->setCurrentIndex(window.partitionModel()->index(row, 0),
                                              QItemSelectionModel::ClearAndSelect);
}

// What a person reads in the panel for this disk, whoever read it.
void expectGrubRows(MainWindow &window)
{
    InfoPanel *panel = window.infoPanel();
    select(window, 1);
    QCOMPARE(panel->value(QStringLiteral("bootMbr")),
             QStringLiteral("GRUB 2 → core.img at sector 34, in BIOS boot partition 1"));
    QCOMPARE(panel->value(QStringLiteral("bootBiosBoot")),
             QStringLiteral("partition 1, holding GRUB's core.img"));
    QCOMPARE(panel->value(QStringLiteral("bootLoader")),
             QStringLiteral("BIOS boot partition holding GRUB's core.img"));
    QVERIFY(panel->value(QStringLiteral("bootEsp")).isEmpty());
    QVERIFY(panel->findChild<QLabel *>(QStringLiteral("bootLoader"))->isVisibleTo(panel));
    QVERIFY(!panel->findChild<QLabel *>(QStringLiteral("bootEsp"))->isVisibleTo(panel));
    QVERIFY2(panel->toPlainText().contains(QStringLiteral("MBR boot code: GRUB 2 → core.img")),
             qPrintable(panel->toPlainText()));
    // The Linux partition holds no loader: its row goes, the disk's stay.
    select(window, 2);
    QVERIFY(panel->value(QStringLiteral("bootLoader")).isEmpty());
    QVERIFY(!panel->findChild<QLabel *>(QStringLiteral("bootLoader"))->isVisibleTo(panel));
    QVERIFY(!panel->value(QStringLiteral("bootMbr")).isEmpty());
}

} // namespace

class BootInfoPanelTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void readByTheWindow();
    void readThroughTheHelper();
    void nothingBootsNoRows();
    void applyAsksBeforeBreakingALoader();

private:
    QTemporaryDir m_dir;
    QString m_grub;
};

void BootInfoPanelTest::initTestCase()
{
    guitest::useTestSettings();
    pwtest::setCliPath(pwtest::buildSetting("PARTWISE_CLI"));
    QVERIFY(m_dir.isValid());
    m_grub = m_dir.filePath(QStringLiteral("grub-bios-boot.img"));
    QString error;
    QVERIFY2(pwtest::SfdiskTable::writeImage(
                 m_grub, 16 << 20,
                 "label: gpt\nfirst-lba: 34\n"
                 "start=34, size=2014, type=21686148-6449-6E6F-744E-656564454649\n"
                 "start=2048, size=8192, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4\n",
                 &error),
             qPrintable(error));
    QVERIFY2(boottest::writeGrubBiosBootCode(m_grub, 34, 60, &error), qPrintable(error));
}

void BootInfoPanelTest::readByTheWindow()
{
    MainWindow window;
    window.resize(1200, 900);
    window.show();
    QVERIFY(guitest::openAndWait(window, m_grub));
    expectGrubRows(window);
    select(window, 1);
    savePanel(window.infoPanel(), QStringLiteral("bootinfo-grub-bios-boot"));
}

// read-disk's answer is the check's object with "boot" and "boot_loader"; the window reads
// them back as it reads any helper's disk.
void BootInfoPanelTest::readThroughTheHelper()
{
    pwtest::ServeClient helper;
    QVERIFY(helper.started());
    const QJsonObject answer =
        helper.call(QStringLiteral("read-disk"), {{QStringLiteral("path"), m_grub}});
    HelperReply reply;
    reply.result = pwtest::resultOf(answer);
    QVERIFY2(reply.result.value(QStringLiteral("boot")).isObject(),
             qPrintable(pwtest::describe(answer)));
    std::optional<BootInventory> boot;
    const DiskReadResult read = diskReadFromReply(reply, &boot);
    QVERIFY2(read.ok && boot, qPrintable(read.error));

    MainWindow window;
    window.resize(1200, 900);
    window.show();
    const QString key = window.diskList()->setMachineDisks(QStringLiteral("server"), {m_grub})[0];
    window.diskList()->setResult(key, read, boot);
    window.findChild<QComboBox *>(QStringLiteral("deviceChooser"))
        ->setCurrentIndex(window.diskList()->rowOf(key));
    QVERIFY(window.partitionModel()->hasDisk());
    expectGrubRows(window);

    // A helper whose boot fields are wrong: the disk is refused, the field named.
    QJsonObject bootObject = reply.result.value(QStringLiteral("boot")).toObject();
    bootObject[QStringLiteral("bios_boot_partition")] = QStringLiteral("1");
    reply.result[QStringLiteral("boot")] = bootObject;
    const DiskReadResult wrong = diskReadFromReply(reply, &boot);
    QVERIFY(!wrong.ok);
    QVERIFY2(wrong.error.contains(QLatin1String("bios_boot_partition")), qPrintable(wrong.error));
}

void BootInfoPanelTest::nothingBootsNoRows()
{
    const QString plain = m_dir.filePath(QStringLiteral("plain.img"));
    QString error;
    QVERIFY2(pwtest::SfdiskTable::writeImage(plain, 8 << 20, "label: gpt\nstart=2048, size=4096\n",
                                             &error),
             qPrintable(error));
    MainWindow window;
    window.show();
    QVERIFY(guitest::openAndWait(window, plain));
    select(window, 1);
    InfoPanel *panel = window.infoPanel();
    for (const char *key : {"bootLoader", "bootMbr", "bootBiosBoot", "bootEsp", "bootFirmware"})
        QVERIFY2(!panel->findChild<QLabel *>(QLatin1String(key))->isVisibleTo(panel), key);
    QVERIFY(!panel->toPlainText().contains(QLatin1String("Boot")));
}

// GRUB's boot.img in the boot block of an ext4 (grub-install --force onto a partition) reads
// core.img by absolute sectors: a queued move of that partition is named in Apply's question,
// and Apply stays disabled until the person ticks that they accept it; declined, nothing is
// written.
void BootInfoPanelTest::applyAsksBeforeBreakingALoader()
{
    const QString image = m_dir.filePath(QStringLiteral("grub-in-partition.img"));
    QString error;
    QVERIFY2(pwtest::SfdiskTable::writeImage(image, 32 << 20,
                                             "label: dos\nstart=63, size=40000, type=83\n", &error),
             qPrintable(error));
    QVERIFY(
        pwtest::runTool(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), QStringLiteral("-E"),
                                                      QStringLiteral("offset=%1").arg(63 * 512),
                                                      image, QStringLiteral("20000k")})
            .ok());
    QFile grub(QStringLiteral("/usr/lib/grub/i386-pc/boot.img"));
    QFile disk(image);
    QVERIFY(grub.open(QIODevice::ReadOnly) && disk.open(QIODevice::ReadWrite));
    QVERIFY(disk.seek(63 * 512) && disk.write(grub.readAll()) == 512);
    disk.close();

    MainWindow window;
    EditingController *editing = window.editing(); // MainWindow installs it
    window.show();
    QVERIFY(guitest::openAndWait(window, image));
    select(window, 1);
    QVERIFY2(window.infoPanel()->value(QStringLiteral("bootLoader")).startsWith("GRUB 2"),
             qPrintable(window.infoPanel()->value(QStringLiteral("bootLoader"))));
    Operation move;
    move.type = Operation::Type::Resize;
    move.number = 1;
    move.startBytes = 1 << 20;
    move.sizeBytes = 40000 * 512;
    QVERIFY2(editing->queue(move, &error), qPrintable(error));

    const QByteArray before = pwtest::fileSha256(image);
    QString question;
    bool yesEnabled = true;
    bool ticked = false;
    {
        guitest::ModalAnswers answers([&](QWidget *modal) {
            auto *box = qobject_cast<QMessageBox *>(modal);
            if (!box)
                return;
            question = box->text();
            yesEnabled = box->button(QMessageBox::Yes)->isEnabled();
            ticked = box->checkBox() != nullptr;
            guitest::saveScreenshot(box, QStringLiteral("bootinfo-apply-question"));
            box->button(QMessageBox::No)->click();
        });
        editing->apply();
    }
    QVERIFY2(question.contains(QLatin1String("boot BREAKS: partition 1")) &&
                 question.contains(QLatin1String("grub-install --force")),
             qPrintable(question));
    QVERIFY(ticked);      // the box carries the tick
    QVERIFY(!yesEnabled); // and Apply waits for it
    QCOMPARE(pwtest::fileSha256(image), before);
    QVERIFY(!editing->pending()->isEmpty()); // still queued
}

QTEST_MAIN(BootInfoPanelTest)
#include "tst_bootinfopanel.moc"
