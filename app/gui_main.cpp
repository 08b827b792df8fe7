// partwise: the desktop window. Parses the command line and opens the window; everything
// else lives in ui/.
#include "mainwindow.h"
#include "version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTemporaryDir>

#include <memory>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Partwise"));
    QApplication::setApplicationName(QStringLiteral("partwise"));
    QApplication::setApplicationDisplayName(QStringLiteral("Partwise"));
    QApplication::setApplicationVersion(QString::fromLatin1(kPartwiseVersion));
    QApplication::setDesktopFileName(QStringLiteral("org.partwise.Partwise"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Partition editor that gets alignment right."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demo(
        QStringLiteral("demo"),
        QApplication::translate("main", "Create a demo disk image with misaligned partitions "
                                        "in a temporary folder and open it."));
    const QCommandLineOption sectorSize(
        QStringLiteral("sector-size"),
        QApplication::translate("main", "Read the images with this logical sector size."),
        QStringLiteral("bytes"));
    parser.addOption(demo);
    parser.addOption(sectorSize);
    parser.addPositionalArgument(QStringLiteral("image"),
                                 QApplication::translate("main", "Disk images to open."),
                                 QStringLiteral("[IMAGE...]"));
    parser.process(app);

    bool sizeOk = true;
    const qint64 forcedSectorSize =
        parser.isSet(sectorSize) ? parser.value(sectorSize).toLongLong(&sizeOk) : 0;
    if (!sizeOk || (forcedSectorSize != 0 && forcedSectorSize != 512 && forcedSectorSize != 4096)) {
        fprintf(stderr, "%s\n",
                qPrintable(QApplication::translate("main", "--sector-size takes 512 or 4096.")));
        return 2;
    }

    MainWindow window;
    window.show();

    // The demo image lives as long as the session: QTemporaryDir removes it on exit.
    std::unique_ptr<QTemporaryDir> demoFolder;
    if (parser.isSet(demo)) {
        demoFolder = std::make_unique<QTemporaryDir>();
        if (demoFolder->isValid())
            window.openDemoDisk(demoFolder->path());
    }
    for (const QString &image : parser.positionalArguments())
        window.openImage(image, forcedSectorSize);
    window.scanDisks();
    return app.exec();
}
