#include "realign/realignpagetext.h"

#include "report/humansize.h"

#include <QCoreApplication>
#include <QLabel>

namespace realigntext {

QLabel *wrappingLabel(const QString &text)
{
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString filesystemText(const QString &filesystem)
{
    return filesystem.isEmpty() ? QCoreApplication::translate("RealignWizard", "no filesystem")
                                : filesystem;
}

QString partitionTitle(int number, const QString &filesystem, const QString &label)
{
    const QString fs = filesystemText(filesystem);
    return label.isEmpty() ? QCoreApplication::translate("RealignWizard", "Partition %1 (%2)")
                                 .arg(number)
                                 .arg(fs)
                           : QCoreApplication::translate("RealignWizard", "Partition %1 (%2 “%3”)")
                                 .arg(number)
                                 .arg(fs, label);
}

QString grainName(qint64 bytes)
{
    return humanSize(bytes);
}

AlignmentPolicy withGrain(AlignmentPolicy policy, qint64 grain)
{
    policy.grainBytes = grain;
    return policy;
}
} // namespace realigntext
