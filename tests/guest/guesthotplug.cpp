#include "guesthotplug.h"

#include "diskeventsource.h"
#include "disklistmodel.h"
#include "editing/editingcontroller.h"
#include "editing/pendingoperations.h"
#include "guestplug.h"
#include "toolrun.h"
#include "window/mainwindow.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QtTest>

using namespace partwise;

namespace pwtest {

namespace {

// A hang, not a slow machine: a plug is a few hundred milliseconds even under emulation.
constexpr int kPlugMs = 30000;

class HotPlug
{
public:
    explicit HotPlug(const QString &screenshots) : m_screenshots(screenshots) {}
    void run();

private:
    bool start();
    // Plugs `spare`; waits until the window lists it and has read it. Its node, or empty.
    QString plug(const GuestDrive &spare);
    // Unplugs `spare` at `node`; waits until the window's list no longer has it.
    bool unplug(const GuestDrive &spare, const QString &node);
    bool ask(const QString &verb, const GuestDrive &spare);
    bool queueNewTable(const QString &node);
    int queued(const QString &node) { return m_window->editing()->pendingFor(node)->count(); }
    bool listedAndRead(const QString &node) const;
    QString notices() const;
    void screenshot(QWidget *widget, const QString &name);

    QString m_screenshots;
    QList<GuestDrive> m_spares;
    std::unique_ptr<MainWindow> m_window;
    QElapsedTimer m_clock;
    QString m_pending; // the request sent last
};

bool HotPlug::start()
{
    QString error;
    m_spares = guestSpares(&error);
    if (m_spares.size() < 2) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1100, 700);
    m_window->show();
    auto *events = MonitoredDiskEvents::start(m_window.get(), &error);
    if (!events) {
        qWarning("no disk events: %s", qPrintable(error));
        return false;
    }
    m_window->followDiskEvents(events);
    // The guest's own drives are not read: each takes seconds under emulation, and the window
    // follows events whether or not it has read the disks it started with.
    return true;
}

bool HotPlug::ask(const QString &verb, const GuestDrive &spare)
{
    QString error;
    m_pending = requestPlug(verb, spare.name, &error);
    if (m_pending.isEmpty())
        qWarning("%s", qPrintable(error));
    m_clock.start();
    return !m_pending.isEmpty();
}

bool HotPlug::listedAndRead(const QString &node) const
{
    const int row = m_window->diskList()->rowOf(node);
    return row >= 0 && m_window->diskList()->entry(row).state == DiskEntry::State::Ready;
}

QString HotPlug::plug(const GuestDrive &spare)
{
    DiskListModel *disks = m_window->diskList();
    QStringList before;
    for (int row = 0; row < disks->rowCount(); ++row)
        before << disks->entry(row).path;
    if (!ask(QStringLiteral("plug"), spare))
        return {};
    QByteArray answer;
    QString node;
    qint64 listedMs = -1;
    // The window's list says when it appeared (nothing else runs meanwhile, so the event loop
    // is free); lsblk says afterwards whether that is the spare's serial.
    const bool read = QTest::qWaitFor(
        [&] {
            if (answer.isEmpty())
                answer = plugAnswer(m_pending);
            for (int row = 0; node.isEmpty() && row < disks->rowCount(); ++row)
                if (!before.contains(disks->entry(row).path))
                    node = disks->entry(row).path;
            if (!node.isEmpty() && listedMs < 0)
                listedMs = m_clock.elapsed();
            return !answer.isEmpty() && !node.isEmpty() && listedAndRead(node);
        },
        kPlugMs);
    qInfo("plugged %s (%s): QEMU answered %s; listed after %lld ms, read after %lld ms",
          qPrintable(spare.name), qPrintable(node), answer.trimmed().split('\n').last().constData(),
          listedMs, m_clock.elapsed());
    if (!read || !plugSucceeded(answer) || nodeOfSerial(spare.serial) != node) {
        qWarning("lsblk has serial %s at '%s'", qPrintable(spare.serial),
                 qPrintable(nodeOfSerial(spare.serial)));
        return {};
    }
    return node;
}

bool HotPlug::unplug(const GuestDrive &spare, const QString &node)
{
    if (!ask(QStringLiteral("unplug"), spare))
        return false;
    QByteArray answer;
    const bool left = QTest::qWaitFor(
        [&] {
            if (answer.isEmpty())
                answer = plugAnswer(m_pending);
            return m_window->diskList()->rowOf(node) < 0;
        },
        kPlugMs);
    qInfo("unplugged %s (%s): left the list after %lld ms", qPrintable(spare.name),
          qPrintable(node), m_clock.elapsed());
    const bool answered = QTest::qWaitFor(
        [&] {
            if (answer.isEmpty())
                answer = plugAnswer(m_pending);
            return !answer.isEmpty();
        },
        kPlugMs);
    return left && answered && plugSucceeded(answer) && nodeOfSerial(spare.serial).isEmpty();
}

bool HotPlug::queueNewTable(const QString &node)
{
    auto *chooser = m_window->findChild<QComboBox *>(QStringLiteral("deviceChooser"));
    chooser->setCurrentIndex(m_window->diskList()->rowOf(node));
    if (!QTest::qWaitFor([&] { return m_window->currentPath() == node; }, kPlugMs))
        return false;
    Operation op;
    op.type = Operation::Type::NewTable;
    op.tableType = QStringLiteral("gpt");
    QString error;
    if (!m_window->editing()->queue(op, &error))
        qWarning("%s", qPrintable(error));
    return queued(node) == 1;
}

QString HotPlug::notices() const
{
    QStringList texts;
    for (QMessageBox *box :
         m_window->findChildren<QMessageBox *>(QStringLiteral("queueDroppedNotice")))
        texts << box->text();
    return texts.join(u'\n');
}

void HotPlug::screenshot(QWidget *widget, const QString &name)
{
    QDir(m_screenshots).mkpath(QStringLiteral("."));
    QTest::qWait(100); // labels whose text just changed are laid out
    const QString path = QDir(m_screenshots).filePath(name + QStringLiteral(".png"));
    QVERIFY2(widget->grab().save(path), qPrintable(path));
}

void HotPlug::run()
{
    QElapsedTimer total;
    total.start();
    QVERIFY(start());
    const GuestDrive a = m_spares.at(0);
    const GuestDrive b = m_spares.at(1);
    screenshot(m_window.get(), QStringLiteral("hotplug-1-before-plug"));

    // Plugged: listed and read within a second or two, at the size QEMU was told.
    const QString node = plug(a);
    QVERIFY2(!node.isEmpty(), qPrintable(a.name));
    QCOMPARE(m_window->diskList()->entry(m_window->diskList()->rowOf(node)).layout.device.sizeBytes,
             a.sizeBytes);
    QVERIFY(queueNewTable(node));
    screenshot(m_window.get(), QStringLiteral("hotplug-2-after-plug-queued"));

    // Unplugged with a queue pending: it leaves the list, and its queue is dropped, saying so.
    QVERIFY(unplug(a, node));
    QCOMPARE(queued(node), 0);
    QVERIFY2(notices().contains(node) && notices().contains(QStringLiteral("removed")),
             qPrintable(notices()));
    screenshot(m_window.get(), QStringLiteral("hotplug-3-after-unplug"));
    for (QMessageBox *box :
         m_window->findChildren<QMessageBox *>(QStringLiteral("queueDroppedNotice")))
        screenshot(box, QStringLiteral("hotplug-3-notice"));

    // Another drive gets the name (the kernel gives the lowest free one): no queue comes back.
    const QString other = plug(b);
    QCOMPARE(other, node);
    QCOMPARE(
        m_window->diskList()->entry(m_window->diskList()->rowOf(other)).layout.device.sizeBytes,
        b.sizeBytes);
    QCOMPARE(queued(other), 0);
    QVERIFY(unplug(b, other));

    // The first drive plugged back in: listed again, with nothing queued.
    const QString again = plug(a);
    QVERIFY(!again.isEmpty());
    QCOMPARE(queued(again), 0);
    screenshot(m_window.get(), QStringLiteral("hotplug-4-replugged"));
    QVERIFY(unplug(a, again));
    qInfo("the hot-plug case took %lld ms", total.elapsed());
}

} // namespace

void hotPlugWithTheWindowOpen(const QString &screenshots)
{
    HotPlug(screenshots).run();
}

} // namespace pwtest
