// Every practice preset, created through the window (File → New Practice Disk does the same),
// shows the statuses sfdisk's starts and the ARCHITECTURE.md rule predict; one screenshot each.
#include "diskmapwidget.h"
#include "guitestsupport.h"
#include "ops/practicedisk.h"
#include "partitionmodel.h"
#include "practicediskdialog.h"
#include "ruler/sectorrulerpanel.h"
#include "ruler/sectorrulerwidget.h"
#include "sfdisktable.h"
#include "window/mainwindow.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace partwise;

using namespace guitest;
using pwtest::SfdiskTable;

Q_DECLARE_METATYPE(PracticePreset)

class TestPracticeDisks : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void presetShowsExpectedStatuses_data();
    void presetShowsExpectedStatuses();
    void dialogBuildsTheSpec();
    void dialogOffersAMisalignedDiskInAFolderInView();

private:
    QTemporaryDir m_dir;
};

void TestPracticeDisks::initTestCase()
{
    useTestSettings();
    QVERIFY(m_dir.isValid());
}

void TestPracticeDisks::presetShowsExpectedStatuses_data()
{
    QTest::addColumn<PracticePreset>("preset");
    QTest::addColumn<int>("sectorSize");
    for (PracticePreset preset : allPracticePresets()) {
        const QByteArray title = practicePresetTitle(preset).toUtf8();
        const int sectorSize = preset == PracticePreset::Gpt4Kn ? 4096 : 512; // 4Kn by nature
        QTest::newRow(title + ' ' + QByteArray::number(sectorSize)) << preset << sectorSize;
    }
    // 4Kn: sfdisk reads only GPT images with another sector size (fdisk -b 4096).
    QTest::newRow("GPT at 34 4096") << PracticePreset::GptAt34 << 4096;
    QTest::newRow("Modern 4096") << PracticePreset::ModernMiB << 4096;
}

