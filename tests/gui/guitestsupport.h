// Helpers shared by the GUI suites: waiting for the worker thread, screenshots, pixel counts,
// and the ARCHITECTURE.md alignment rule computed independently of core/align.
#pragma once

#include <QImage>
#include <QRect>
#include <QString>

#include <functional>

class EditingController;
class MainWindow;
class PartitionModel;
class QWidget;

namespace guitest {

enum class Expected { Aligned, SectorAligned, Misaligned, Container };

// ARCHITECTURE.md: the first byte (start × logical size) on a multiple of the physical size is
// at least sector-aligned; on a multiple of the grain it is aligned. Extended partitions
// are containers.
Expected expectedStatus(qint64 startSector, qint64 logicalSize, qint64 physicalSize,
                        qint64 grainBytes, bool extended);
const char *expectedName(Expected expected);

// Opens `path` in the window and waits until the worker has read it and the window shows it.
bool openAndWait(MainWindow &window, const QString &path, int timeoutMs = 60000);
// Waits until `path` is shown (read or failed), e.g. after a practice disk was created.
bool waitUntilShown(MainWindow &window, const QString &path, int timeoutMs = 60000);

int rowOfPartition(const PartitionModel &model, int number);

// Pixels close to the map's "misaligned" red inside `rect`.
int countRedPixels(const QImage &image, const QRect &rect);

// Saves a grab of `widget` as <build>/screenshots/<name>.png and returns the path.
QString saveScreenshot(QWidget *widget, const QString &name);

// Isolates QSettings from the user's own configuration.
void useTestSettings();

// Answers each modal dialog that comes up with `handler` (every 20 ms) while it lives, as the
// person at the keyboard would.
class ModalAnswers
{
public:
    explicit ModalAnswers(std::function<void(QWidget *modal)> handler);
    ~ModalAnswers();

private:
    struct Timer;
    Timer *m_timer;
};

// Apply as a person would: confirms, waits for the Apply dialog to finish, closes it. Returns
// whether it succeeded; the dialog's title and log go to `title` and `log`.
bool applyPendingAndClose(EditingController *editing, QString *title, QString *log);

} // namespace guitest
