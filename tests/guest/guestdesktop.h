// The guest suite of the desktop's storage stack (tst_guestdesktop.cpp says what it covers);
// its LVM case is in guestvolumegroups.cpp.
#pragma once

#include "guestdrives.h"

#include <QObject>
#include <QTemporaryDir>

class TestGuestDesktop : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void automounterStaysAwayDuringAMove();
    void heldPartitionsAreRefusedNamingTheHolder();
    void aPlainUsersImagesBesideSnapLoops();
    void luksUnlockedAndLockedAgain();
    void driveUnpluggedAndPluggedBack();
    // guestvolumegroups.cpp
    void volumeGroupActivatedAndDeactivated();
    // guestudisks.cpp: the stick is plugged back (its USB port enabled again) at its end.
    void usbStickThroughUdisksInTheSession();
    // guestpoweroff.cpp: last, since the stick is gone afterwards.
    void usbStickPoweredOff();

private:
    // The node lsblk lists for the drive of serial `serial` now; empty when it is not there.
    static QString lsblkDriveNode(const QString &serial);

    QList<pwtest::GuestDrive> m_drives;
    QTemporaryDir m_dir{QStringLiteral("/var/tmp/pw-guest-test.XXXXXX")};
};
