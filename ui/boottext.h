#pragma once

// What boots from a disk, in the short rows of the info panel: the MBR's code and where it
// points, the BIOS boot partition, the ESPs, this machine's firmware entries naming them, and
// for one partition its boot loader. An empty string where nothing applies (the row is hidden).

#include "boot/bootinventory.h"

#include <QCoreApplication>
#include <QString>

struct BootText
{
    Q_DECLARE_TR_FUNCTIONS(BootText)

public:
    static QString mbrCode(const partwise::BootInventory &boot);
    static QString biosBoot(const partwise::BootInventory &boot);
    static QString esps(const partwise::BootInventory &boot);
    static QString firmwareEntries(const partwise::BootInventory &boot);
    static QString partition(const partwise::BootInventory &boot,
                             const partwise::PartitionBoot &partition);
};
