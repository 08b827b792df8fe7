#pragma once

#include <QString>
#include <QStringList>

// The libparted flag names a table type offers, for the create and flags dialogs. libparted
// itself decides in the preview whether a flag fits a partition; this list only fills the UI.
QStringList partitionFlagNames(const QString &tableType);
// What a flag is for, as a tooltip.
QString partitionFlagHint(const QString &flag);
