// The layering ARCHITECTURE.md describes, kept true: core never sees Qt Gui or Widgets nor
// ui/, and inside core the folders depend downwards in the order
//   base < move < device < table < probe < fs < layer < boot < align < report < ops < cli
// (a folder may include its own files and those of folders before it). An edge that goes
// upwards is a debt: a new one fails this test. The list of known debts is empty and stays so;
// should one ever have to be tolerated for a while, it is named there and struck off once paid.
// Everything core defines lives in namespace partwise (move and align in nested namespaces), so
// a program that links core and a library with a `Disk` or `listDisks` of its own still links;
// binutils' nm reads that from the built library, not from the sources.

#include "buildsetting.h"
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

namespace {

const QStringList kOrder{
    QStringLiteral("base"),   QStringLiteral("move"),  QStringLiteral("device"),
    QStringLiteral("table"),  QStringLiteral("probe"), QStringLiteral("fs"),
    QStringLiteral("layer"),  QStringLiteral("boot"),  QStringLiteral("align"),
    QStringLiteral("report"), QStringLiteral("ops"),   QStringLiteral("cli")};

// Upward edges tolerated for now: none (issue "A codebase others would copy" paid them off).
const QSet<QString> kKnownDebts{};

struct Include
{
    QString file;
    QString target; // as written between the quotes or brackets
};

QList<Include> includesUnder(const QString &folder)
{
    static const QRegularExpression include(
        QStringLiteral("^\\s*#\\s*include\\s*[<\"]([^>\"]+)[>\"]"));
    QList<Include> found;
    QDirIterator it(folder, {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray &line : file.readAll().split('\n'))
            if (const auto m = include.match(QString::fromUtf8(line)); m.hasMatch())
                found << Include{path, m.captured(1)};
    }
    return found;
}

QString folderOf(const QString &path, const QString &core)
{
    return path.mid(core.size() + 1).section(QLatin1Char('/'), 0, 0);
}

} // namespace

class TestLayering : public QObject
{
    Q_OBJECT

private slots:
    void coreSeesNoWidgets();
    void coreFoldersDependDownwards();
    void uiFoldersHaveNoCycle();
    void coreDefinesOnlyPartwiseSymbols();
};

void TestLayering::coreSeesNoWidgets()
{
    const QString core = (pwtest::buildSetting("PARTWISE_SOURCE_DIR") + QStringLiteral("/core"));
    QStringList wrong;
    for (const Include &i : includesUnder(core))
        if (i.target.startsWith(QLatin1String("QtWidgets")) ||
            i.target.startsWith(QLatin1String("QtGui")) ||
            i.target.startsWith(QLatin1String("ui/")) ||
            QStringList{QStringLiteral("QWidget"), QStringLiteral("QApplication"),
                        QStringLiteral("QGuiApplication"), QStringLiteral("QPainter"),
                        QStringLiteral("QColor"), QStringLiteral("QIcon")}
                .contains(i.target))
            wrong << QStringLiteral("%1 includes %2").arg(i.file, i.target);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
}

void TestLayering::coreFoldersDependDownwards()
{
    const QString core = (pwtest::buildSetting("PARTWISE_SOURCE_DIR") + QStringLiteral("/core"));
    QSet<QString> upwards;
    QStringList examples;
    for (const Include &i : includesUnder(core)) {
        const QString from = folderOf(i.file, core);
        const QString to = i.target.section(QLatin1Char('/'), 0, 0);
        if (!kOrder.contains(from) || !kOrder.contains(to) || i.target.count('/') == 0)
            continue;
        if (kOrder.indexOf(to) > kOrder.indexOf(from)) {
            const QString edge = QStringLiteral("%1 -> %2").arg(from, to);
            if (!upwards.contains(edge))
                examples << QStringLiteral("%1 (%2 includes %3)").arg(edge, i.file, i.target);
            upwards.insert(edge);
        }
    }
    const QSet<QString> added = upwards - kKnownDebts;
    const QSet<QString> paid = kKnownDebts - upwards;
    QStringList addedExamples;
    for (const QString &e : std::as_const(examples))
        if (added.contains(e.section(QStringLiteral(" ("), 0, 0)))
            addedExamples << e;
    QVERIFY2(added.isEmpty(), qPrintable(QStringLiteral("new upward dependencies:\n") +
                                         addedExamples.join(QLatin1Char('\n'))));
    QVERIFY2(paid.isEmpty(), qPrintable(QStringLiteral("paid off, strike from kKnownDebts: ") +
                                        QStringList(paid.values()).join(QStringLiteral(", "))));
}

