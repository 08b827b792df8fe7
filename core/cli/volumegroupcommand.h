#pragma once

// `partwise-cli vg-activate` and `vg-deactivate`: the LVM volume group of a partition that is
// one of its physical volumes activated or deactivated (layer/volumegroupcontrol.h).

#include <QString>
#include <QTextStream>

namespace partwise {

struct VolumeGroupCommandOptions
{
    QString target; // the disk
    int partition = 0;
    bool json = false;
    bool activate = true;
};

// Exit 0 done (the group and its active logical volumes printed), 1 when vgchange failed (a
// volume in use), 2 for a target or partition that is not there or is no PV of a group.
int runVolumeGroupCommand(const VolumeGroupCommandOptions &options, QTextStream &out,
                          QTextStream &err);

} // namespace partwise
