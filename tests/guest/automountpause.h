// A guest case's pause of the desktop's automounter (tests/guest).
#pragma once

#include "guestdrives.h"
#include "toolrun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>

namespace pwtest {

inline const QString kIgnoreRule = QStringLiteral("/run/udev/rules.d/00-pwtest-fixture.rules");

// While a fixture is written, nothing automounts it (as a drive is made elsewhere and plugged
// in afterwards); then udev's change events show the finished drive to udisksd and udiskie.
class FixtureWithoutAutomount
{
public:
    FixtureWithoutAutomount()
    {
        QDir().mkpath(QFileInfo(kIgnoreRule).path());
        QFile rule(kIgnoreRule);
        rule.open(QIODevice::WriteOnly);
        rule.write("SUBSYSTEM==\"block\", ENV{UDISKS_IGNORE}=\"1\"\n");
        rule.close();
        runTool(QStringLiteral("udevadm"), {QStringLiteral("control"), QStringLiteral("--reload")});
    }
    ~FixtureWithoutAutomount()
    {
        QFile::remove(kIgnoreRule);
        runTool(QStringLiteral("udevadm"), {QStringLiteral("control"), QStringLiteral("--reload")});
        runTool(QStringLiteral("udevadm"),
                {QStringLiteral("trigger"), QStringLiteral("--action=change"),
                 QStringLiteral("--subsystem-match=block")});
        settleUdev();
    }
};

} // namespace pwtest