// ui/ holds what every part of the window shares (the models, the map, styles, background
// jobs); each feature folder may use it and other features, but nothing may come back round:
// ui/window composes, ui/editing, ui/realign, ui/probe and ui/ruler never need each other in
// both directions, and the shared root never needs a feature.
void TestLayering::uiFoldersHaveNoCycle()
{
    const QString ui = (pwtest::buildSetting("PARTWISE_SOURCE_DIR") + QStringLiteral("/ui"));
    auto folderName = [&](const QString &path) {
        const QString relative = path.mid(ui.size() + 1);
        return relative.contains(QLatin1Char('/'))
                   ? QStringLiteral("ui/") + relative.section(QLatin1Char('/'), 0, 0)
                   : QStringLiteral("ui");
    };
    QHash<QString, QSet<QString>> edges;
    QHash<QString, QString> example;
    for (const Include &i : includesUnder(ui)) {
        const QString from = folderName(i.file);
        QString to;
        if (i.target.contains(QLatin1Char('/')) &&
            QFileInfo::exists(ui + QLatin1Char('/') + i.target))
            to = QStringLiteral("ui/") + i.target.section(QLatin1Char('/'), 0, 0);
        else if (!i.target.contains(QLatin1Char('/')) &&
                 QFileInfo::exists(ui + QLatin1Char('/') + i.target))
            to = QStringLiteral("ui");
        if (to.isEmpty() || to == from)
            continue;
        edges[from].insert(to);
        example.insert(from + QStringLiteral(" -> ") + to,
                       QStringLiteral("%1 includes %2").arg(i.file, i.target));
    }
    // An edge a -> b is on a cycle exactly when b leads back to a.
    auto reaches = [&edges](const QString &from, const QString &target) {
        QSet<QString> seen;
        QStringList todo{from};
        while (!todo.isEmpty()) {
            const QString next = todo.takeLast();
            if (next == target)
                return true;
            if (!seen.contains(next)) {
                seen.insert(next);
                todo += edges.value(next).values();
            }
        }
        return false;
    };
    QStringList cycles;
    for (auto it = edges.cbegin(); it != edges.cend(); ++it)
        for (const QString &to : *it)
            if (reaches(to, it.key()))
                cycles << example.value(it.key() + QStringLiteral(" -> ") + to);
    cycles.sort();
    QVERIFY2(cycles.isEmpty(), qPrintable(QStringLiteral("include edges on a cycle:\n") +
                                          cycles.join(QLatin1Char('\n'))));
}

void TestLayering::coreDefinesOnlyPartwiseSymbols()
{
    QProcess nm;
    nm.start(QStringLiteral("nm"),
             {QStringLiteral("--demangle"), QStringLiteral("--defined-only"),
              QStringLiteral("--extern-only"), pwtest::buildSetting("PARTWISE_CORE_LIBRARY")});
    QVERIFY2(nm.waitForFinished(60000) && nm.exitCode() == 0,
             "nm (Debian package binutils) could not read the core library");
    // "0000000000000040 T partwise::listDisks()": T, D, B and R are strong definitions; weak
    // (W, V) ones are templates instantiated from Qt and the standard library.
    static const QRegularExpression strong(QStringLiteral("^[0-9a-f]+ [TDBR] (.*)$"));
    QStringList outside;
    int inside = 0;
    for (const QByteArray &line : nm.readAllStandardOutput().split('\n')) {
        const auto m = strong.match(QString::fromUtf8(line));
        if (!m.hasMatch())
            continue;
        if (m.captured(1).startsWith(QLatin1String("partwise::")))
            ++inside;
        else
            outside << m.captured(1);
    }
    QVERIFY2(inside > 100, qPrintable(QStringLiteral("only %1 symbols read").arg(inside)));
    QVERIFY2(outside.isEmpty(), qPrintable(QStringLiteral("core defines outside namespace "
                                                          "partwise:\n") +
                                           outside.mid(0, 20).join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TestLayering)
#include "tst_layering.moc"
