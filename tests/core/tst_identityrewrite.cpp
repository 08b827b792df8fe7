// References to changed ids rewritten in a file's text (core/boot/identityrewrite) and the
// backup rule that lets a stopped rewrite be run again (core/boot/referencefiles), on texts
// worked out by hand: whole tokens only, the file's own case, LABEL= only for labels, every
// other byte kept, a second run changing nothing, a torn file finished from its backup.

#include "boot/identityrewrite.h"
#include "boot/referencefiles.h"
#include "reducedrun.h"

#include <QMap>
#include <QtTest>

#include <ctime>

using namespace partwise;

namespace {

using Kind = IdentityChange::Kind;

const QString kOld = QStringLiteral("0b7c4b1e-5a2f-4c3e-9d3b-2f1e8a6c7d10");
const QString kNew = QStringLiteral("1375a8ca-2652-466d-838d-5a13bd50de02");

// Files in memory; a name in `links` reads as a link.
class MemoryFiles : public ReferenceFiles
{
public:
    QMap<QString, QByteArray> files;
    QStringList links;
    Read read(const QString &path, QByteArray *bytes, QString *why) override
    {
        if (links.contains(path)) {
            *why = QStringLiteral("a symbolic link");
            return Read::NotPlain;
        }
        if (!files.contains(path))
            return Read::Missing;
        *bytes = files.value(path);
        return Read::Ok;
    }
    QStringList list(const QString &folder) override
    {
        QStringList out;
        for (const QString &p : files.keys())
            if (p.startsWith(folder + QLatin1Char('/')))
                out << p.mid(folder.size() + 1).section(QLatin1Char('/'), 0, 0);
        out.removeDuplicates();
        return out;
    }
    bool writeNew(const QString &path, const QString &, const QByteArray &bytes, QString *) override
    {
        files[path] = bytes;
        return true;
    }
    bool rewrite(const QString &path, const QByteArray &bytes, QString *) override
    {
        files[path] = bytes;
        return true;
    }
};

} // namespace

class TestIdentityRewrite : public QObject
{
    Q_OBJECT

private slots:
    void wholeTokensOnly()
    {
        const QByteArray text = "UUID=" + kOld.toUtf8() +
                                " / ext4 defaults 0 1\n"
                                "UUID=" +
                                kOld.toUtf8() +
                                "-extra /a ext4 noauto 0 0\n"
                                "x" +
                                kOld.toUtf8() +
                                " /b\n"
                                "/dev/disk/by-uuid/" +
                                kOld.toUtf8() + "\t/c\text4\n";
        QList<IdentityEdit> edits;
        const QByteArray out = rewriteIdentities(text, {{Kind::Uuid, kOld, kNew}}, &edits);
        QCOMPARE(out, QByteArray("UUID=" + kNew.toUtf8() +
                                 " / ext4 defaults 0 1\n"
                                 "UUID=" +
                                 kOld.toUtf8() +
                                 "-extra /a ext4 noauto 0 0\n"
                                 "x" +
                                 kOld.toUtf8() +
                                 " /b\n"
                                 "/dev/disk/by-uuid/" +
                                 kNew.toUtf8() + "\t/c\text4\n"));
        QCOMPARE(edits.size(), 2);
        QCOMPARE(edits.at(0).line, 1);
        QCOMPARE(edits.at(1).line, 4);
        QList<IdentityEdit> again;
        QCOMPARE(rewriteIdentities(out, {{Kind::Uuid, kOld, kNew}}, &again), out);
        QVERIFY(again.isEmpty());
    }

    void theFilesOwnCase()
    {
        const QByteArray text =
            "search --fs-uuid --set=esp b06d-9b03\r\nUUID=B06D-9B03 /boot/efi\r\n";
        const QByteArray out = rewriteIdentities(
            text, {{Kind::Uuid, QStringLiteral("B06D-9B03"), QStringLiteral("30BF-3441")}},
            nullptr);
        QCOMPARE(out, QByteArray(
                          "search --fs-uuid --set=esp 30bf-3441\r\nUUID=30BF-3441 /boot/efi\r\n"));
    }

