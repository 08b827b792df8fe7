// Help → Filesystem Support against the machine: for each filesystem, the programs a user would
// name for creating, labelling and checking it are looked up here independently (the sbin
// folders included), and the dialog must say "yes" exactly where they are installed; unsupported
// actions say "no". The Format dialog offers only filesystems the dialog says can be created.

#include "editing/operationdialogs.h"
#include "filesystemsupportdialog.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QComboBox>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>
#include <QTimer>

using namespace partwise;

namespace {

bool installed(const QString &program)
{
    return !QStandardPaths::findExecutable(program).isEmpty() ||
           !QStandardPaths::findExecutable(program,
                                           {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")})
                .isEmpty();
}

} // namespace

class TestFilesystemSupport : public QObject
{
    Q_OBJECT

private slots:
    void tableMatchesTheInstalledTools()
    {
        FilesystemSupportDialog dialog;
        QTableWidget *t = dialog.table();
        // Column order: create, label, check, repair, grow, shrink, move, used blocks.
        struct Row
        {
            QString fs, mkfs, label, check;
        };
        const QList<Row> rows{{QStringLiteral("ext4"), QStringLiteral("mkfs.ext4"),
                               QStringLiteral("e2label"), QStringLiteral("e2fsck")},
                              {QStringLiteral("xfs"), QStringLiteral("mkfs.xfs"),
                               QStringLiteral("xfs_admin"), QStringLiteral("xfs_repair")},
                              {QStringLiteral("vfat"), QStringLiteral("mkfs.fat"),
                               QStringLiteral("fatlabel"), QStringLiteral("fsck.fat")},
                              {QStringLiteral("ntfs"), QStringLiteral("mkntfs"),
                               QStringLiteral("ntfslabel"), QStringLiteral("ntfsfix")},
                              {QStringLiteral("exfat"), QStringLiteral("mkfs.exfat"),
                               QStringLiteral("exfatlabel"), QStringLiteral("fsck.exfat")},
                              {QStringLiteral("f2fs"), QStringLiteral("mkfs.f2fs"),
                               QStringLiteral("f2fslabel"), QStringLiteral("fsck.f2fs")}};
        QStringList labels;
        for (int r = 0; r < t->rowCount(); ++r)
            labels << t->verticalHeaderItem(r)->text();
        for (const Row &row : rows) {
            const int r = labels.indexOf(row.fs);
            QVERIFY2(r >= 0, qPrintable(row.fs));
            const QStringList programs{row.mkfs, row.label, row.check};
            for (int c = 0; c < 3; ++c) {
                const QString text = t->item(r, c)->text();
                QCOMPARE(text == QLatin1String("yes"), installed(programs[c]));
                if (!installed(programs[c]))
                    QVERIFY2(text.startsWith(QLatin1String("install ")), qPrintable(text));
            }
        }
        // What no tool can do is "no": XFS never shrinks, exFAT has no resizer.
        QCOMPARE(t->item(labels.indexOf(QStringLiteral("xfs")), 5)->text(), QStringLiteral("no"));
        QCOMPARE(t->item(labels.indexOf(QStringLiteral("exfat")), 4)->text(), QStringLiteral("no"));
        dialog.rescan();
        QCOMPARE(t->rowCount(), labels.size());
    }

    void formatOffersWhatCanBeCreated()
    {
        PartitionInfo partition;
        partition.number = 1;
        partition.startSector = 2048;
        partition.endSector = 4095;
        FormatDialog format(partition);
        auto *combo = format.findChild<QComboBox *>(QStringLiteral("filesystem"));
        QVERIFY(combo);
        for (int i = 0; i < combo->count(); ++i) {
            const QString fs = combo->itemData(i).toString();
            const QString program =
                fs == QLatin1String("luks2")    ? QStringLiteral("cryptsetup")
                : fs == QLatin1String("lvm-pv") ? QStringLiteral("pvcreate")
                : fs == QLatin1String("swap")   ? QStringLiteral("mkswap")
                : fs == QLatin1String("ntfs")   ? QStringLiteral("mkntfs")
                : fs.startsWith(QLatin1String("fat")) || fs == QLatin1String("vfat")
                    ? QStringLiteral("mkfs.fat")
                    : QStringLiteral("mkfs.") + fs;
            QVERIFY2(installed(program), qPrintable(fs));
        }
        QVERIFY(combo->findData(QStringLiteral("exfat")) >= 0);
        QVERIFY(combo->findData(QStringLiteral("f2fs")) >= 0);
    }

    void helpMenuOpensIt()
    {
        MainWindow window;
        QAction *action = window.findChild<QAction *>(QStringLiteral("filesystemSupportAction"));
        QVERIFY(action);
        bool opened = false;
        QTimer::singleShot(0, [&opened] {
            for (QWidget *w : QApplication::topLevelWidgets())
                if (auto *d = qobject_cast<FilesystemSupportDialog *>(w)) {
                    opened = d->table()->rowCount() > 0;
                    d->reject();
                }
        });
        action->trigger();
        QVERIFY(opened); // the Help entry showed the table
    }
};

QTEST_MAIN(TestFilesystemSupport)
#include "tst_filesystemsupport.moc"
