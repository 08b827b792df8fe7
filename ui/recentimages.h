#pragma once

#include <QStringList>

// The disk images opened lately, newest first, kept in QSettings ("recentImages").
namespace RecentImages {

constexpr int kMaximum = 8;

QStringList load();
void add(const QString &path); // moves it to the front, drops the oldest beyond kMaximum
void clear();

} // namespace RecentImages
