#pragma once

// Partition → Open Encryption… and Close Encryption, as GParted has them: a LUKS partition's
// mapping opened with a passphrase asked here and closed again, through the same PartitionMounter
// as Mount (the helper's "unlock" and "lock", or root's own window); the passphrase goes only
// into that request. The disk is read again after each, and the status line says what is inside
// and which way the action went.

#include <QObject>

class MainWindow;
class MountActions;
class QAction;
struct HelperReply;

class EncryptionActions : public QObject
{
    Q_OBJECT

public:
    // Adds the actions to `mount`'s Partition menu and to the map's and list's context menus.
    static EncryptionActions *install(MainWindow *window, MountActions *mount);

    QAction *openAction() const { return m_open; }
    QAction *closeAction() const { return m_close; }

public slots:
    // Asks for the passphrase, then unlocks.
    void openEncryption();
    void unlockWith(QString passphrase);
    void closeEncryption();

signals:
    // An answer came back (and the disk is being read again); tests wait for it.
    void finished(bool ok, const QString &message);

private:
    EncryptionActions(MainWindow *window, MountActions *mount);
    void updateActions();
    void run(const QString &method, QString *passphrase);
    void report(const HelperReply &reply, const QString &method);
    QString wayOfActions() const;

    MainWindow *m_window;
    MountActions *m_mount;
    QAction *m_open = nullptr;
    QAction *m_close = nullptr;
};
