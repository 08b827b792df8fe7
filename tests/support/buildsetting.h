#pragma once

// Paths of this build and checkout that a test needs (partwise-cli, the build folder, a helper
// program, a fixtures folder), handed over by ctest in the test's environment under the names
// the CMake files give them, never compiled in: an absolute path in a -D flag makes every test's
// compile command differ from one checkout to the next, so ccache could never reuse one.
// PARTWISE_CLI and PARTWISE_TEST_BUILD_DIR are found from the test's own place in the build when
// a test is run by hand; the others need ctest (or the variable set).

#include <QByteArray>
#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QtGlobal>

namespace pwtest {

// The folder above the running test that holds CMakeCache.txt.
inline QString buildFolderOfThisTest()
{
    QDir dir = QFileInfo(QStringLiteral("/proc/self/exe"))
                   .canonicalFilePath()
                   .section(QLatin1Char('/'), 0, -2);
    do {
        if (dir.exists(QStringLiteral("CMakeCache.txt")))
            return dir.absolutePath();
    } while (dir.cdUp());
    return QString();
}

inline QString buildSetting(const char *name)
{
    const QString value = qEnvironmentVariable(name);
    if (!value.isEmpty())
        return value;
    const QString build = buildFolderOfThisTest();
    if (!build.isEmpty() && qstrcmp(name, "PARTWISE_TEST_BUILD_DIR") == 0)
        return build;
    if (!build.isEmpty() && qstrcmp(name, "PARTWISE_CLI") == 0)
        return build + QStringLiteral("/app/partwise-cli");
    qFatal("%s is not set: run the test through ctest, which sets it", name);
}

} // namespace pwtest
