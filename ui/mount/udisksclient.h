#pragma once

// This computer's storage daemon, udisks2, over the D-Bus system bus: mount and unmount a
// filesystem, unlock and lock a LUKS partition, power off a drive, as GNOME Disks does. Its
// polkit rules let the active session's removable drives be handled without an administrator's
// password; whatever udisks2 refuses (or where it does not run) goes to the root helper instead
// (PartitionMounter decides). Never interactive: polkit is asked with no password dialog, so a
// refusal comes back at once and the helper's one password per session is the only prompt.
// Answers come back on the GUI thread.

#include <QObject>
#include <QString>
#include <QVariantMap>

#include <functional>

class UdisksClient : public QObject
{
    Q_OBJECT

public:
    enum class Outcome {
        Done,
        Absent,  // no system bus, udisksd not running, or it does not know the device
        Refused, // polkit said no (without asking for a password)
        Failed,  // udisks2 tried and the operation failed (busy, a wrong passphrase...)
    };
    struct Answer
    {
        Outcome outcome = Outcome::Absent;
        QString message; // udisks2's own words when it did not do it
        QString value;   // Mount: the folder; Unlock: the cleartext device's object path
    };
    using Done = std::function<void(const Answer &)>;

    explicit UdisksClient(QObject *parent = nullptr);

    // Whether udisksd answers on the system bus now (registered there, or started on demand).
    bool available() const;

    // `node` is a block device node of this computer ("/dev/sdb1").
    void mount(const QString &node, const Done &done);
    void unmount(const QString &node, const Done &done);
    void unlock(const QString &node, const QString &passphrase, const Done &done);
    void lock(const QString &node, const Done &done);
    // `node` is any block device of the drive (the whole disk, usually).
    void powerOff(const QString &node, const Done &done);

private:
    using Step = std::function<void(const QString &objectPath)>;
    // Finds udisks2's object for `node`, then runs `next` with it (or answers Absent).
    void resolve(const QString &node, const Done &done, const Step &next);
    // Calls `method` of `interface` on `object`; the reply's first value becomes Answer::value.
    void invoke(const QString &object, const QString &interface, const QString &method,
                const QVariantList &arguments, const Done &done);
};
