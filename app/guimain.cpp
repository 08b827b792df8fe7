// partwise: the desktop window. Parses the command line and opens the window; everything
// else lives in ui/.
#include "copy/copycontroller.h"
#include "device/automountinhibitor.h"
#include "device/imagesectorsize.h"
#include "diskeventsource.h"
#include "helper/remotemachines.h"
#include "mount/encryptionactions.h"
#include "mount/mountactions.h"
#include "mount/partitionmounter.h"
#include "mount/poweroffaction.h"
#include "mount/volumegroupactions.h"
#include "realign/realigncontroller.h"
#include "ruler/sectorrulerpanel.h"
#include "uiresources.h"
#include "uitranslations.h"
#include "version.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QStatusBar>
#include <QTemporaryDir>

#include <cstdio>
#include <cstring>
#include <memory>

#include <unistd.h>

using namespace partwise;

namespace {

void setApplicationNames()
{
    QCoreApplication::setOrganizationName(QStringLiteral("Partwise"));
    QCoreApplication::setApplicationName(QStringLiteral("partwise"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(kPartwiseVersion));
}

struct CommandLine
{
    QCommandLineParser parser;
    QCommandLineOption demo{
        QStringLiteral("demo"),
        QCoreApplication::translate("main", "Create a demo disk image with misaligned "
                                            "partitions in a temporary folder and open it.")};
    QCommandLineOption sectorSize{
        QStringLiteral("sector-size"),
        QCoreApplication::translate("main", "Read the images with this logical sector size "
                                            "(512, 1024, 2048 or 4096)."),
        QStringLiteral("bytes")};

    CommandLine()
    {
        parser.setApplicationDescription(
            QCoreApplication::translate("main", "Partition editor that gets alignment right."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOption(demo);
        parser.addOption(sectorSize);
        parser.addPositionalArgument(QStringLiteral("image"),
                                     QCoreApplication::translate("main", "Disk images to open."),
                                     QStringLiteral("[IMAGE...]"));
    }
};

// --help and --version must work from a bare terminal (rescue sessions), where creating a
// QApplication would abort for want of a display.
bool asksForHelpOrVersion(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        for (const char *option : {"-h", "--help", "--help-all", "-v", "--version", "-?"}) {
            if (std::strcmp(argv[i], option) == 0)
                return true;
        }
    }
    return false;
}

// Root on a Wayland session: the compositor's socket lives in the user's XDG_RUNTIME_DIR,
// which root (pkexec, sudo) usually does not have, and Qt would abort with a cryptic error.
// Falls back to the session's X server (XWayland) when there is one; otherwise explains and
// returns false. Runs before QApplication exists, so the message is English.
bool reachableAsRootOnWayland()
{
    if (geteuid() != 0 || qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        return true;
    const QString platform = qEnvironmentVariable("QT_QPA_PLATFORM");
    if (!platform.isEmpty() && !platform.startsWith(QLatin1String("wayland")))
        return true; // xcb or offscreen asked for explicitly
    const QString display = qEnvironmentVariable("WAYLAND_DISPLAY");
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    const QString socket = QFileInfo(display).isAbsolute() || runtime.isEmpty()
                               ? display
                               : runtime + QLatin1Char('/') + display;
    if (QFileInfo(socket).isAbsolute() && QFileInfo::exists(socket))
        return true;
    if (!qEnvironmentVariableIsEmpty("DISPLAY") && platform.isEmpty()) {
        std::fprintf(stderr,
                     "partwise: running as root without access to the Wayland display "
                     "%s; using the X server on %s instead.\n",
                     qPrintable(display), qPrintable(qEnvironmentVariable("DISPLAY")));
        qputenv("QT_QPA_PLATFORM", "xcb");
        return true;
    }
    std::fprintf(stderr,
                 "partwise: running as root, but root cannot open a window on the Wayland "
                 "display %s.\n"
                 "Start Partwise from the menu or with partwise-launch (it asks for the "
                 "password and explains the choices), or allow root on the session's X "
                 "server (xhost si:localuser:root) and run with QT_QPA_PLATFORM=xcb.\n",
                 qPrintable(display));
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    if (asksForHelpOrVersion(argc, argv)) {
        QCoreApplication core(argc, argv);
        setApplicationNames();
        UiTranslations::install(&core);
        CommandLine commandLine;
        commandLine.parser.process(core); // prints and exits
        return 0;
    }

    if (!reachableAsRootOnWayland())
        return 1;

    QApplication app(argc, argv);
    // A run killed while it wrote to a disk left its automount inhibition behind.
    AutomountInhibitor::removeStaleInhibitions();
    setApplicationNames();
    UiTranslations::install(&app); // the system locale's catalogue, before any text is made
    QApplication::setApplicationDisplayName(QStringLiteral("Partwise"));
    QApplication::setDesktopFileName(QStringLiteral("org.partwise.Partwise"));
    ensureUiResources();
    QApplication::setWindowIcon(
        QIcon(QStringLiteral(":/partwise/icons/org.partwise.Partwise.svg")));
    CommandLine commandLine;
    QCommandLineParser &parser = commandLine.parser;
    parser.process(app);

    // The command line's rule (device/imagesectorsize.h): the same sizes, the same message.
    qint64 forcedSectorSize = 0;
    if (parser.isSet(commandLine.sectorSize) &&
        !partwise::parseSectorSize(parser.value(commandLine.sectorSize), &forcedSectorSize)) {
        std::fprintf(stderr, "%s\n",
                     qPrintable(QCoreApplication::translate("main", "--sector-size must be %1.")
                                    .arg(partwise::supportedSectorSizesText())));
        return 2;
    }

    MainWindow window;
    // Realign…, the banner, finishing interrupted work; beside the window's editing half.
    RealignController *realign = installRealign(&window, window.editing());
    // View → Sector Ruler, below the map.
    installSectorRuler(&window);
    // File → Connect to Machine…: another machine's disks, read by its helper over ssh; and,
    // for a window running as a user, this computer's disks through a root helper.
    RemoteMachines *machines = installRemoteMachines(&window);
    // A disk a helper writes is realigned by that helper, through the same wizard.
    realign->setHelperRealign(machines->realignThroughHelpers());
    // Partition → Unmount, Mount On…, Swap Off/On, and "Unmount and Continue" in the wizard:
    // through the disk's helper, or here in a window run as root.
    MountActions *mount = MountActions::install(
        &window, realign, new PartitionMounter([machines](const QString &machine) {
            return machines->connection(machine);
        }));
    // Partition → Open Encryption…, Close Encryption: the same way as Mount.
    EncryptionActions::install(&window, mount);
    // Partition → Activate/Deactivate Volume Group: the same way as Mount.
    VolumeGroupActions::install(&window, mount);
    // Drive → Power Off / Safely Remove: the same way as Mount.
    PowerOffAction::install(&window, mount);
    // Drive → Copy Disk To…: copied where both disks are, by this process or their helper.
    installCopyDisk(
        &window, [machines](const QString &machine) { return machines->copyBackend(machine); },
        [machines](const QString &key) { return machines->interruptedCopy(key); });
    // Disks plugged in and removed show up in the list by themselves (libudev's monitor).
    QString monitorError;
    if (auto *events = MonitoredDiskEvents::start(&window, &monitorError))
        window.followDiskEvents(events);
    else
        window.statusBar()->showMessage(
            QCoreApplication::translate("main", "New disks show after View → Refresh: %1")
                .arg(monitorError));
    window.show();

    // The demo image lives as long as the session: QTemporaryDir removes it on exit.
    std::unique_ptr<QTemporaryDir> demoFolder;
    if (parser.isSet(commandLine.demo)) {
        demoFolder = std::make_unique<QTemporaryDir>();
        if (demoFolder->isValid())
            window.openDemoDisk(demoFolder->path());
    }
    const bool asUser = ::geteuid() != 0;
    bool wantsDisks = parser.positionalArguments().isEmpty() && !parser.isSet(commandLine.demo);
    for (const QString &path : parser.positionalArguments()) {
        if (asUser && !QFileInfo(path).isFile())
            wantsDisks = true; // a device: the helper opens it, among the others
        else
            window.openImage(path, forcedSectorSize);
    }
    if (!asUser)
        window.scanDisks(); // root (a rescue system's session, or sudo): reads them itself
    else if (wantsDisks)
        machines->connectToThisMachine(); // one password, then the disks; images need none
    return app.exec();
}
