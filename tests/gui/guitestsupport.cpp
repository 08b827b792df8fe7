#include "guitestsupport.h"
#include "buildsetting.h"

#include "disklistmodel.h"
#include "editing/applydialog.h"
#include "editing/editingcontroller.h"
#include "partitionmodel.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTest>
#include <QTimer>
#include <QWidget>

using namespace partwise;

namespace guitest {

Expected expectedStatus(qint64 startSector, qint64 logicalSize, qint64 physicalSize,
                        qint64 grainBytes, bool extended)
{
    if (extended)
        return Expected::Container;
    const qint64 firstByte = startSector * logicalSize;
    if (firstByte % physicalSize != 0)
        return Expected::Misaligned;
    if (firstByte % grainBytes != 0)
        return Expected::SectorAligned;
    return Expected::Aligned;
}

const char *expectedName(Expected expected)
{
    switch (expected) {
    case Expected::Aligned:
        return "aligned";
    case Expected::SectorAligned:
        return "sector-aligned";
    case Expected::Misaligned:
        return "misaligned";
    case Expected::Container:
        break;
    }
    return "container";
}

bool waitUntilShown(MainWindow &window, const QString &path, int timeoutMs)
{
    const QString absolute = QDir(path).absolutePath();
    DiskListModel *disks = window.diskList();
    auto shown = [&] {
        const int row = disks->rowOf(absolute);
        return row >= 0 && window.currentPath() == absolute &&
               disks->entry(row).state != DiskEntry::State::Reading;
    };
    return QTest::qWaitFor(shown, timeoutMs);
}

bool openAndWait(MainWindow &window, const QString &path, int timeoutMs)
{
    window.openImage(path);
    return waitUntilShown(window, path, timeoutMs);
}

int rowOfPartition(const PartitionModel &model, int number)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (!model.region(row).isFree() && model.region(row).number == number)
            return row;
    }
    return -1;
}

int countRedPixels(const QImage &image, const QRect &rect)
{
    int count = 0;
    const QRect area = rect.intersected(image.rect());
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() > 170 && c.green() < 70 && c.blue() < 70)
                ++count;
        }
    }
    return count;
}

QString saveScreenshot(QWidget *widget, const QString &name)
{
    const QDir dir(
        (pwtest::buildSetting("PARTWISE_TEST_BUILD_DIR") + QStringLiteral("/screenshots")));
    dir.mkpath(QStringLiteral("."));
    const QString path = dir.filePath(name + QStringLiteral(".png"));
    // Let pending layout requests (labels whose text just changed) settle first.
    QTest::qWait(50);
    widget->grab().save(path);
    return path;
}

void useTestSettings()
{
    QCoreApplication::setOrganizationName(QStringLiteral("PartwiseTests"));
    QCoreApplication::setApplicationName(QStringLiteral("partwise-gui-tests"));
    QSettings().clear();
}

struct ModalAnswers::Timer : QTimer
{
};

ModalAnswers::ModalAnswers(std::function<void(QWidget *modal)> handler) : m_timer(new Timer)
{
    QObject::connect(m_timer, &QTimer::timeout, [handler = std::move(handler)] {
        if (QWidget *modal = QApplication::activeModalWidget())
            handler(modal);
    });
    m_timer->start(20);
}

ModalAnswers::~ModalAnswers()
{
    delete m_timer;
}

bool applyPendingAndClose(EditingController *editing, QString *title, QString *log)
{
    bool ok = false;
    ModalAnswers answers([&](QWidget *modal) {
        if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            box->button(QMessageBox::Yes)->click();
        } else if (auto *d = qobject_cast<ApplyDialog *>(modal); d && d->isFinished()) {
            ok = d->result().ok;
            *title = d->windowTitle();
            *log = d->logText();
            d->accept();
        }
    });
    editing->action(EditingController::Action::Apply)->trigger();
    return ok;
}

} // namespace guitest
