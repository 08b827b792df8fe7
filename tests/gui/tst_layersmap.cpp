// A partition on the grain whose LUKS1 payload is 512 bytes off: the list says so next to the
// partition's own verdict, the map draws a hatched band inside the partition (state and
// pixels) while a neighbour with an aligned LUKS2 gets none, and the info panel lists the
// layer with the offsets `cryptsetup luksDump` gives.

#include "diskmapwidget.h"
#include "editing/operationdialogs.h"
#include "guitestsupport.h"
#include "infopanel.h"
#include "partitionmodel.h"
#include "sfdisktable.h"
#include "toolrun.h"
#include "window/mainwindow.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace partwise;

using pwtest::runTool;

class TestLayersMap : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    bool luksInto(const QString &image, qint64 offset, const QStringList &options, QString *dump)
    {
        const QString scratch = m_dir.filePath(QStringLiteral("scratch.bin"));
        const QString key = m_dir.filePath(QStringLiteral("key"));
        QFile k(key);
        if (!k.open(QIODevice::WriteOnly) || k.write("not a secret") < 0)
            return false;
        k.close();
        QFile f(scratch);
        f.remove();
        if (!f.open(QIODevice::WriteOnly) || !f.resize(40 << 20))
            return false;
        f.close();
        QStringList args{QStringLiteral("luksFormat"),
                         QStringLiteral("-q"),
                         QStringLiteral("--key-file"),
                         key,
                         QStringLiteral("--pbkdf"),
                         QStringLiteral("pbkdf2"),
                         QStringLiteral("--pbkdf-force-iterations"),
                         QStringLiteral("1000")};
        args << options << scratch;
        if (!runTool(QStringLiteral("cryptsetup"), args).ok())
            return false;
        *dump = QString::fromUtf8(
            runTool(QStringLiteral("cryptsetup"), {QStringLiteral("luksDump"), scratch}).out);
        return runTool(QStringLiteral("dd"),
                       {QStringLiteral("if=") + scratch, QStringLiteral("of=") + image,
                        QStringLiteral("bs=1M"), QStringLiteral("oflag=seek_bytes"),
                        QStringLiteral("seek=%1").arg(offset), QStringLiteral("conv=notrunc"),
                        QStringLiteral("status=none")})
            .ok();
    }

