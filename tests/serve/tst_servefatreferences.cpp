// A hostile FAT filesystem (an ESP a user made, copied with new ids by the root helper) against
// the reference rewriting that reads its files through mtools: a grub.cfg far larger than any
// config is refused without root first writing it whole into its scratch folder. The process's
// file-size limit stands for root's disk: a tool that writes past it fails. Judged by mtools
// reading the filesystem back: the small config holds the new id, the huge one is unchanged.

#include "toolrun.h"

#include "boot/fatreferencefiles.h"
#include "boot/referencefiles.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

namespace {

constexpr qint64 kMiB = 1 << 20;
constexpr qint64 kHugeBytes = 24 * kMiB;
constexpr qint64 kDiskLimit = 8 * kMiB; // what "root's disk" holds during the rewrite
const QByteArray kOld = "9558653b-7d4a-9547-b37a-ddab454cbba3";
const QByteArray kNew = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";

bool writeFile(const QString &path, const QByteArray &bytes, qint64 size = -1)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size() &&
           (size < 0 || f.resize(size));
}

QByteArray sha256(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

} // namespace

class TestServeFatReferences : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString image() const { return m_dir.filePath(QStringLiteral("esp.img")); }

    QByteArray mcopyOut(const QString &path)
    {
        const QString local = m_dir.filePath(QStringLiteral("back"));
        QFile::remove(local);
        pwtest::runTool(QStringLiteral("mcopy"), {QStringLiteral("-n"), QStringLiteral("-i"),
                                                  image(), QStringLiteral("::") + path, local});
        QFile f(local);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(missing)");
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString small = m_dir.filePath(QStringLiteral("small.cfg"));
        const QString huge = m_dir.filePath(QStringLiteral("huge.cfg"));
        QVERIFY(writeFile(small, "search --fs-uuid --set=root " + kOld + "\n"));
        QVERIFY(writeFile(huge, "search --fs-uuid --set=root " + kOld + "\n", kHugeBytes));
        const QString fat = image();
        const QList<QStringList> steps{
            {QStringLiteral("mkfs.vfat"), QStringLiteral("-C"), fat, QStringLiteral("49152")},
            {QStringLiteral("mmd"), QStringLiteral("-i"), fat, QStringLiteral("::/EFI"),
             QStringLiteral("::/EFI/big"), QStringLiteral("::/EFI/debian")},
            {QStringLiteral("mcopy"), QStringLiteral("-i"), fat, huge,
             QStringLiteral("::/EFI/big/grub.cfg")},
            {QStringLiteral("mcopy"), QStringLiteral("-i"), fat, small,
             QStringLiteral("::/EFI/debian/grub.cfg")}};
        for (const QStringList &step : steps) {
            const pwtest::ToolResult r = pwtest::runTool(step.first(), step.mid(1));
            QVERIFY2(r.ok(), qPrintable(r.describe()));
        }
        QFile::remove(huge);
    }

    // Read under the limit: the image itself is a file here, which the rewrite's writes would
    // also count against it (a disk in /dev does not).
    void aHugeFileIsNeverCopiedWhole()
    {
        rlimit saved{};
        QVERIFY(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
        const rlimit lowered{rlim_t(kDiskLimit), saved.rlim_max};
        partwise::FatReferenceFiles files(image(), 0);
        QByteArray bytes;
        QString why;
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &lowered) == 0);
        const auto read = files.read(QStringLiteral("EFI/big/grub.cfg"), &bytes, &why);
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &saved) == 0);
        QVERIFY2(read == partwise::ReferenceFiles::Read::NotPlain, qPrintable(why));
        QVERIFY2(why.startsWith(QStringLiteral("larger than")), qPrintable(why));
        QVERIFY(bytes.isEmpty());
    }

    void theHugeFileIsLeftAloneTheOthersRewritten()
    {
        const QByteArray hugeBefore = sha256(mcopyOut(QStringLiteral("/EFI/big/grub.cfg")));
        partwise::ReferenceOutcome outcome;
        {
            partwise::FatReferenceFiles files(image(), 0);
            outcome = partwise::rewriteReferenceFiles(
                files,
                {{partwise::IdentityChange::Kind::PartUuid, QString::fromLatin1(kOld),
                  QString::fromLatin1(kNew)}},
                QStringLiteral(".partwise-test"));
        }
        const QString lines = outcome.lines.join(QLatin1Char('\n'));
        QVERIFY2(outcome.ok, qPrintable(outcome.error + QLatin1Char('\n') + lines));
        QVERIFY2(lines.contains(QStringLiteral("/EFI/big/grub.cfg left alone: larger than")),
                 qPrintable(lines));
        QCOMPARE(outcome.filesChanged, 1);
        QCOMPARE(mcopyOut(QStringLiteral("/EFI/debian/grub.cfg")),
                 "search --fs-uuid --set=root " + kNew + "\n");
        QCOMPARE(sha256(mcopyOut(QStringLiteral("/EFI/big/grub.cfg"))), hugeBefore);
        const pwtest::ToolResult check =
            pwtest::runTool(QStringLiteral("fsck.vfat"), {QStringLiteral("-n"), image()});
        QVERIFY2(check.ok(), qPrintable(check.describe()));
    }
};

QTEST_GUILESS_MAIN(TestServeFatReferences)
#include "tst_servefatreferences.moc"