    void mbrPartUuids()
    {
        const QByteArray text = "root=PARTUUID=1234abcd-01 resume=PARTUUID=1234abcd-012\n";
        const QByteArray out = rewriteIdentities(
            text, {{Kind::PartUuid, QStringLiteral("1234abcd-01"), QStringLiteral("9f00aa11-01")}},
            nullptr);
        QCOMPARE(out, QByteArray("root=PARTUUID=9f00aa11-01 resume=PARTUUID=1234abcd-012\n"));
    }

    void labelsOnlyAsLabels()
    {
        const QByteArray text = "LABEL=root / ext4\nPARTLABEL=root /x\nLABEL=rootfs /y\n"
                                "/dev/disk/by-label/root /z\n# root stays\n";
        const QByteArray out = rewriteIdentities(
            text, {{Kind::Label, QStringLiteral("root"), QStringLiteral("root2")}}, nullptr);
        QCOMPARE(out, QByteArray("LABEL=root2 / ext4\nPARTLABEL=root /x\nLABEL=rootfs /y\n"
                                 "/dev/disk/by-label/root2 /z\n# root stays\n"));
    }

    // A filesystem's owner picks its ids and its grub.cfg: 128 partitions' UUIDs and PARTUUIDs
    // that differ only in their last characters, and 1 MiB (the most a reference file may
    // hold) of tokens one character short of them. Root reads such a file on every copied
    // filesystem, so its cost must stay linear: once it was seconds of root's CPU per file.
    void aCraftedFileCostsLittle()
    {
        const QString shared = kOld.left(32);
        QList<IdentityChange> changes;
        for (int i = 0; i < 256; ++i)
            changes << IdentityChange{i % 2 ? Kind::PartUuid : Kind::Uuid,
                                      shared + QStringLiteral("%1").arg(i, 4, 16, QLatin1Char('0')),
                                      kNew};
        changes << IdentityChange{Kind::Label, QStringLiteral("root"), QStringLiteral("root2")};
        const QByteArray nearMiss = " " + shared.toUtf8() + "fff LABEL=roo by-label/";
        QByteArray text;
        int placed = 0;
        // The sanitizer build (reducedrun.h) runs each byte dozens of times slower: it checks
        // the same rewrite on a sixteenth of the file, and the bound on CPU time is the main
        // build's alone (0.55 s there; 9.4 s when the cost was per byte and change).
        const qsizetype size =
            pwtest::reducedRun() ? kMaxReferenceFileBytes / 16 : kMaxReferenceFileBytes - 200;
        while (text.size() < size) {
            text += nearMiss;
            if (text.size() % 4096 < nearMiss.size()) {
                text += "\nsearch --fs-uuid " + changes.at(placed % 256).from.toUtf8() + "\n";
                ++placed;
            }
        }
        timespec before{}, after{};
        QCOMPARE(::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &before), 0);
        QList<IdentityEdit> edits;
        const QByteArray out = rewriteIdentities(text, changes, &edits);
        QCOMPARE(::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &after), 0);
        const double seconds =
            double(after.tv_sec - before.tv_sec) + double(after.tv_nsec - before.tv_nsec) / 1e9;
        qInfo("crafted file of %lld bytes, %lld changes: %.3f s of CPU", qlonglong(text.size()),
              qlonglong(changes.size()), seconds);
        QCOMPARE(edits.size(), placed);
        QCOMPARE(out.count(kNew.toUtf8()), qsizetype(placed));
        if (!pwtest::reducedRun())
            QVERIFY2(seconds < 5, qPrintable(QString::number(seconds)));
    }

    // A rewrite stopped after part of a file was written: the backup of this job's name is the
    // original, so the next run finishes the file; a link is left alone.
    void aStoppedRunFinishedFromItsBackup()
    {
        MemoryFiles fs;
        const QByteArray original = "UUID=" + kOld.toUtf8() + " / ext4 defaults 0 1\n";
        const QByteArray done = "UUID=" + kNew.toUtf8() + " / ext4 defaults 0 1\n";
        fs.files[QStringLiteral("etc/fstab")] = done.left(12); // torn
        fs.files[QStringLiteral("etc/fstab.partwise-1a2b3c4d")] = original;
        fs.files[QStringLiteral("boot/loader/entries/a.conf")] =
            "options root=UUID=" + kOld.toUtf8() + "\n";
        fs.links << QStringLiteral("etc/crypttab");
        const ReferenceOutcome o = rewriteReferenceFiles(fs, {{Kind::Uuid, kOld, kNew}},
                                                         QStringLiteral(".partwise-1a2b3c4d"));
        QVERIFY2(o.ok, qPrintable(o.error));
        QCOMPARE(fs.files.value(QStringLiteral("etc/fstab")), done);
        QCOMPARE(fs.files.value(QStringLiteral("etc/fstab.partwise-1a2b3c4d")), original);
        QCOMPARE(fs.files.value(QStringLiteral("boot/loader/entries/a.conf")),
                 QByteArray("options root=UUID=" + kNew.toUtf8() + "\n"));
        QCOMPARE(fs.files.value(QStringLiteral("boot/loader/entries/a.conf.partwise-1a2b3c4d")),
                 QByteArray("options root=UUID=" + kOld.toUtf8() + "\n"));
        QCOMPARE(o.filesChanged, 2);
        QVERIFY(o.lines.contains(QStringLiteral("/etc/crypttab left alone: a symbolic link")));
        const ReferenceOutcome again = rewriteReferenceFiles(fs, {{Kind::Uuid, kOld, kNew}},
                                                             QStringLiteral(".partwise-1a2b3c4d"));
        QCOMPARE(again.filesChanged, 0);
    }

    // Names the filesystem's owner chose: one with a newline would forge a line of the job's
    // log, one with a glob would be expanded by mtools; a backup name taken by the owner's
    // folder or link leaves the file unrewritten rather than without its original.
    void hostileNamesLeftAlone()
    {
        MemoryFiles fs;
        const QByteArray entry = "options root=UUID=" + kOld.toUtf8() + "\n";
        fs.files[QStringLiteral("loader/entries/x\n/etc/shadow line 1: UUID a -> b.conf")] = entry;
        fs.files[QStringLiteral("EFI/[a-z]/grub.cfg")] = entry;
        fs.files[QStringLiteral("EFI/debian/grub.cfg")] = entry;
        fs.links << QStringLiteral("EFI/debian/grub.cfg.partwise-1a2b3c4d");
        const ReferenceOutcome o = rewriteReferenceFiles(fs, {{Kind::Uuid, kOld, kNew}},
                                                         QStringLiteral(".partwise-1a2b3c4d"));
        QVERIFY2(o.ok, qPrintable(o.error));
        QCOMPARE(o.filesChanged, 0);
        for (const QString &line : o.lines)
            QVERIFY2(!line.contains(QLatin1Char('\n')) && !line.contains(QLatin1Char('[')),
                     qPrintable(line));
        QVERIFY(o.lines.contains(
            QStringLiteral("/loader/entries/… left alone: a name with control or wildcard "
                           "characters")));
        QVERIFY(o.lines.contains(
            QStringLiteral("/EFI/… left alone: a name with control or wildcard characters")));
        QCOMPARE(fs.files.value(QStringLiteral("EFI/debian/grub.cfg")), entry);
        QVERIFY(!fs.files.contains(QStringLiteral("EFI/debian/grub.cfg.partwise-1a2b3c4d")));
    }
};

QTEST_GUILESS_MAIN(TestIdentityRewrite)
#include "tst_identityrewrite.moc"