private slots:
    void initTestCase() { guitest::useTestSettings(); }

    void misalignedLuksIsShownInsideAnAlignedPartition()
    {
        const QString image = m_dir.filePath(QStringLiteral("luks.img"));
        QFile f(image);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(100 << 20));
        f.close();
        QVERIFY(runTool(QStringLiteral("sfdisk"), {QStringLiteral("-q"), image},
                        "label: gpt\nstart=2048, size=40M\nsize=40M\n")
                    .ok());
        const pwtest::SfdiskTable table = pwtest::SfdiskTable::read(image);
        QVERIFY2(table.ok, qPrintable(table.error));
        QString dump1, dump2;
        QVERIFY(luksInto(image, table.find(1)->start * 512,
                         {QStringLiteral("--type"), QStringLiteral("luks1"),
                          QStringLiteral("--align-payload"), QStringLiteral("4097")},
                         &dump1));
        QVERIFY(luksInto(image, table.find(2)->start * 512,
                         {QStringLiteral("--type"), QStringLiteral("luks2")}, &dump2));
        static const QRegularExpression payload(QStringLiteral("Payload offset:\\s*(\\d+)"));
        const qint64 offset1 = payload.match(dump1).captured(1).toLongLong() * 512;
        QCOMPARE(offset1, 4097 * 512);

        MainWindow window;
        window.resize(1100, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(guitest::openAndWait(window, image));
        PartitionModel *model = window.partitionModel();
        DiskMapWidget *map = window.diskMap();
        const int row1 = guitest::rowOfPartition(*model, 1);
        const int row2 = guitest::rowOfPartition(*model, 2);
        QVERIFY(row1 >= 0 && row2 >= 0);

        // State: the partition itself is aligned, its layer is not.
        QCOMPARE(AlignmentStatus(model->index(row1, 0).data(PartitionModel::StatusRole).toInt()),
                 AlignmentStatus::Aligned);
        QVERIFY(model->index(row1, 0).data(PartitionModel::LayerMisalignedRole).toBool());
        QVERIFY(!model->index(row2, 0).data(PartitionModel::LayerMisalignedRole).toBool());
        const QString status1 =
            model->index(row1, PartitionModel::AlignmentColumn).data().toString();
        QVERIFY2(status1.contains(QStringLiteral("LUKS1 data misaligned")), qPrintable(status1));
        QVERIFY(!model->index(row2, PartitionModel::AlignmentColumn)
                     .data()
                     .toString()
                     .contains(QStringLiteral("misaligned")));

        // Pixels: the misaligned red appears in partition 1's band only.
        const QImage image1 = map->grab().toImage();
        const QRect rect1 = map->regionRect(row1).adjusted(1, 1, -1, -1);
        const QRect rect2 = map->regionRect(row2).adjusted(1, 1, -1, -1);
        const int red1 = guitest::countRedPixels(image1, rect1);
        QVERIFY2(red1 > rect1.width(), qPrintable(QString::number(red1)));
        QCOMPARE(guitest::countRedPixels(image1, rect2), 0);
        const int topHalf = guitest::countRedPixels(
            image1, QRect(rect1.left(), rect1.top(), rect1.width(), rect1.height() / 2));
        QCOMPARE(topHalf, 0); // a band along the bottom, not the partition's own outline
        guitest::saveScreenshot(map, QStringLiteral("layers-luks1-misaligned"));

        // The panel lists the layer with luksDump's offset, from the partition and the disk.
        window.regionSelection()->setCurrentIndex(model->index(row1, 0),
                                                  QItemSelectionModel::ClearAndSelect);
        QString layers = window.infoPanel()->value(QStringLiteral("layers"));
        QVERIFY2(layers.contains(QStringLiteral("LUKS1")), qPrintable(layers));
        QVERIFY2(layers.remove(QRegularExpression(QStringLiteral("[\\s,.'\u00a0\u202f]")))
                     .contains(QString::number(offset1)),
                 qPrintable(layers));
        QVERIFY(layers.contains(QString::number(table.find(1)->start * 512 + offset1)));
        guitest::saveScreenshot(window.infoPanel(), QStringLiteral("layers-info-panel"));
    }

    // Format offers LUKS2 with a passphrase typed twice; it can only be queued once both agree,
    // and the queued operation carries it (in memory: plan files never hold it).
    void formatAsLuks2AsksForThePassphraseTwice()
    {
        PartitionInfo partition;
        partition.number = 1;
        partition.startSector = 2048;
        partition.endSector = 4095;
        FormatDialog dialog(partition);
        auto *filesystem = dialog.findChild<QComboBox *>(QStringLiteral("filesystem"));
        auto *first = dialog.findChild<QLineEdit *>(QStringLiteral("passphrase"));
        auto *second = dialog.findChild<QLineEdit *>(QStringLiteral("passphraseAgain"));
        QPushButton *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(filesystem && first && second && ok);
        QVERIFY(filesystem->findData(QStringLiteral("lvm-pv")) >= 0);
        filesystem->setCurrentIndex(filesystem->findData(QStringLiteral("luks2")));
        QVERIFY(first->isVisibleTo(&dialog));
        QCOMPARE(first->echoMode(), QLineEdit::Password);
        QVERIFY(!ok->isEnabled());
        first->setText(QStringLiteral("open sesame"));
        second->setText(QStringLiteral("open sesami"));
        QVERIFY(!ok->isEnabled());
        second->setText(QStringLiteral("open sesame"));
        QVERIFY(ok->isEnabled());
        const Operation op = dialog.operation();
        QCOMPARE(op.filesystem, QStringLiteral("luks2"));
        QCOMPARE(op.passphrase, QByteArray("open sesame"));
        filesystem->setCurrentIndex(filesystem->findData(QStringLiteral("ext4")));
        QVERIFY(!first->isVisibleTo(&dialog));
        QVERIFY(ok->isEnabled());
        QVERIFY(dialog.operation().passphrase.isEmpty());
    }
};

QTEST_MAIN(TestLayersMap)
#include "tst_layersmap.moc"
