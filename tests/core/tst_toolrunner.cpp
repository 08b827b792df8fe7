// The tool runner of a root helper working for a user runs no scripts: a script may read its
// arguments again as commands (xfs_admin evals its label), so once runCompiledToolsOnly() is
// called a tool that starts with "#!" is refused, and only then. The marker file the script
// writes is the proof of whether it ran.
#include "base/toolrunner.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

class TestToolRunner : public QObject
{
    Q_OBJECT

private slots:
    void scriptsRunUntilRefused();
};

void TestToolRunner::scriptsRunUntilRefused()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString marker = dir.filePath(QStringLiteral("ran"));
    QFile script(dir.filePath(QStringLiteral("pw-test-tool")));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(QStringLiteral("#!/bin/sh\necho \"$1\" >> %1\n").arg(marker).toUtf8());
    script.close();
    QVERIFY(script.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                  QFileDevice::ExeOwner));
    qputenv("PATH", QFile::encodeName(dir.path()) + ":" + qgetenv("PATH"));

    const partwise::ToolResult before =
        partwise::runTool(QStringLiteral("pw-test-tool"), {QStringLiteral("first")});
    QVERIFY2(before.ok, qPrintable(before.error));
    QVERIFY(QFile::exists(marker));
    QVERIFY(QFile::remove(marker));

    partwise::runCompiledToolsOnly();
    const partwise::ToolResult after =
        partwise::runTool(QStringLiteral("pw-test-tool"), {QStringLiteral("second")});
    QVERIFY(!after.ok);
    QVERIFY2(after.error.contains(QStringLiteral("script")), qPrintable(after.error));
    QVERIFY(!QFile::exists(marker));
    // A compiled program still runs.
    const partwise::ToolResult compiled = partwise::runTool(QStringLiteral("true"), {});
    QVERIFY2(compiled.ok, qPrintable(compiled.error));
}

QTEST_GUILESS_MAIN(TestToolRunner)
#include "tst_toolrunner.moc"
