#pragma once

// What a copy does to booting, judged as a realignment judges its moves (boot/bootimpact.h):
// every copied partition that gets a new start is a move of its loaders, read from the source's
// boot inventory, with the same verdicts and repairs. Where the copy cannot do a fix-up the
// realignment does, it says so as a break. A plan with breaks runs only when the person accepts
// it (CopyOptions::acceptBootChange: --accept-boot-change, serve's accept_boot_change).

#include "boot/bootinventory.h"
#include "ops/copyplan.h"

namespace partwise {

// Adds to plan->bootFixes and plan->bootBreaks ("partition N: …", N the source's number) what
// each partition's new start does to what boots from `inventory` (the source's).
void judgeCopyBoot(const BootInventory &inventory, CopyPlan *plan);

// MBR to GPT: boot code that loads the active partition finds none on GPT. Under syslinux the
// copy gets gptmbr.bin and the partition GPT's Legacy BIOS Bootable attribute (a boot fix);
// any other such code is a break. Called after the plan's partitions are placed.
void planActivePartitionOnGpt(const QList<PartitionInfo> &chosen, const CopySourceFacts &facts,
                              CopyPlan *plan);

// The refusal of a plan that breaks booting and was not accepted; empty when it may run.
QString copyBootRefusal(const CopyPlan &plan, bool accepted);

} // namespace partwise