void TestPracticeDisks::presetShowsExpectedStatuses()
{
    QFETCH(PracticePreset, preset);
    QFETCH(int, sectorSize);
    PracticeDiskSpec spec;
    spec.path = m_dir.filePath(QStringLiteral("preset-%1-%2.img").arg(int(preset)).arg(sectorSize));
    spec.sizeBytes = qint64(256) << 20;
    spec.sectorSize = sectorSize;
    spec.preset = preset;

    MainWindow window;
    window.resize(1200, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy created(&window, &MainWindow::imageCreated);
    window.createPracticeDisk(spec);
    QVERIFY(created.wait(120000));
    QVERIFY2(created.at(0).at(0).toString() == spec.path,
             qPrintable(created.at(0).at(1).toString()));
    QVERIFY(waitUntilShown(window, spec.path));
    PartitionModel *model = window.partitionModel();
    DiskMapWidget *map = window.diskMap();

    const QString tag =
        QString::fromLatin1(QTest::currentDataTag())
            .toLower()
            .replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    if (preset == PracticePreset::Empty) {
        QCOMPARE(
            model->rowCount() -
                [&] {
                    int free = 0;
                    for (int row = 0; row < model->rowCount(); ++row)
                        free += model->region(row).isFree() ? 1 : 0;
                    return free;
                }(),
            0);
        saveScreenshot(&window, QStringLiteral("preset-") + tag);
        return;
    }

    const SfdiskTable table = sectorSize == 512
                                  ? SfdiskTable::read(spec.path)
                                  : SfdiskTable::readWithSectorSize(spec.path, sectorSize);
    QVERIFY2(table.ok, qPrintable(table.error));
    QVERIFY(!table.partitions.isEmpty());
    QCOMPARE(table.sectorSize, sectorSize);
    int misaligned = 0;
    int judged = 0;
    for (const auto &p : table.partitions) {
        const int row = rowOfPartition(*model, p.number);
        QVERIFY2(row >= 0, qPrintable(QStringLiteral("partition %1 missing").arg(p.number)));
        QCOMPARE(model->region(row).startSector, p.start);
        QCOMPARE(model->region(row).endSector, p.end());
        const Expected expected =
            expectedStatus(p.start, sectorSize, 4096, 1 << 20, p.kind == QLatin1String("extended"));
        const auto highlight = map->highlight(row);
        const auto wanted = expected == Expected::Misaligned ? DiskMapWidget::Highlight::Warning
                            : expected == Expected::SectorAligned ? DiskMapWidget::Highlight::Notice
                                                                  : DiskMapWidget::Highlight::None;
        QVERIFY2(highlight == wanted, qPrintable(QStringLiteral("partition %1 at %2 should be %3")
                                                     .arg(p.number)
                                                     .arg(p.start)
                                                     .arg(QLatin1String(expectedName(expected)))));
        misaligned += expected == Expected::Misaligned ? 1 : 0;
        judged += expected == Expected::Container ? 0 : 1;
    }
    // What each preset is for: the historical layouts are misaligned, the modern one is not.
    if (preset == PracticePreset::ModernMiB)
        QCOMPARE(misaligned, 0);
    else if (sectorSize == 512)
        QVERIFY2(misaligned > 0, "a historical layout should show a misaligned partition");
    QVERIFY2(window.statusText().startsWith(
                 QStringLiteral("%1 of %2 partition").arg(misaligned).arg(judged)),
             qPrintable(window.statusText()));
    saveScreenshot(&window, QStringLiteral("preset-") + tag);

    // The sector ruler of its first partition that is not a container: blocks straddle
    // exactly when sfdisk's start is off a 4 KiB boundary.
    SectorRulerPanel *ruler = installSectorRuler(&window);
    const auto first =
        std::find_if(table.partitions.begin(), table.partitions.end(),
                     [](const auto &p) { return p.kind != QLatin1String("extended"); });
    QVERIFY(first != table.partitions.end());
    window.regionSelection()->setCurrentIndex(
        model->index(rowOfPartition(*model, first->number), 0),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(ruler->ruler()->ruler().focusByte, first->start * sectorSize);
    QCOMPARE(ruler->ruler()->ruler().blocksStraddle(), (first->start * sectorSize) % 4096 != 0);
    saveScreenshot(ruler, QStringLiteral("ruler-preset-") + tag);
}

void TestPracticeDisks::dialogBuildsTheSpec()
{
    PracticeDiskDialog dialog(m_dir.path());
    auto *preset = dialog.findChild<QComboBox *>(QStringLiteral("preset"));
    auto *sectorSize = dialog.findChild<QComboBox *>(QStringLiteral("sectorSize"));
    auto *size = dialog.findChild<QSpinBox *>(QStringLiteral("sizeMiB"));
    auto *name = dialog.findChild<QLineEdit *>(QStringLiteral("imageName"));
    QVERIFY(preset && sectorSize && size && name);
    QCOMPARE(preset->count(), int(allPracticePresets().size()));
    preset->setCurrentIndex(preset->findData(int(PracticePreset::ModernMiB)));
    preset->setCurrentIndex(preset->findData(int(PracticePreset::WindowsXp)));
    sectorSize->setCurrentIndex(1);
    size->setValue(512);
    const PracticeDiskSpec spec = dialog.spec();
    QCOMPARE(spec.preset, PracticePreset::WindowsXp);
    QCOMPARE(spec.sectorSize, qint64(4096));
    QCOMPARE(spec.sizeBytes, qint64(512) << 20);
    QCOMPARE(QFileInfo(spec.path).absolutePath(), QFileInfo(m_dir.path()).absoluteFilePath());
    QCOMPARE(QFileInfo(spec.path).fileName(), name->text());
    QVERIFY(spec.path.endsWith(QStringLiteral(".img")));
}

void TestPracticeDisks::dialogOffersAMisalignedDiskInAFolderInView()
{
    PracticeDiskDialog dialog(m_dir.path());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    // Something to realign at first, not an empty disk.
    auto *preset = dialog.findChild<QComboBox *>(QStringLiteral("preset"));
    QVERIFY(preset);
    QCOMPARE(PracticePreset(preset->currentData().toInt()), PracticePreset::WindowsXp);
    QCOMPARE(dialog.spec().preset, PracticePreset::WindowsXp);
    // The folder is a field of its own, shown whole, and can be typed into.
    auto *folder = dialog.findChild<QLineEdit *>(QStringLiteral("imageFolder"));
    auto *name = dialog.findChild<QLineEdit *>(QStringLiteral("imageName"));
    QVERIFY(folder && name);
    QVERIFY(folder->isVisible() && !folder->isReadOnly() && folder->isEnabled());
    QCOMPARE(QDir::fromNativeSeparators(folder->text()), m_dir.path());
    QVERIFY2(folder->width() >= folder->fontMetrics().horizontalAdvance(folder->text()),
             qPrintable(QStringLiteral("%1 px for the folder's %2 px")
                            .arg(folder->width())
                            .arg(folder->fontMetrics().horizontalAdvance(folder->text()))));
    QCOMPARE(name->text(), QStringLiteral("practice-windows-xp.img"));
    qInfo("%s", qPrintable(saveScreenshot(&dialog, QStringLiteral("practice-disk-dialog"))));
    QPushButton *create = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    QVERIFY(create->isEnabled());

    // Another folder, typed: the image goes there.
    const QString elsewhere = m_dir.filePath(QStringLiteral("elsewhere"));
    QVERIFY(QDir().mkpath(elsewhere));
    folder->clear();
    QTest::keyClicks(folder, elsewhere);
    QCOMPARE(dialog.spec().path, elsewhere + QStringLiteral("/practice-windows-xp.img"));
    QVERIFY(create->isEnabled());
    // A folder that is not there, or a file that is, cannot be created.
    QTest::keyClicks(folder, QStringLiteral("-missing"));
    QVERIFY(!create->isEnabled());
    folder->setText(elsewhere);
    QVERIFY(create->isEnabled());
    QFile existing(elsewhere + QStringLiteral("/mine.img"));
    QVERIFY(existing.open(QIODevice::WriteOnly));
    existing.close();
    name->clear();
    QTest::keyClicks(name, QStringLiteral("mine.img"));
    QVERIFY(!create->isEnabled());
    QTest::keyClicks(name, QStringLiteral("2"));
    QVERIFY(create->isEnabled());
    QCOMPARE(dialog.spec().path, elsewhere + QStringLiteral("/mine.img2"));
}

QTEST_MAIN(TestPracticeDisks)
#include "tst_practicedisks.moc"
